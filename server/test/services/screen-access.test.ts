/**
 * A phone's screen URL is a capability of one viewer for minutes (services/devices/screen-access.ts): it
 * works for the owner and a current grantee, and stops the moment they may no longer see the phone
 * (grant revoked, phone transferred), when it runs out, or when any part of it is altered. The
 * control page's session ends with the right to control the phone as well.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { users } from '../../src/db/schema'
import { SCREEN_PASS_STEP_MS } from '../../src/services/devices/screen-access'
import { runningPhones } from '../helpers/fleet'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  sendCode,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { AuthTokenResult, Device, DeviceCover } from '../../src/contract/device'
import type { CreateGrantResult, GrantView } from '../../src/contract/grant'
import type { TransferResult } from '../../src/contract/transfer'
import { controlPageData } from '../helpers/control-page'

const OWNER = '13900000001'
const GRANTEE = '13900000002'
const RECEIVER = '13900000003'

async function setup(t: Parameters<typeof buildTestApp>[0]) {
  const ta = await buildTestApp(t)
  const owner = await loginWithSms(ta, OWNER)
  const grantee = await loginWithSms(ta, GRANTEE)
  const receiver = await loginWithSms(ta, RECEIVER)
  const [phone] = await runningPhones(ta, owner.userId, 1)
  const granted = await post<CreateGrantResult>(
    ta.app,
    '/device/empower',
    { deviceIds: [phone], mobilePhone: GRANTEE, permission: 2, days: 7 },
    owner,
  )
  assert.equal(granted.code, 200, granted.msg)
  return { ta, owner, grantee, receiver, phone }
}

/** The screen at `url`: its HTTP status (200 with an SVG, else refused). */
async function screen(ta: TestApp, url: string) {
  const reply = await ta.app.inject({ method: 'GET', url })
  if (reply.statusCode === 200) assert.match(reply.body, /^<svg /)
  return reply.statusCode
}

async function detailCover(ta: TestApp, who: Session, phone: number): Promise<string> {
  const reply = await get<Device>(ta.app, '/device/detail', who, { deviceId: String(phone) })
  assert.equal(reply.code, 200, reply.msg)
  assert.ok(reply.data.coverUrl, 'a running phone shows its screen')
  return reply.data.coverUrl
}

async function listCover(ta: TestApp, who: Session, phone: number): Promise<string> {
  const reply = await get<PagedData<Device>>(ta.app, '/device/list', who, { rows: '50' })
  assert.equal(reply.code, 200, reply.msg)
  const found = (reply.data.records as { deviceId: number; coverUrl: string }[]).find(
    (d) => d.deviceId === phone,
  )
  assert.ok(found?.coverUrl, 'the list shows the screen')
  return found.coverUrl
}

async function freshCover(ta: TestApp, who: Session, phone: number): Promise<string> {
  const reply = await get<DeviceCover>(ta.app, '/device/cover', who, { deviceId: String(phone) })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.url
}

async function revokeAll(ta: TestApp, owner: Session) {
  const out = await get<PagedData<GrantView>>(ta.app, '/device/empower/list', owner, {
    direction: 'out',
  })
  const grantIds = (out.data.records as { grantId: number }[]).map((g) => g.grantId)
  const revoked = await post(ta.app, '/device/empower/revoke', { grantIds }, owner)
  assert.equal(revoked.code, 200, revoked.msg)
}

async function transferTo(ta: TestApp, sender: Session, phone: number, mobilePhone: string) {
  await ta.database.db
    .update(users)
    .set({ passwordHash: 'set-by-test' })
    .where(eq(users.id, sender.userId))
  ta.clock.advance(61_000)
  const smsCode = await sendCode(ta.app, OWNER, 'transfer', sender)
  const moved = await post<TransferResult>(
    ta.app,
    '/device/transfer',
    { deviceIds: [phone], mobilePhone, smsCode },
    sender,
  )
  assert.equal(moved.code, 200, moved.msg)
}

/** Opens the control page as `who` and returns its session secret. */
async function controlSession(ta: TestApp, who: Session, phone: number): Promise<string> {
  const issued = await get<AuthTokenResult>(ta.app, '/user/getAuthToken', who, {
    deviceId: String(phone),
  })
  assert.equal(issued.code, 200, issued.msg)
  const url = `${issued.data.controlUrl}&token=${encodeURIComponent(issued.data.authToken)}&userId=${who.userId}&userType=2&isWeb=1`
  const page = await ta.app.inject({ method: 'GET', url })
  assert.equal(page.statusCode, 200)
  const session = controlPageData(page.body)?.session
  assert.ok(session)
  return session
}

const controlState = async (ta: TestApp, session: string) =>
  (
    await ta.app.inject({
      method: 'GET',
      url: `/vmcloud/api/sandbox/supplier/control/state?session=${encodeURIComponent(session)}`,
    })
  ).json()
const controlCommand = async (ta: TestApp, session: string) =>
  (
    await ta.app.inject({
      method: 'POST',
      url: '/vmcloud/api/sandbox/supplier/control/command',
      payload: { session, command: 'CleanVm' },
    })
  ).json()

