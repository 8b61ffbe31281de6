/**
 * The control page's server side (routes/supplier-control-routes.ts, adapters/supplier/control-page.ts,
 * the sandbox's stream in routes/sandbox-supplier-routes.ts): the built document with its data, the
 * navigation keys, a 仅查看 grantee's page that watches only and whose keys and commands are refused, a
 * revoked grant that ends the page, and the sandbox stream's keys, start and frames.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import type { ControlPageData } from '#domain/control-page'
import {
  controlIdle,
  loadControlBuild,
  renderControlPage,
} from '../../src/adapters/supplier/control-page'
import type { PagedData } from '../../src/contract/common'
import type { AuthTokenResult, CommandResult } from '../../src/contract/device'
import type { GrantView } from '../../src/contract/grant'
import { sandboxInstances } from '../../src/db/schema'
import { controlPageData } from '../helpers/control-page'
import { runningPhones, SUPPLIER_DELAY_MS } from '../helpers/fleet'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'

const SANDBOX = '/vmcloud/api/sandbox/supplier'
const VIEW_ONLY = '该云手机仅授权您查看，无法操作'

async function openPage(ta: TestApp, who: Session, deviceId: number) {
  const issued = await get<AuthTokenResult>(ta.app, '/user/getAuthToken', who, {
    deviceId: String(deviceId),
  })
  assert.equal(issued.code, 200, issued.msg)
  const page = await ta.app.inject({
    method: 'GET',
    url: `${issued.data.controlUrl}&token=${encodeURIComponent(issued.data.authToken)}&userId=${who.userId}&userType=2&isWeb=1`,
  })
  assert.equal(page.statusCode, 200, page.body)
  const data = controlPageData(page.body)
  assert.ok(data, 'the page carries its data')
  return { page, data }
}

const pressKey = (ta: TestApp, session: string, key: string) =>
  ta.app.inject({ method: 'POST', url: `${SANDBOX}/control/key`, payload: { session, key } })
const command = (ta: TestApp, session: string, name: string) =>
  ta.app.inject({
    method: 'POST',
    url: `${SANDBOX}/control/command`,
    payload: { session, command: name },
  })
const envelope = (res: { json: <T>() => T }) =>
  res.json<{ code: number; msg: string; data?: CommandResult }>()

test('the built page gets its data as one JSON element that no text can close', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'control-build-'))
  try {
    fs.mkdirSync(path.join(dir, 'assets'))
    fs.mkdirSync(path.join(dir, '.vite'))
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<html><head><title>云手机</title><!--control-data--><script type="module" src="./assets/index-a1.js"></script></head><body></body></html>',
    )
    fs.writeFileSync(path.join(dir, 'assets/index-a1.js'), 'console.log(1)')
    fs.writeFileSync(path.join(dir, 'assets/sandbox-sdk-b2.js'), 'window.vePhoneSDK = 1')
    fs.writeFileSync(path.join(dir, 'assets/notes.txt'), 'not served')
    fs.writeFileSync(
      path.join(dir, '.vite/manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-a1.js', name: 'index', isEntry: true },
        'src/sandbox-sdk.ts': {
          file: 'assets/sandbox-sdk-b2.js',
          name: 'sandbox-sdk',
          isEntry: true,
        },
      }),
    )
    const build = loadControlBuild(dir)!
    assert.equal(build.sandboxSdk, 'sandbox-sdk-b2.js')
    assert.deepEqual([...build.assets.keys()].sort(), ['index-a1.js', 'sandbox-sdk-b2.js'])
    const data: ControlPageData = {
      session: 's',
      userId: 1,
      deviceId: 2,
      deviceName: '</script><script>alert(1)</script>',
      base: '/vmcloud/api/sandbox/supplier',
      canControl: true,
      stream: null,
      idle: controlIdle({}),
      extraScript: null,
    }
    const html = renderControlPage(build, data)
    assert.equal(html.match(/<\/script>/g)?.length, 2, 'the name closes no element')
    assert.deepEqual(controlPageData(html), data)
    assert.match(html, /<title>&lt;\/script&gt;/)
    assert.equal(loadControlBuild(path.join(dir, 'missing')), null)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  assert.deepEqual(controlIdle({}), { warnMs: 270_000, endMs: 300_000 })
  assert.deepEqual(controlIdle({ CONTROL_IDLE_MS: '6000' }), { warnMs: 3000, endMs: 6000 })
})

test('the owner presses 返回 / 主页 / 多任务; a rebooting phone refuses a key; an unknown key is refused', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13700004601')
  const [phone] = await runningPhones(ta, me.userId, 1)
  const { data } = await openPage(ta, me, phone)
  assert.equal(data.canControl, true)
  assert.equal(data.base, SANDBOX)
  assert.equal(data.deviceId, phone)
  assert.equal(data.userId, me.userId)
  assert.match(data.extraScript ?? '', /\/control\/floatingBall\.js\?session=/)

  for (const [key, label] of [
    ['back', '返回'],
    ['home', '主页'],
    ['recents', '多任务'],
    ['volumeUp', '音量+'],
  ]) {
    const body = envelope(await pressKey(ta, data.session, key))
    assert.equal(body.code, 200, `${key}: ${body.msg}`)
    assert.equal(body.data?.msg, `已按下${label}`)
    const [row] = await ta.database.db.select().from(sandboxInstances)
    assert.equal(row.lastCommand, `按键：${label}`, 'the sandbox phone got the key')
  }
  assert.equal((await pressKey(ta, data.session, 'power')).statusCode, 400)
  assert.notEqual(envelope(await pressKey(ta, 'forged', 'back')).code, 200)

  const rebooted = envelope(await command(ta, data.session, 'Reboot'))
  assert.equal(rebooted.code, 200, rebooted.msg)
  const refused = envelope(await pressKey(ta, data.session, 'back'))
  assert.notEqual(refused.code, 200)
  assert.match(refused.msg, /重启/)
  ta.clock.advance(SUPPLIER_DELAY_MS)
  await ta.app.jobs.runDue(10_000)
})

test('a 仅查看 grantee watches: no control in the page, keys and commands refused; a revoke ends the page', async (t) => {
  const ta = await buildTestApp(t)
  const owner = await loginWithSms(ta, '13700004602')
  const viewer = await loginWithSms(ta, '13700004603')
  const [phone] = await runningPhones(ta, owner.userId, 1)
  const granted = await post(
    ta.app,
    '/device/empower',
    { deviceIds: [phone], mobilePhone: '13700004603', permission: 1, days: 7 },
    owner,
  )
  assert.equal(granted.code, 200, granted.msg)
  const { data } = await openPage(ta, viewer, phone)
  assert.equal(data.canControl, false, 'the page draws no controls')
  const state = await ta.app.inject({
    method: 'GET',
    url: `${SANDBOX}/control/state`,
    query: { session: data.session },
  })
  assert.equal(state.json<{ code: number }>().code, 200, 'the viewer sees the phone')

  for (const key of ['back', 'home', 'recents', 'volumeDown']) {
    const body = envelope(await pressKey(ta, data.session, key))
    assert.notEqual(body.code, 200)
    assert.equal(body.msg, VIEW_ONLY)
  }
  const cmd = envelope(await command(ta, data.session, 'CleanMem'))
  assert.equal(cmd.msg, VIEW_ONLY)
  const [row] = await ta.database.db
    .select()
    .from(sandboxInstances)
    .where(eq(sandboxInstances.status, 'running'))
  assert.equal(row.lastCommand, null, 'nothing reached the phone')

  const out = await get<PagedData<GrantView>>(ta.app, '/device/empower/list', owner, {
    direction: 'out',
  })
  const revoked = await post(
    ta.app,
    '/device/empower/revoke',
    { grantIds: [out.data.records[0].grantId] },
    owner,
  )
  assert.equal(revoked.code, 200, revoked.msg)
  const after = await ta.app.inject({
    method: 'GET',
    url: `${SANDBOX}/control/state`,
    query: { session: data.session },
  })
  const ended = after.json<{ code: number; msg: string }>()
  assert.equal(ended.code, 2017, 'the page ends at its next call')
  assert.equal(ended.msg, '页面已过期，请返回重新进入')
})

test('the sandbox stream: keys for the session’s phone, a start that checks them, frames until the phone stops', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13700004604')
  const [phone] = await runningPhones(ta, me.userId, 1)
  const { data } = await openPage(ta, me, phone)
  const keysRes = await ta.app.inject({
    method: 'GET',
    url: `${SANDBOX}/control/stream`,
    query: { session: data.session },
  })
  const keys = keysRes.json<{
    code: number
    data: { podId: string; token: { SessionToken: string }; expiresAt: number; userId: string }
  }>()
  assert.equal(keys.code, 200)
  assert.match(keys.data.podId, /^sbx_[0-9a-f]{20}$/)
  assert.equal(keys.data.userId, `u${me.userId}`)
  assert.equal(keys.data.expiresAt, ta.clock.now().getTime() + 15 * 60_000)
  assert.ok(!keys.data.token.SessionToken.includes(data.session), 'the keys are not the session')

  const start = (podId: string, token: string) =>
    ta.app.inject({ method: 'POST', url: `${SANDBOX}/stream/start`, payload: { podId, token } })
  const started = await start(keys.data.podId, keys.data.token.SessionToken)
  assert.equal(started.statusCode, 200)
  const { frameUrl } = started.json<{ frameUrl: string }>()
  const frame = await ta.app.inject({ method: 'GET', url: frameUrl })
  assert.equal(frame.statusCode, 200)
  assert.match(String(frame.headers['content-type']), /^image\/svg\+xml/)

  const forged = await start(keys.data.podId, `${keys.data.expiresAt}.AAAA`)
  assert.equal(forged.statusCode, 403)
  assert.equal(forged.json<{ errorCode: number }>().errorCode, 10006)
  const otherPod = await start('sbx_00000000000000000000', keys.data.token.SessionToken)
  assert.equal(otherPod.statusCode, 403, 'the keys name one pod')

  // a rebooting phone delivers no frame: the stream drops (the SDK stand-in then reconnects)
  assert.equal(envelope(await command(ta, data.session, 'Reboot')).code, 200)
  assert.equal((await ta.app.inject({ method: 'GET', url: frameUrl })).statusCode, 409)
  assert.equal((await start(keys.data.podId, keys.data.token.SessionToken)).statusCode, 409)

  ta.clock.advance(15 * 60_000)
  assert.equal((await ta.app.inject({ method: 'GET', url: frameUrl })).statusCode, 403, 'expired')

  // the page's files: unknown names are not found
  const asset = await ta.app.inject({ method: 'GET', url: `${SANDBOX}/assets/nothing.js` })
  assert.equal(asset.statusCode, 404)
  assert.equal(
    (await ta.app.inject({ method: 'GET', url: `${SANDBOX}/assets/..%2Fx` })).statusCode,
    400,
  )
})
