/**
 * ACEP's live stream on the control page, against the fake ACEP and its STS: the operator's SDK file is
 * checked at start-up and served under its hash; the page session gets 15-minute STS keys scoped to its
 * own pod (AssumeRole signed for service `sts`), never for a released, expired or someone else's phone,
 * never after the session, never more than a few per session; our long-lived pair is in no answer.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { eq } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { ResultCode } from '#domain/result-codes'
import { realAdapters } from '../../src/adapters'
import { acepCredentialsFromEnv } from '../../src/adapters/supplier/acep/credentials'
import { STREAM_KEY_TTL_S } from '../../src/adapters/supplier/acep/stream'
import { loadConfig } from '../../src/config'
import type { AuthTokenResult } from '../../src/contract/device'
import { devices } from '../../src/db/schema'
import {
  STREAM_KEYS_PER_WINDOW,
  STREAM_KEYS_WINDOW_MS,
} from '../../src/routes/acep-supplier-routes'
import { CONTROL_SESSION_TTL_MS } from '../../src/services/sharing/device-auth-service'
import { ACEP_ENV, acepApp, runningAcepPhones } from '../helpers/acep-app'
import { FAKE_KEYS, FAKE_STREAM, streamEnv, writeFakeSdk } from '../helpers/fake-acep'
import { deviceRow } from '../helpers/fleet'
import { get, loginWithSms, type Session, type TestApp } from '../helpers/test-app'
import { controlPageData } from '../helpers/control-page'

const ACEP = '/vmcloud/api/supplier/acep'

interface StreamKeys {
  productId: string
  podId: string
  accountId: string
  userId: string
  token: Record<
    'AccessKeyID' | 'SecretAccessKey' | 'SessionToken' | 'CurrentTime' | 'ExpiredTime',
    string
  >
  expiresAt: number
}

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acep-stream-'))
  return dir
}

/** The app on the fake ACEP with (or without) the stream, a buyer and two running phones. */
async function setup(t: TestContext, options: { stream: boolean }) {
  const dir = tempDir()
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const sdkFile = path.join(dir, 'vePhoneSDK-Web.js')
  const { ctx, fake } = await acepApp(t, {
    env: options.stream
      ? (acep) => streamEnv(acep, writeFakeSdk(sdkFile, acep.endpoint))
      : undefined,
  })
  const me = await loginWithSms(ctx, '13100000011')
  const { phones } = await runningAcepPhones(ctx, fake, me.userId, 2)
  return { ctx, fake, me, phones, sdkFile, app: ctx.app }
}

/** Opens the phone's control page as web_instance does: the page, its session, its CSP. */
async function openPage(ctx: TestApp, me: Session, deviceId: number) {
  const issued = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
    deviceId: String(deviceId),
  })
  assert.equal(issued.code, 200, issued.msg)
  const page = await ctx.app.inject({
    method: 'GET',
    url: `${issued.data.controlUrl}&token=${encodeURIComponent(issued.data.authToken)}&userId=${me.userId}&userType=2&isWeb=1`,
  })
  assert.equal(page.statusCode, 200)
  const session = controlPageData(page.body)?.session
  assert.ok(session)
  return { page, session }
}

async function streamKeys(ctx: TestApp, session: string) {
  const answer = await ctx.app.inject({
    method: 'GET',
    url: `${ACEP}/control/stream`,
    query: { session },
  })
  return { raw: answer.body, body: answer.json<{ code: number; msg: string; data: StreamKeys }>() }
}

function assertNoLongLivedPair(text: string) {
  assert.ok(!text.includes(FAKE_KEYS.secretAccessKey), 'our secret key never reaches a browser')
  assert.ok(!text.includes(FAKE_KEYS.accessKeyId), 'nor our access key id')
  assert.ok(!text.includes(FAKE_KEYS.callbackSecret))
}

