/**
 * Authorisation sweep: for every route (read from the OpenAPI document the server builds from its
 * contract, so a new route is covered when it is added) that takes the id of something a user owns —
 * a phone, group, order, coupon, backup/task, grant, message or app — user B calls it with user A's id,
 * everything else in the request filled in validly from the schema. B must be refused, or (a list
 * filtered by the id) get nothing of A's; and nothing of A's may change. A route with an id-like field
 * this sweep does not know fails the test until the field is classified below.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq, or } from 'drizzle-orm'
import {
  apps,
  deviceGrants,
  deviceGroups,
  devices,
  messages,
  orders,
  spaceTasks,
  userCoupons,
} from '../../src/db/schema'
import { buildApk } from '../helpers/apk'
import { commerceApp, createCloudOrder } from '../helpers/commerce'
import { runningPhones } from '../helpers/fleet'
import { call, loginWithSms, post, type TestApp } from '../helpers/test-app'
import type { CreateGrantResult } from '../../src/contract/grant'
import { ADMIN_API_PREFIX } from '../../src/console/contract'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import { adminCall, createOperator, signIn, type OperatorSession } from '../console/helpers'
import { authHeaders, buildTestApp } from '../helpers/test-app'

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  minLength?: number
  minimum?: number
  anyOf?: JsonSchema[]
  const?: unknown
  enum?: unknown[]
}
interface Operation {
  'x-operator-roles'?: readonly OperatorRole[] | 'public'
  parameters?: { in: string; name: string; schema: JsonSchema; required?: boolean }[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
}

/** Fields that are not anyone's property: catalogue ids, client values, codes meant to be shared. */
const NOT_OWNED = new Set([
  'goodId',
  'priceId',
  'packageId',
  'toGoodId',
  'zoneId',
  'itemId',
  'modelId',
  'channelCode',
  'inviteCode',
  'jsCode',
  'openid',
  'smsCode',
  'logId',
  // activation codes are gifts and shares are made to be accepted by someone else
  'code',
])
/** Routes whose `id` is public. */
const PUBLIC_ID_ROUTES = new Set(['/activity/detail'])
/**
 * Login routes take the client's own device id; the sandbox's pages work by capability tokens; the
 * operator routes are no user's (their own sweep is the last test).
 */
const skipRoute = (url: string) =>
  url.startsWith(`${ADMIN_API_PREFIX}/`) ||
  url.startsWith('/sandbox/') ||
  url === '/common/userLogin/confirm' ||
  url === '/user/login' ||
  url.startsWith('/user/wx') ||
  url.startsWith('/user/scanLogin/')
const ID_LIKE = /(^id$|^ids$|Id$|Ids$|No$)/

/** A value the schema accepts, for the parts of a request that are not under test. */
function validValue(name: string, schema: JsonSchema): unknown {
  if (schema.anyOf) return validValue(name, schema.anyOf[0])
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1)
    case 'boolean':
      return false
    case 'array':
      return [validValue(name, schema.items ?? {})]
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [
          key,
          validValue(key, schema.properties?.[key] ?? {}),
        ]),
      )
    default:
      if (/mobile/i.test(name)) return '13599999999'
      if (/code$/i.test(name)) return '123456'
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1))
  }
}

