import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { deviceGrants, deviceShareCodes } from '../../src/db/schema'
import { VIEW_ONLY } from '../../src/services/devices/device-access'
import { runningPhones } from '../helpers/fleet'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { AuthTokenResult, CommandResult, Device } from '../../src/contract/device'
import type {
  AcceptShareResult,
  CreateGrantResult,
  GrantView,
  ShareCode,
  SharePreview,
} from '../../src/contract/grant'

const OWNER = '13600000001'
const GRANTEE = '13600000002'
const DAY_MS = 86_400_000

async function setup(t: Parameters<typeof buildTestApp>[0]) {
  const ta = await buildTestApp(t)
  const owner = await loginWithSms(ta, OWNER)
  const grantee = await loginWithSms(ta, GRANTEE)
  const [phone] = await runningPhones(ta, owner.userId, 1)
  return { ta, owner, grantee, phone }
}

const grant = (ta: TestApp, owner: Session, body: Record<string, unknown>) =>
  post<CreateGrantResult>(
    ta.app,
    '/device/empower',
    { mobilePhone: GRANTEE, permission: 2, days: 7, ...body },
    owner,
  )

const detail = (ta: TestApp, who: Session, deviceId: number) =>
  get<Device>(ta.app, '/device/detail', who, { deviceId: String(deviceId) })
const reboot = (ta: TestApp, who: Session, deviceId: number) =>
  post<CommandResult>(ta.app, '/device/command', { deviceId, command: 'Reboot' }, who)
const authToken = (ta: TestApp, who: Session, deviceId: number) =>
  get<AuthTokenResult>(ta.app, '/user/getAuthToken', who, { deviceId: String(deviceId) })

async function listed(ta: TestApp, who: Session) {
  const reply = await get<PagedData<Device>>(ta.app, '/device/list', who, { rows: '50' })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.records as { deviceId: number; grant: { permission: number } | null }[]
}

test('a grantee with view permission sees the phone, marked, and may watch its control page but not reboot it', async (t) => {
  const { ta, owner, grantee, phone } = await setup(t)
  const granted = await grant(ta, owner, { deviceIds: [phone], permission: 1 })
  assert.equal(granted.code, 200, granted.msg)
  assert.equal(granted.data.granteeMobile, '136****0002')

  const mine = await listed(ta, grantee)
  assert.deepEqual(
    mine.map((d) => [d.deviceId, d.grant?.permission]),
    [[phone, 1]],
  )
  const shown = await detail(ta, grantee, phone)
  assert.equal(shown.code, 200)
  assert.deepEqual(mine[0], shown.data, 'the list shows the grant as the detail does')
  const refused = await reboot(ta, grantee, phone)
  assert.equal(refused.msg, VIEW_ONLY)
  // the control page opens for them to watch (its session cannot control: supplier-control-routes.ts)
  assert.equal((await authToken(ta, grantee, phone)).code, 200)
  // owner-only: rename, zone change — as if the phone were not there
  const rename = await post<Device>(
    ta.app,
    '/device/rename',
    { deviceId: phone, name: '我的' },
    grantee,
  )
  assert.notEqual(rename.code, 200)
  // the owner's own list is unchanged and shows no grant
  assert.deepEqual(
    (await listed(ta, owner)).map((d) => [d.deviceId, d.grant]),
    [[phone, null]],
  )
})

test('control permission reboots and opens the control page; revoking stops it at once', async (t) => {
  const { ta, owner, grantee, phone } = await setup(t)
  assert.equal((await grant(ta, owner, { deviceIds: [phone] })).code, 200)
  const rebooted = await reboot(ta, grantee, phone)
  assert.equal(rebooted.code, 200, rebooted.msg)
  ta.clock.advance(5_000)
  await ta.app.jobs.runDue(10_000)
  assert.equal((await authToken(ta, grantee, phone)).code, 200)

  const out = await get<PagedData<GrantView>>(ta.app, '/device/empower/list', owner, {
    direction: 'out',
  })
  assert.equal(out.data.total, 1)
  assert.equal(out.data.records[0].otherMobile, '136****0002')
  const given = await get<PagedData<GrantView>>(ta.app, '/device/empower/list', grantee, {
    direction: 'in',
  })
  assert.equal(given.data.records[0].otherMobile, '136****0001')

  const revoked = await post(
    ta.app,
    '/device/empower/revoke',
    { grantIds: [out.data.records[0].grantId] },
    owner,
  )
  assert.equal(revoked.code, 200, revoked.msg)
  assert.notEqual((await detail(ta, grantee, phone)).code, 200)
  assert.notEqual((await reboot(ta, grantee, phone)).code, 200)
  assert.deepEqual(await listed(ta, grantee), [])
  const again = await post(
    ta.app,
    '/device/empower/revoke',
    { grantIds: [out.data.records[0].grantId] },
    owner,
  )
  assert.equal(again.msg, '授权不存在或已撤销')
})

