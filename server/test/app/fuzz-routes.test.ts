/**
 * Every route's body and query, generated from its own schema (the OpenAPI document the server builds
 * from the TypeBox contract) with values that schema forbids: the answer is our envelope with a non-200
 * code and a message, never HTTP 500, and nothing is written. A new route is covered when it is added.
 * Every field that takes text also gets NUL and a lone surrogate (text PostgreSQL cannot store, which
 * gave HTTP 500 on 14 routes before): the answer is 400 naming that field (plugins/text-input.ts).
 * Every integer, number, string or boolean body field the schema does not make nullable (and such a
 * list's item) is sent as JSON null in an otherwise valid body: the answer is 400 naming it as of the
 * wrong type (Ajv's coercion read null as 0, "" or false; plugins/validation.ts).
 *
 * fast-check has no TypeBox/JSON-schema binding, so `invalidValues` below turns a property's schema into
 * values it must refuse — chosen so Fastify's type coercion cannot turn them valid (a numeric string is
 * coerced to an integer, a scalar to a one-item array, so those are not used).
 */
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import fc from 'fast-check'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { sql } from 'drizzle-orm'
import { ADMIN_API_PREFIX } from '../../src/console/contract'
import { MAX_BODY_DEPTH, TOO_DEEP } from '../../src/plugins/text-input'
import { adminCall, createOperator, signIn, type OperatorSession } from '../console/helpers'
import { buildTestApp, call, loginWithSms, type TestApp } from '../helpers/test-app'

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  maxLength?: number
  minLength?: number
  maxItems?: number
  minItems?: number
  minimum?: number
  pattern?: string
  nullable?: boolean
  maximum?: number
  anyOf?: JsonSchema[]
  const?: unknown
  enum?: unknown[]
}
interface Operation {
  parameters?: { in: string; name: string; schema: JsonSchema; required?: boolean }[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  /** An operator route's roles (console/plugins/auth.ts). */
  'x-operator-roles'?: OperatorRole[] | 'public'
}

const JUNK_OBJECT = { junk: { nested: [1, 'x'] } }

/** Values `schema` must refuse (never a value Fastify's coercion could make valid). */
function invalidValues(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.anyOf || schema.const !== undefined || schema.enum) {
    return fc.constantFrom('不在选项里', JUNK_OBJECT, [JUNK_OBJECT])
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'integer':
    case 'number': {
      const out: unknown[] = ['abc', JUNK_OBJECT, [JUNK_OBJECT]]
      if (type === 'integer') out.push(1.5)
      if (schema.maximum !== undefined) out.push(schema.maximum + 1)
      if (schema.minimum !== undefined) out.push(schema.minimum - 1)
      return fc.constantFrom(...out)
    }
    case 'string': {
      const out: unknown[] = [JUNK_OBJECT, [JUNK_OBJECT]]
      if (schema.maxLength !== undefined) out.push('长'.repeat(schema.maxLength + 1))
      if (schema.minLength) out.push('')
      return fc.constantFrom(...out)
    }
    case 'boolean':
      return fc.constantFrom(JUNK_OBJECT, 'maybe', [JUNK_OBJECT])
    case 'array': {
      const out: unknown[] = [JUNK_OBJECT, [JUNK_OBJECT, JUNK_OBJECT]]
      if (schema.maxItems !== undefined) out.push(Array(schema.maxItems + 1).fill(JUNK_OBJECT))
      return fc.constantFrom(...out)
    }
    case 'object':
      return fc.constantFrom('x', [1, 2], 42)
    default:
      return fc.constantFrom(JUNK_OBJECT)
  }
}

/** Bodies `schema` must refuse: not an object, required fields missing, one field of the wrong kind. */
function invalidBodies(schema: JsonSchema, runs: number): unknown[] {
  const bodies: unknown[] = ['不是对象', 12, [1, 2]]
  if (schema.required?.length) bodies.push({})
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    for (const value of fc.sample(invalidValues(property), { numRuns: runs, seed: 42 })) {
      bodies.push({ [name]: value })
    }
  }
  return bodies
}

/** A value `schema` accepts, or undefined when this cannot make one (a pattern none of its guesses fit). */
function validValue(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum.find((value) => value !== null)
  if (schema.anyOf) return validValue(schema.anyOf.find((option) => option.type !== 'null')!)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? Infinity)
    case 'string': {
      const length = Math.max(1, schema.minLength ?? 1)
      const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u')
      return ['a', '0']
        .map((char) => char.repeat(length))
        .find(
          (text) => text.length <= (schema.maxLength ?? length) && (pattern?.test(text) ?? true),
        )
    }
    case 'boolean':
      return true
    case 'array': {
      const item = validValue(schema.items ?? {})
      return item === undefined ? undefined : Array<unknown>(schema.minItems ?? 0).fill(item)
    }
    case 'object':
      return validBody(schema)
    default:
      return undefined
  }
}