async function aliceWorld(ta: TestApp) {
  const alice = await loginWithSms(ta, '13500001001')
  const carol = await loginWithSms(ta, '13500001003')
  const db = ta.database.db
  const [phone] = await runningPhones(ta, alice.userId, 1)
  await db.update(devices).set({ name: 'A专属云机' }).where(eq(devices.id, phone))
  const [group] = await db
    .insert(deviceGroups)
    .values({ userId: alice.userId, name: 'A专属分组', sort: 0, createdAt: ta.clock.now() })
    .returning()
  const order = await createCloudOrder(ta, alice)
  assert.equal(order.code, 200, order.msg)
  const [coupon] = await db.select().from(userCoupons).where(eq(userCoupons.userId, alice.userId))
  const [backup] = await db
    .insert(spaceTasks)
    .values({
      userId: alice.userId,
      deviceId: phone,
      deviceName: 'A专属云机',
      kind: 'backup',
      status: 'done',
      sizeBytes: 1024,
      createdAt: ta.clock.now(),
      finishedAt: ta.clock.now(),
    })
    .returning()
  const granted = await post<CreateGrantResult>(
    ta.app,
    '/device/empower',
    { deviceIds: [phone], mobilePhone: '13500001003', permission: 2, days: 7 },
    alice,
  )
  assert.equal(granted.code, 200, granted.msg)
  const [grant] = await db.select().from(deviceGrants).where(eq(deviceGrants.ownerId, alice.userId))
  const [message] = await db.select().from(messages).where(eq(messages.userId, alice.userId))
  const app = await ta.app.services.apps.upload(
    alice.userId,
    buildApk({ packageName: 'com.alice.only', label: 'A专属应用', chineseLabel: 'A专属应用' }),
  )
  const install = await ta.app.services.appInstalls.start(alice.userId, app.appId, {
    deviceIds: [phone],
  })
  return {
    alice,
    carol,
    ids: {
      deviceId: phone,
      deviceIds: [phone],
      renewDeviceId: phone,
      groupId: group.id,
      groupIds: [group.id],
      orderNo: order.data.orderNo as string,
      couponId: coupon.id,
      backupId: backup.id,
      id: backup.id,
      grantIds: [grant.id],
      ids: [message.id],
      appId: app.appId,
      installId: install.installId,
    } as Record<string, unknown>,
    markers: ['A专属云机', 'A专属分组', order.data.orderNo as string, '13500001001', 'A专属应用'],
  }
}

/** Everything of Alice's the sweep must leave as it was. */
async function aliceRows(ta: TestApp, userId: number) {
  const db = ta.database.db
  return JSON.stringify({
    devices: await db.select().from(devices).where(eq(devices.userId, userId)),
    groups: await db.select().from(deviceGroups).where(eq(deviceGroups.userId, userId)),
    orders: await db.select().from(orders).where(eq(orders.userId, userId)),
    coupons: await db.select().from(userCoupons).where(eq(userCoupons.userId, userId)),
    tasks: await db.select().from(spaceTasks).where(eq(spaceTasks.userId, userId)),
    grants: await db
      .select()
      .from(deviceGrants)
      .where(or(eq(deviceGrants.ownerId, userId), eq(deviceGrants.granteeId, userId))),
    messages: await db.select().from(messages).where(eq(messages.userId, userId)),
    apps: await db.select().from(apps).where(eq(apps.ownerId, userId)),
  })
}

test('another user’s ids are refused on every route that takes one, and nothing of theirs changes', async (t) => {
  const ta = await commerceApp(t)
  const { alice, ids, markers } = await aliceWorld(ta)
  const bob = await loginWithSms(ta, '13500001002')
  await ta.app.ready()
  const spec = (
    ta.app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }
  ).swagger()
  const before = await aliceRows(ta, alice.userId)
  const problems: string[] = []
  const swept: string[] = []

  for (const [path, methods] of Object.entries(spec.paths)) {
    const url = path.replace(/^\/vmcloud\/api/, '')
    if (skipRoute(url)) continue
    for (const [method, op] of Object.entries(methods)) {
      const bodySchema = op.requestBody?.content['application/json']?.schema
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query')
      const fields = [
        ...Object.entries(bodySchema?.properties ?? {}).map(([name, schema]) => ({
          name,
          schema,
          where: 'body' as const,
        })),
        ...queryParams.map((p) => ({ name: p.name, schema: p.schema, where: 'query' as const })),
      ]
      const owned = fields.filter(
        (f) =>
          ID_LIKE.test(f.name) &&
          !NOT_OWNED.has(f.name) &&
          !(f.name === 'id' && PUBLIC_ID_ROUTES.has(url)),
      )
      for (const f of owned) {
        if (!(f.name in ids)) problems.push(`${url}: id field "${f.name}" is not classified`)
      }
      const usable = owned.filter((f) => f.name in ids)
      if (usable.length === 0) continue
      swept.push(`${method.toUpperCase()} ${url}`)

      const body: Record<string, unknown> = {}
      const query: Record<string, string> = {}
      const required = new Set([
        ...(bodySchema?.required ?? []),
        ...queryParams.filter((p) => p.required).map((p) => p.name),
      ])
      for (const f of fields) {
        let value: unknown
        if (f.name in ids && usable.includes(f)) value = ids[f.name]
        else if (required.has(f.name)) value = validValue(f.name, f.schema)
        else continue
        if (f.where === 'body') body[f.name] = value
        else query[f.name] = Array.isArray(value) ? value.join(',') : String(value)
      }
      const reply = await call(ta.app, method.toUpperCase() as 'GET' | 'POST', url, {
        session: bob,
        body: bodySchema ? body : undefined,
        query,
      })
      const leaked = markers.filter((marker) => JSON.stringify(reply.data ?? null).includes(marker))
      if (reply.status >= 500) problems.push(`${url} → HTTP ${reply.status}`)
      else if (leaked.length > 0) problems.push(`${url} → shows Alice's ${leaked.join(', ')}`)
    }
  }
  console.log(`authz sweep: ${swept.length} routes called with Alice's ids as Bob`)
  assert.deepEqual(problems, [])
  assert.equal(await aliceRows(ta, alice.userId), before, 'nothing of Alice’s changed')
  assert.ok(swept.length >= 30, `the sweep reached the id-taking routes (${swept.length})`)
})