test('the page session gets 15-minute STS keys for its own pod only; the SDK file is served under its hash', async (t) => {
  const { ctx, fake, me, phones, sdkFile, app } = await setup(t, { stream: true })
  const [phone, other] = phones
  const pod = (await deviceRow(ctx, phone)).supplierInstanceId!
  const otherPod = (await deviceRow(ctx, other)).supplierInstanceId!

  const { page, session } = await openPage(ctx, me, phone)
  assertNoLongLivedPair(page.body)
  const sdkPath = /"sdkUrl":"([^"]+)"/.exec(page.body)?.[1]
  assert.ok(sdkPath, 'the page names the SDK')
  assert.match(
    sdkPath,
    /^\/vmcloud\/api\/supplier\/acep\/stream\/vePhoneSDK-Web\.[0-9a-f]{16}\.js$/,
  )
  const csp = String(page.headers['content-security-policy'])
  assert.match(csp, new RegExp(`connect-src 'self' ${fake.endpoint}(;|$)`), csp)
  assert.match(csp, /script-src 'self';/, 'scripts: our own files only')

  // The SDK file: its bytes, cached for good under its hash; no other name answers.
  const sdk = await app.inject({ method: 'GET', url: sdkPath })
  assert.equal(sdk.statusCode, 200)
  assert.deepEqual(sdk.rawPayload, fs.readFileSync(sdkFile))
  assert.match(String(sdk.headers['content-type']), /^application\/javascript/)
  assert.equal(sdk.headers['cache-control'], 'public, max-age=31536000, immutable')
  const wrongHash = sdkPath.replace(/\.[0-9a-f]{16}\.js$/, '.0000000000000000.js')
  assert.equal((await app.inject({ method: 'GET', url: wrongHash })).statusCode, 404)

  const { raw, body } = await streamKeys(ctx, session)
  assert.equal(body.code, 200, body.msg)
  assertNoLongLivedPair(raw)
  assert.equal(body.data.podId, pod)
  assert.equal(body.data.productId, FAKE_KEYS.productId)
  assert.equal(body.data.accountId, FAKE_STREAM.accountId)
  assert.equal(body.data.userId, `u${me.userId}`)
  const issued = fake.issued.get(body.data.token.AccessKeyID)
  assert.ok(issued, 'keys STS issued (AssumeRole signed for service sts, checked by the fake)')
  assert.equal(issued.secret, body.data.token.SecretAccessKey)
  assert.equal(issued.sessionToken, body.data.token.SessionToken)
  assert.equal(issued.durationSeconds, STREAM_KEY_TTL_S)
  assert.ok(STREAM_KEY_TTL_S <= 15 * 60)
  assert.equal(body.data.expiresAt, Date.parse(body.data.token.ExpiredTime))
  const left = body.data.expiresAt - fake.now()
  assert.ok(left <= STREAM_KEY_TTL_S * 1000 && left > STREAM_KEY_TTL_S * 1000 - 10_000, `${left}`)
  assert.equal(issued.roleSessionName, `cp-u${me.userId}-d${phone}`)
  assert.deepEqual(issued.policy, {
    Statement: [
      {
        Effect: 'Allow',
        Action: ['ACEP:PodStart', 'ACEP:GetMediaToken', 'ACEP:DetailPod'],
        Resource: [
          `trn:ACEP::${FAKE_STREAM.accountId}:product_id/${FAKE_KEYS.productId}`,
          `trn:ACEP::${FAKE_STREAM.accountId}:pod_id/${pod}`,
        ],
      },
    ],
  })
  assert.ok(!JSON.stringify(issued.policy).includes(otherPod), 'not the other phone')
  const sts = fake.calls.find((call) => call.action === 'AssumeRole')
  assert.equal(sts?.query.RoleTrn, FAKE_STREAM.roleTrn)

  // While the page plays the stream its state needs no screenshot.
  const shots = fake.count('BatchScreenShot')
  const state = await app.inject({
    method: 'GET',
    url: `${ACEP}/control/state`,
    query: { session, screen: '0' },
  })
  assert.equal(state.json<{ data: { screenUrl: null } }>().data.screenUrl, null)
  assert.equal(fake.count('BatchScreenShot'), shots)
  assertNoLongLivedPair(state.body)
})

test('stream keys are refused without a session, for released, expired or handed-over phones, over the rate, after the session', async (t) => {
  const { ctx, fake, me, phones, app } = await setup(t, { stream: true })
  const [phone, other] = phones
  const refusedWith = async (session: string, code: number, text?: RegExp) => {
    const before = fake.issued.size
    const { body } = await streamKeys(ctx, session)
    assert.equal(body.code, code, body.msg)
    if (text) assert.match(body.msg, text)
    assert.equal(fake.issued.size, before, 'no keys issued')
  }

  await refusedWith('', ResultCode.LOGIN_TOKEN_INVALID)
  await refusedWith('made-up-session', ResultCode.LOGIN_TOKEN_INVALID)
  const missing = await app.inject({ method: 'GET', url: `${ACEP}/control/stream` })
  assert.equal(missing.statusCode, 400, 'no session at all')

  // A few keys per session (a start and some restarts), then refused until the window has passed.
  const { session } = await openPage(ctx, me, phone)
  for (let i = 0; i < STREAM_KEYS_PER_WINDOW; i++) {
    assert.equal((await streamKeys(ctx, session)).body.code, 200)
  }
  await refusedWith(session, ResultCode.SHOW_ERROR_TIPS, /太频繁/)
  const second = await openPage(ctx, me, other)
  assert.equal((await streamKeys(ctx, second.session)).body.code, 200, 'another session is its own')
  ctx.clock.advance(STREAM_KEYS_WINDOW_MS + 1)
  assert.equal((await streamKeys(ctx, session)).body.code, 200, 'again after the window')

  // STS refusing (the role no longer ours) is a message, not a crash.
  fake.stream.roleTrn = 'trn:iam::2100000001:role/someone-else'
  const refusedSts = await streamKeys(ctx, second.session)
  assert.equal(refusedSts.body.code, ResultCode.SHOW_ERROR_TIPS)
  assert.match(refusedSts.body.msg, /实时画面暂不可用/)
  fake.stream.roleTrn = FAKE_STREAM.roleTrn

  // An expired phone (not yet released) keeps its page but gets no stream.
  const db = ctx.database.db
  await db.update(devices).set({ status: DeviceStatus.expired }).where(eq(devices.id, other))
  await refusedWith(second.session, ResultCode.SHOW_ERROR_TIPS, /已到期/)

  // Handed over to someone else (a transfer): the session is the old owner's no more.
  const stranger = await loginWithSms(ctx, '13100000012')
  await db.update(devices).set({ userId: stranger.userId }).where(eq(devices.id, phone))
  await refusedWith(session, ResultCode.LOGIN_TOKEN_INVALID)
  await db.update(devices).set({ userId: me.userId }).where(eq(devices.id, phone))
  assert.equal((await streamKeys(ctx, session)).body.code, 200, 'back with its owner')

  // Released: gone.
  await db
    .update(devices)
    .set({ status: DeviceStatus.released, releasedAt: ctx.clock.now() })
    .where(eq(devices.id, other))
  await refusedWith(second.session, ResultCode.LOGIN_TOKEN_INVALID)

  // The session's end ends its keys.
  ctx.clock.advance(CONTROL_SESSION_TTL_MS)
  await refusedWith(session, ResultCode.LOGIN_TOKEN_INVALID)
})