/** The object `schema` accepts with every required property set, or undefined. */
function validBody(schema: JsonSchema): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {}
  for (const name of schema.required ?? []) {
    const value = validValue(schema.properties?.[name] ?? {})
    if (value === undefined) return undefined
    body[name] = value
  }
  return body
}

const SCALAR_TYPES = ['integer', 'number', 'string', 'boolean']
const takesNull = (schema: JsonSchema) =>
  schema.nullable === true ||
  schema.type === 'null' ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (schema.enum ?? []).includes(null) ||
  (schema.anyOf ?? []).some(takesNull)

/**
 * A valid body with JSON null in one integer, number, string or boolean field (or as the item of such
 * a list) the schema does not make nullable: refused as that field's wrong type, never read as 0, ""
 * or false (Ajv's coercion did, found in review; plugins/validation.ts).
 */
function nullBodies(schema: JsonSchema): { body: unknown; field: string }[] {
  const base = validBody(schema)
  if (!base) return []
  const out: { body: unknown; field: string }[] = []
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (takesNull(property)) continue
    if (SCALAR_TYPES.includes(property.type as string)) {
      out.push({ body: { ...base, [name]: null }, field: name })
    }
    const items = property.items
    if (property.type === 'array' && items && SCALAR_TYPES.includes(items.type as string)) {
      if (!takesNull(items)) out.push({ body: { ...base, [name]: [null] }, field: `${name}[0]` })
    }
  }
  return out
}

/** Queries that must be refused: one parameter of the wrong kind (as the string a URL carries). */
function invalidQueries(params: NonNullable<Operation['parameters']>, runs: number) {
  const queries: Record<string, string>[] = []
  for (const param of params.filter((p) => p.in === 'query')) {
    for (const value of fc.sample(invalidValues(param.schema), { numRuns: runs, seed: 42 })) {
      // a URL carries only text: any text is a valid string, so strings are refused only by length
      if (param.schema.type === 'string' && typeof value !== 'string') continue
      queries.push({ [param.name]: typeof value === 'object' ? 'x{[junk' : String(value) })
    }
  }
  return queries.filter((q) => Object.values(q)[0] !== '')
}

/** Text PostgreSQL cannot store: NUL, and a surrogate without its pair (JSON only: a URL is UTF-8). */
const NUL = 'a\u0000b'
const LONE_SURROGATE = 'a\ud800b'
const UNSUPPORTED_TEXT = '含有不支持的字符'

const admitsString = (schema: JsonSchema): boolean =>
  schema.type === 'string' ||
  (Array.isArray(schema.type) && schema.type.includes('string')) ||
  typeof schema.const === 'string' ||
  (schema.enum ?? []).some((value) => typeof value === 'string') ||
  (schema.anyOf ?? []).some(admitsString)

/** Bodies with NUL or a lone surrogate in one string field (nested objects and arrays too). */
function unstorableBodies(schema: JsonSchema): { body: unknown; field: string }[] {
  const out: { body: unknown; field: string }[] = []
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (admitsString(property)) {
      for (const text of [NUL, LONE_SURROGATE]) out.push({ body: { [name]: text }, field: name })
    }
    if (property.type === 'object') {
      for (const inner of unstorableBodies(property)) {
        out.push({ body: { [name]: inner.body }, field: `${name}.${inner.field}` })
      }
    }
    if (property.type === 'array' && property.items) {
      const items = property.items
      if (admitsString(items)) out.push({ body: { [name]: [NUL] }, field: `${name}[0]` })
      for (const inner of items.type === 'object' ? unstorableBodies(items) : []) {
        out.push({ body: { [name]: [inner.body] }, field: `${name}[0].${inner.field}` })
      }
    }
  }
  return out
}

/** Row counts of every table: what a refused request must leave as it was. */
async function rowCounts(ta: TestApp): Promise<Record<string, number>> {
  const db = ta.database.db
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: { table_name: string }[] }
  const counts: Record<string, number> = {}
  for (const { table_name: table } of tables.rows) {
    const result = (await db.execute(
      sql.raw(`select count(*)::int as n from "${table}"`),
    )) as unknown as { rows: { n: number }[] }
    counts[table] = Number(result.rows[0].n)
  }
  return counts
}

