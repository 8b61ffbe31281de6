import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { fieldName } from './errors'
import { sendEnvelope } from './envelope'

/**
 * Text PostgreSQL cannot store: NUL (text refuses it: the query fails, issue 24 found HTTP 500 on 14
 * routes) and UTF-16 surrogates without their pair (a JSON body can carry "\ud800"; the drivers turn
 * it into U+FFFD, so what is stored is not what was sent).
 */
// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * Where in `value` a string is unstorable, as an AJV-style path ('' for the value itself); for a key
 * that is, the path of its object.
 */
export function unstorableTextAt(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? at : null
  if (typeof value !== 'object' || value === null) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextAt(value[i], `${at}/${i}`)
      if (found !== null) return found
    }
    return null
  }
  for (const [key, item] of Object.entries(value)) {
    // a name that is itself such text is not repeated back: the object holding it is named
    if (UNSTORABLE.test(key)) return at
    const found = unstorableTextAt(item, `${at}/${key}`)
    if (found !== null) return found
  }
  return null
}

export const unsupportedTextMessage = (field: string) =>
  field ? `${field} 含有不支持的字符` : '请求内容含有不支持的字符'

/**
 * One gate for every route, before its schema and handler: a body, query or path parameter with such
 * text anywhere is refused with an envelope naming the field, so no route can pass it to the database.
 */
export default fp(async function textInput(app: FastifyInstance) {
  app.addHook('preValidation', async (request, reply) => {
    for (const part of [request.params, request.query, request.body]) {
      const at = unstorableTextAt(part)
      if (at === null) continue
      await sendEnvelope(reply, 400, 400, unsupportedTextMessage(fieldName(at)))
      return reply
    }
  })
})