test('revoke and transfer end every screen URL given out before, at once', async (t) => {
  const { ta, owner, grantee, receiver, phone } = await setup(t)
  const ownerUrls = [
    await detailCover(ta, owner, phone),
    await listCover(ta, owner, phone),
    await freshCover(ta, owner, phone),
  ]
  const granteeUrls = [
    await detailCover(ta, grantee, phone),
    await listCover(ta, grantee, phone),
    await freshCover(ta, grantee, phone),
  ]
  for (const url of [...ownerUrls, ...granteeUrls]) assert.equal(await screen(ta, url), 200, url)

  await revokeAll(ta, owner)
  for (const url of granteeUrls) assert.equal(await screen(ta, url), 403, `revoked: ${url}`)
  for (const url of ownerUrls) assert.equal(await screen(ta, url), 200, 'the owner still sees it')

  await transferTo(ta, owner, phone, RECEIVER)
  for (const url of [...ownerUrls, ...granteeUrls]) {
    assert.equal(await screen(ta, url), 403, `after the transfer: ${url}`)
  }
  const receiverUrl = await detailCover(ta, receiver, phone)
  assert.equal(await screen(ta, receiverUrl), 200, 'the new owner sees it')
})

test('a screen URL runs out within minutes; the list never hands out one about to', async (t) => {
  const { ta, owner, phone } = await setup(t)
  const url = await detailCover(ta, owner, phone)
  const expiresAt = Number(new URL(url, 'http://x').searchParams.get('e'))
  const now = ta.clock.now().getTime()
  assert.ok(expiresAt - now > SCREEN_PASS_STEP_MS, 'works more than one step')
  assert.ok(expiresAt - now <= 2 * SCREEN_PASS_STEP_MS, 'and at most two')
  ta.clock.advance(expiresAt - 1 - now)
  assert.equal(await screen(ta, url), 200)
  ta.clock.advance(1)
  assert.equal(await screen(ta, url), 403, 'gone when it runs out')
  assert.equal(await screen(ta, await detailCover(ta, owner, phone)), 200, 'a new one works')

  // Whenever the list is asked (a kept page or a fresh one), its screen URL has a step left.
  for (let i = 0; i < 12; i++) {
    ta.clock.advance(SCREEN_PASS_STEP_MS / 3 + 7_000)
    const listed = await listCover(ta, owner, phone)
    const left =
      Number(new URL(listed, 'http://x').searchParams.get('e')) - ta.clock.now().getTime()
    assert.ok(left >= SCREEN_PASS_STEP_MS - 1, `served with ${left} ms left`)
    assert.equal(await screen(ta, listed), 200)
  }
})

test('an altered or forged pass, or none, shows nothing', async (t) => {
  const { ta, owner, grantee, receiver, phone } = await setup(t)
  const url = new URL(await detailCover(ta, grantee, phone), 'http://x')
  const p = url.searchParams
  const instance = url.pathname
  const signature = p.get('s')!
  const variant = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(p)
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key)
      else next.set(key, value)
    }
    return `${instance}?${next}`
  }
  assert.equal(await screen(ta, variant({})), 200)
  const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)
  const refused = [
    instance, // the instance id alone
    variant({ s: flipped }),
    variant({ s: signature.slice(0, -1) }),
    variant({ s: null }),
    variant({ v: String(receiver.userId) }), // someone else's name on the grantee's pass
    variant({ v: String(owner.userId) }),
    variant({ e: String(Number(p.get('e')) + 3_600_000) }), // a longer life
    variant({ d: String(phone + 1) }),
    variant({ d: 'x', v: '-1' }),
    variant({ e: '9'.repeat(16) }),
  ]
  for (const bad of refused) assert.equal(await screen(ta, bad), 403, bad)

  // A pass made by another database (another key) is refused as well.
  const other = await buildTestApp(t)
  const stranger = await loginWithSms(other, GRANTEE)
  const [theirs] = await runningPhones(other, stranger.userId, 1)
  const foreign = new URL(await detailCover(other, stranger, theirs), 'http://x').searchParams
  assert.equal(
    await screen(
      ta,
      variant({ d: String(theirs), v: foreign.get('v'), e: foreign.get('e'), s: foreign.get('s') }),
    ),
    403,
  )
})

test('the control page’s session ends when the grant is revoked or the phone transferred', async (t) => {
  const { ta, owner, grantee, receiver, phone } = await setup(t)
  const granteeSession = await controlSession(ta, grantee, phone)
  const ownerSession = await controlSession(ta, owner, phone)
  const state = await controlState(ta, granteeSession)
  assert.equal(state.code, 200, state.msg)
  assert.equal(await screen(ta, state.data.screenUrl), 200, 'the page shows the screen')
  assert.equal((await controlCommand(ta, granteeSession)).code, 200)

  await revokeAll(ta, owner)
  for (const reply of [
    await controlState(ta, granteeSession),
    await controlCommand(ta, granteeSession),
  ]) {
    assert.equal(reply.code, 2017)
    assert.equal(reply.msg, '页面已过期，请返回重新进入')
  }
  assert.equal(await screen(ta, state.data.screenUrl), 403, 'its screen URL too')
  const ownerState = await controlState(ta, ownerSession)
  assert.equal(ownerState.code, 200, 'the owner’s page goes on')

  await transferTo(ta, owner, phone, RECEIVER)
  assert.equal((await controlState(ta, ownerSession)).code, 2017)
  assert.equal((await controlCommand(ta, ownerSession)).code, 2017)
  assert.equal(await screen(ta, ownerState.data.screenUrl), 403)
  const receiverSession = await controlSession(ta, receiver, phone)
  assert.equal((await controlState(ta, receiverSession)).code, 200, 'the new owner’s page works')
})
