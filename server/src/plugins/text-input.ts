import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { fieldName } from './errors'
import { sendEnvelope } from './envelope'

/**
 * Text PostgreSQL cannot store: NUL (text refuses it: the query fails: an earlier review found HTTP 500 on
 * 14 routes) and UTF-16 surrogates without their pair (a JSON body can carry "\ud800"; the drivers turn
 * it into U+FFFD, so what is stored is not what was sent).
 */
// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * How deep objects and arrays may nest in a request. No schema of ours nests past a handful of levels
 * (fuzz-routes.test.ts checks), and JSON.parse builds any depth a megabyte allows without recursing:
 * half a million `[`. Whatever walked such a value by recursion overflowed the stack (HTTP 500).
 */
export const MAX_BODY_DEPTH = 32
export const TOO_DEEP = '请求内容嵌套层数过多'

/** What makes a request part unacceptable, and where (an AJV-style path, '' for the value itself). */
export type TextProblem = { unstorable: string } | { tooDeep: true }

/**
 * The first problem in `value`, in document order: a string that is unstorable (for a key that is, the
 * path of its object), or nesting past MAX_BODY_DEPTH. Walked with a stack of its own, never by
 * recursion, so no depth of nesting can overflow it.
 */
export function textProblemIn(value: unknown): TextProblem | null {
  // `holder`: the path of the object whose member this is, named when the member's key is such text
  const stack: { value: unknown; at: string; depth: number; key?: string; holder?: string }[] = [
    { value, at: '', depth: 0 },
  ]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, at, depth, key, holder } = next
    // a name that is itself such text is not repeated back: the object holding it is named
    if (key !== undefined && UNSTORABLE.test(key)) return { unstorable: holder! }
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { unstorable: at }
      continue
    }
    if (typeof value !== 'object' || value === null) continue
    if (depth === MAX_BODY_DEPTH) return { tooDeep: true }
    const members = Array.isArray(value) ? value.entries() : Object.entries(value)
    const children = [...members].map(([name, item]) => ({
      value: item as unknown,
      at: `${at}/${name}`,
      depth: depth + 1,
      ...(Array.isArray(value) ? {} : { key: String(name), holder: at }),
    }))
    // pushed last to first, so members are looked at in document order
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
  }
  return null
}

export const unsupportedTextMessage = (field: string) =>
  field ? `${field} 含有不支持的字符` : '请求内容含有不支持的字符'

/**
 * One gate for every route, before its schema and handler: a body, query or path parameter with such
 * text anywhere, or nested too deep, is refused with an envelope (naming the field that holds the
 * text), so no route passes it to the database and nothing after this walks a value of any depth.
 */
export default fp(async function textInput(app: FastifyInstance) {
  app.addHook('preValidation', async (request, reply) => {
    for (const part of [request.params, request.query, request.body]) {
      const problem = textProblemIn(part)
      if (problem === null) continue
      const msg =
        'tooDeep' in problem ? TOO_DEEP : unsupportedTextMessage(fieldName(problem.unstorable))
      await sendEnvelope(reply, 400, 400, msg)
      return reply
    }
  })
})