/**
 * Every operator route (from the OpenAPI document, so a new one is covered when it is added) is refused
 * without a session, with a user's token and userId, and, as each role its `x-operator-roles` leaves out,
 * with 4003; body and query filled validly from the schema, so only the credentials are wrong.
 */
test('operator routes refuse no session, a user token and every role they do not admit', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13500003001')
  const sessions = new Map<OperatorRole, OperatorSession>()
  for (const role of OPERATOR_ROLES) {
    sessions.set(role, await signIn(ta, await createOperator(ta, `sweep-${role}`, role)))
  }
  const spec = (
    ta.app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }
  ).swagger()
  const problems: string[] = []
  let routes = 0
  let wrongRoles = 0
  for (const [path, methods] of Object.entries(spec.paths)) {
    if (!path.startsWith(`${ADMIN_API_PREFIX}/`)) continue
    const url = path.slice(ADMIN_API_PREFIX.length).replace(/\{\w+\}/g, '1')
    for (const [method, op] of Object.entries(methods)) {
      const roles = op['x-operator-roles']
      if (!roles) problems.push(`${method} ${url}: no x-operator-roles`)
      if (!roles || roles === 'public') continue
      routes++
      const bodySchema = op.requestBody?.content['application/json']?.schema
      const body = bodySchema ? validValue('body', bodySchema) : undefined
      const query = Object.fromEntries(
        (op.parameters ?? [])
          .filter((p) => p.in === 'query' && p.required)
          .map((p) => [p.name, String(validValue(p.name, p.schema))]),
      )
      const upper = method.toUpperCase() as 'GET' | 'POST' | 'DELETE'
      const expect = async (
        what: string,
        reply: Promise<{ code: number; data: unknown }>,
        code: number,
      ) => {
        const answer = await reply
        if (answer.code !== code || answer.data !== null) {
          problems.push(`${upper} ${url} ${what} → ${answer.code}`)
        }
      }
      await expect(
        'without a session',
        adminCall(ta, upper, url, { body, query }),
        OperatorCode.NOT_SIGNED_IN,
      )
      await expect(
        'with a user token',
        adminCall(ta, upper, url, { body, query, headers: authHeaders(user) }),
        OperatorCode.NOT_SIGNED_IN,
      )
      for (const role of OPERATOR_ROLES.filter((r) => !roles.includes(r))) {
        wrongRoles++
        await expect(
          `as ${role}`,
          adminCall(ta, upper, url, { body, query, as: sessions.get(role) }),
          OperatorCode.FORBIDDEN,
        )
      }
    }
  }
  console.log(`authz sweep: ${routes} operator routes, ${wrongRoles} wrong-role calls`)
  assert.deepEqual(problems, [])
  assert.ok(routes >= 7, `the operator routes were reached (${routes})`)
  assert.ok(wrongRoles >= 15, `wrong roles were tried (${wrongRoles})`)
})