/** A signed-in user, an operator of each role, and every operation of the OpenAPI document. */
async function fuzzTargets(ta: TestApp) {
  const session = await loginWithSms(ta, '13500000001')
  // the operator console's routes are fuzzed as a role allowed on each (admin where it may), with
  // the CSRF token, so the role check is not what refuses them
  const operators = new Map<OperatorRole, OperatorSession>()
  for (const role of OPERATOR_ROLES) {
    operators.set(role, await signIn(ta, await createOperator(ta, `fuzz-${role}`, role)))
  }
  const operatorFor = (roles: Operation['x-operator-roles']) =>
    operators.get(!Array.isArray(roles) || roles.includes('admin') ? 'admin' : roles[0])!
  await ta.app.ready()
  const spec = (
    ta.app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }
  ).swagger()
  const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const admin = path.startsWith(`${ADMIN_API_PREFIX}/`)
      const url = admin
        ? path.slice(ADMIN_API_PREFIX.length).replace(/\{\w+\}/g, '1')
        : path.replace(/^\/vmcloud\/api/, '')
      return { path, method: method.toUpperCase() as 'GET' | 'POST' | 'DELETE', op, admin, url }
    }),
  )
  /**
   * One request to an operation, as its caller would send it (`json`: a body already in JSON text); a
   * reply that is no envelope is status 0.
   */
  const send = (
    { method, op, admin, url }: (typeof operations)[number],
    request: { body?: unknown; json?: string; query?: Record<string, string> },
  ) => {
    // a body that is not an object still goes as JSON (inject would send it as text)
    const raw =
      request.json !== undefined ||
      (request.body !== undefined &&
        (typeof request.body !== 'object' || Array.isArray(request.body)))
    const options = {
      body: request.json ?? (raw ? JSON.stringify(request.body) : request.body),
      query: request.query,
      headers: raw ? { 'content-type': 'application/json' } : undefined,
    }
    return (
      admin
        ? adminCall(ta, method, url, { ...options, as: operatorFor(op['x-operator-roles']) })
        : call(ta.app, method as 'GET' | 'POST', url, { ...options, session })
    ).catch((error: Error) => ({
      status: 0,
      code: 0,
      msg: `not an envelope: ${error.message}`,
    }))
  }
  return { operations, send }
}

test('every route refuses bodies and queries its schema forbids: an envelope with a message, never 500, nothing written', async (t) => {
  const ta = await buildTestApp(t)
  const { operations, send } = await fuzzTargets(ta)
  const before = await rowCounts(ta)
  const problems: string[] = []
  let cases = 0
  let routes = 0
  let adminRoutes = 0
  let nullCases = 0
  for (const operation of operations) {
    const { path, method, op, admin, url } = operation
    const bodySchema = op.requestBody?.content['application/json']?.schema
    const requests: {
      body?: unknown
      query?: Record<string, string>
      /** the field the answer must name as holding unsupported text */
      unstorable?: string
      /** the field the answer must name as of the wrong type (it was sent as null) */
      nulled?: string
    }[] = [
      ...(bodySchema ? invalidBodies(bodySchema, 3).map((body) => ({ body })) : []),
      ...invalidQueries(op.parameters ?? [], 3).map((query) => ({ query })),
      ...(bodySchema
        ? unstorableBodies(bodySchema).map(({ body, field }) => ({ body, unstorable: field }))
        : []),
      ...(bodySchema
        ? nullBodies(bodySchema).map(({ body, field }) => ({ body, nulled: field }))
        : []),
      ...(op.parameters ?? [])
        .filter((p) => p.in === 'query' && admitsString(p.schema))
        .map((p) => ({ query: { [p.name]: NUL }, unstorable: p.name })),
    ]
    nullCases += requests.filter((request) => request.nulled).length
    if (requests.length > 0) routes++
    if (requests.length > 0 && admin) adminRoutes++
    for (const request of requests) {
      cases++
      const what = `${method} ${url} ${JSON.stringify(request).slice(0, 120)}`
      const reply = await send(operation, request)
      // the sandbox's own browser pages (checkout, control page) answer in HTML
      if (reply.status === 0 && path.includes('/sandbox/')) continue
      if (reply.status === 0) problems.push(`${what} → ${reply.msg}`)
      else if (reply.status >= 500) problems.push(`${what} → HTTP ${reply.status}`)
      else if (reply.code === 200) problems.push(`${what} → accepted`)
      else if (
        request.unstorable &&
        (reply.status !== 400 || reply.msg !== `${request.unstorable} ${UNSUPPORTED_TEXT}`)
      ) {
        problems.push(`${what} → HTTP ${reply.status} ${reply.msg}`)
      } else if (
        request.nulled &&
        (reply.status !== 400 || reply.msg !== `${request.nulled} 类型不正确`)
      ) {
        problems.push(`${what} → HTTP ${reply.status} ${reply.msg}`)
      } else if (typeof reply.msg !== 'string' || reply.msg.trim() === '') {
        problems.push(`${what} → code ${reply.code} without a message`)
      }
    }
  }
  const after = await rowCounts(ta)
  assert.ok(nullCases > 150, `null is sent in most bodies' fields (${nullCases})`)
  const written = Object.keys(after).filter((table) => after[table] !== before[table])
  console.log(
    `fuzz: ${cases} invalid requests (${nullCases} with a null field) over ${routes} routes (${adminRoutes} operator routes)`,
  )
  assert.deepEqual(problems, [])
  assert.deepEqual(written, [], 'tables written by refused requests')
  assert.ok(routes > 80, `most routes have a schema to fuzz (${routes})`)
  assert.ok(adminRoutes >= 4, `the operator routes are fuzzed too (${adminRoutes})`)
})