test('without the SDK file the page says it shows screenshots and there is no stream route', async (t) => {
  const { ctx, me, phones, app } = await setup(t, { stream: false })
  const { page, session } = await openPage(ctx, me, phones[0])
  // the page says 截图模式 itself when it is given no stream (control/src/main.ts, e2e/acep-stream.e2e.ts)
  assert.equal(controlPageData(page.body)?.stream, null)
  assert.match(String(page.headers['content-security-policy']), /connect-src 'self';/)
  const keys = await app.inject({
    method: 'GET',
    url: `${ACEP}/control/stream`,
    query: { session },
  })
  assert.equal(keys.statusCode, 404)
})

test('start-up names a set-but-unreadable SDK file and the missing STS settings, in production’s one refusal', () => {
  const dir = tempDir()
  const base = ACEP_ENV
  try {
    const none = acepCredentialsFromEnv(base)
    assert.ok(none.ok && none.credentials.stream === null, 'no file: screenshots')

    const unreadable = path.join(dir, 'missing.js')
    const production = { ...base, NODE_ENV: 'production', ACEP_WEB_SDK_FILE: unreadable }
    assert.throws(
      () => realAdapters(loadConfig(production), production),
      (error: Error) => {
        const lines = error.message.split('\n')
        assert.ok(
          lines.some((line) =>
            line.startsWith(`- ACEP_WEB_SDK_FILE=${unreadable} is not a readable file`),
          ),
          error.message,
        )
        assert.ok(lines.includes('- ACEP_WEB_SDK_FILE needs ACEP_STS_ROLE_TRN, ACEP_ACCOUNT_ID'))
        return true
      },
    )

    const empty = path.join(dir, 'empty.js')
    fs.writeFileSync(empty, '')
    const sdk = path.join(dir, 'vePhoneSDK-Web.js')
    fs.writeFileSync(sdk, 'window.vePhoneSDK = function () {}')
    const problems = (env: Record<string, string>) => {
      const result = acepCredentialsFromEnv({ ...base, ...env })
      return result.ok ? [] : result.problems
    }
    assert.match(
      problems({ ACEP_WEB_SDK_FILE: empty }).join('\n'),
      /empty\.js is not a readable file/,
    )
    assert.match(
      problems({ ACEP_WEB_SDK_FILE: dir }).join('\n'),
      /is not a readable file/,
      'a folder',
    )
    const good = {
      ACEP_WEB_SDK_FILE: sdk,
      ...{ ACEP_STS_ROLE_TRN: FAKE_STREAM.roleTrn, ACEP_ACCOUNT_ID: FAKE_STREAM.accountId },
    }
    assert.deepEqual(problems(good), [])
    assert.match(
      problems({ ...good, ACEP_STS_ROLE_TRN: 'arn:aws:iam::1:role/x' }).join('\n'),
      /ACEP_STS_ROLE_TRN must be trn:iam::/,
    )
    assert.match(
      problems({ ...good, ACEP_ACCOUNT_ID: 'acme' }).join('\n'),
      /ACEP_ACCOUNT_ID must be/,
    )
    assert.match(
      problems({
        ...good,
        ACEP_STREAM_CONNECT_SRC: "https://*.rtc.volcvideo.com 'unsafe-eval'",
      }).join('\n'),
      /not https\/wss origins: 'unsafe-eval'/,
    )
    assert.match(
      problems({ ...good, ACEP_STREAM_CONNECT_SRC: 'http://example.com' }).join('\n'),
      /not https\/wss origins/,
      'plain http only on this machine',
    )
    const ok = acepCredentialsFromEnv({ ...base, ...good })
    assert.ok(ok.ok)
    assert.deepEqual(ok.credentials.stream?.connectSrc, [
      'https://open.volcengineapi.com',
      'https://*.rtc.volcvideo.com',
      'wss://*.rtc.volcvideo.com',
      'https://log.snssdk.com',
    ])
    assert.equal(ok.credentials.stream?.stsEndpoint, 'https://sts.volcengineapi.com')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