test('a grant ends when it expires', async (t) => {
  const { ta, owner, grantee, phone } = await setup(t)
  await grant(ta, owner, { deviceIds: [phone], days: 1 })
  ta.clock.advance(DAY_MS - 60_000)
  assert.equal((await detail(ta, grantee, phone)).code, 200)
  ta.clock.advance(60_000)
  const gone = await ta.app.services.devices.list(grantee.userId, {})
  assert.deepEqual(gone.records, [])
  await assert.rejects(ta.app.services.devices.detail(grantee.userId, phone))
})

test('bad grants are refused with a clear message and write nothing', async (t) => {
  const { ta, owner, grantee, phone } = await setup(t)
  const [theirs] = await runningPhones(ta, grantee.userId, 1)
  const cases: [string, Record<string, unknown>, string][] = [
    ['to oneself', { deviceIds: [phone], mobilePhone: OWNER }, '不能授权给自己'],
    ['to an unknown number', { deviceIds: [phone], mobilePhone: '13699999999' }, '尚未注册'],
    ['a malformed number', { deviceIds: [phone], mobilePhone: '136' }, '手机号'],
    ['someone else’s phone', { deviceIds: [theirs] }, '云手机不存在或不属于您的账号'],
    ['an unlisted duration', { deviceIds: [phone], days: 5 }, '请选择授权时长'],
  ]
  for (const [what, body, msg] of cases) {
    const reply = await grant(ta, owner, body)
    assert.notEqual(reply.code, 200, what)
    assert.match(reply.msg, new RegExp(msg), what)
  }
  assert.deepEqual(await ta.database.db.select().from(deviceGrants), [])
})

test('a QR share is accepted once, not by its owner, and not after it expires', async (t) => {
  const { ta, owner, grantee, phone } = await setup(t)
  const third = await loginWithSms(ta, '13600000003')
  const shared = await post<ShareCode>(
    ta.app,
    '/device/empower/share',
    { deviceIds: [phone], permission: 1, days: 30 },
    owner,
  )
  assert.equal(shared.code, 200, shared.msg)
  assert.equal(shared.data.text, `cloudphone:share:${shared.data.code}`)
  assert.match(shared.data.qrImage, /^data:image\/png;base64,/)
  const code = shared.data.code as string

  const own = await post<AcceptShareResult>(ta.app, '/device/empower/acceptShare', { code }, owner)
  assert.equal(own.msg, '这是您自己分享的云手机')
  const preview = await get<SharePreview>(ta.app, '/device/empower/share', grantee, { code })
  assert.deepEqual(
    { ...preview.data, expiresAt: 0 },
    { ownerMobile: '136****0001', deviceCount: 1, permission: 1, days: 30, expiresAt: 0 },
  )
  const accepted = await post<AcceptShareResult>(
    ta.app,
    '/device/empower/acceptShare',
    { code },
    grantee,
  )
  assert.equal(accepted.code, 200, accepted.msg)
  assert.equal((await detail(ta, grantee, phone)).code, 200)
  const second = await post<AcceptShareResult>(
    ta.app,
    '/device/empower/acceptShare',
    { code },
    third,
  )
  assert.equal(second.msg, '分享二维码已失效，请让对方重新分享')

  const later = await post<ShareCode>(
    ta.app,
    '/device/empower/share',
    { deviceIds: [phone], permission: 2, days: 7 },
    owner,
  )
  ta.clock.advance(DAY_MS + 1)
  const expired = await post<AcceptShareResult>(
    ta.app,
    '/device/empower/acceptShare',
    { code: later.data.code },
    third,
  )
  assert.equal(expired.msg, '分享二维码已失效，请让对方重新分享')
  const [row] = await ta.database.db
    .select()
    .from(deviceShareCodes)
    .where(eq(deviceShareCodes.code, later.data.code))
  assert.equal(row.acceptedBy, null)
})