/** JSON text of arrays or objects nested `depth` deep (JSON.stringify itself recurses, and overflows). */
const nestedJson = (kind: 'array' | 'object', depth: number) =>
  kind === 'array'
    ? `${'['.repeat(depth)}"x"${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`

/** How deep a schema's values nest (an object or array is one level, its members the next). */
const schemaDepth = (schema: JsonSchema): number =>
  Math.max(
    0,
    ...(schema.anyOf ?? []).map(schemaDepth),
    ...(schema.type === 'object'
      ? [1 + Math.max(0, ...Object.values(schema.properties ?? {}).map(schemaDepth))]
      : []),
    ...(schema.type === 'array' ? [1 + (schema.items ? schemaDepth(schema.items) : 0)] : []),
  )

test('every route refuses a body nested 10,000 deep with 400 before anything walks it: no 500, no error logged', async (t) => {
  const lines: { level: number; msg: string }[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  })
  const ta = await buildTestApp(t, { logger: { level: 'info', stream } })
  const { operations, send } = await fuzzTargets(ta)
  const before = await rowCounts(ta)
  const problems: string[] = []
  let cases = 0
  let deepest = 0
  for (const operation of operations) {
    const schema = operation.op.requestBody?.content['application/json']?.schema
    if (!schema) continue
    deepest = Math.max(deepest, schemaDepth(schema))
    const field = Object.keys(schema.properties ?? {})[0] ?? 'field'
    // a payment provider's callback keeps its body as the bytes received (its signature is over
    // them): the provider refuses it, with a 4xx of its own
    const rawBody = schema.type === undefined && !schema.properties
    const target = { ...operation, url: operation.url.replace('{provider}', 'sandbox') }
    for (const kind of ['array', 'object'] as const) {
      const deep = nestedJson(kind, 10_000)
      for (const json of [deep, `{${JSON.stringify(field)}:${deep}}`]) {
        cases++
        const reply = await send(target, { json })
        const answer = [reply.status, reply.code, reply.msg]
        if (reply.status === 0 && operation.path.includes('/sandbox/')) continue
        const refused = rawBody
          ? reply.status >= 400 && reply.status < 500 && reply.code === reply.status
          : JSON.stringify(answer) === JSON.stringify([400, 400, TOO_DEEP])
        if (!refused)
          problems.push(`${operation.method} ${target.url} ${kind} → ${answer.join(' ')}`)
      }
    }
  }
  console.log(`fuzz: ${cases} bodies nested 10,000 deep; the deepest schema nests ${deepest}`)
  // the limit is no trouble to any body a schema describes
  assert.ok(deepest > 2 && deepest < MAX_BODY_DEPTH, `schemas nest ${deepest} deep`)
  assert.deepEqual(problems, [])
  assert.ok(cases > 300, `${cases} deep bodies`)
  assert.ok(lines.length > cases, 'the log is heard (each request is logged)')
  const errors = lines.filter((line) => line.level >= 50)
  assert.deepEqual(errors, [], 'nothing is logged as an error')
  const after = await rowCounts(ta)
  assert.deepEqual(
    Object.keys(after).filter((table) => after[table] !== before[table]),
    [],
    'nothing written',
  )
})
