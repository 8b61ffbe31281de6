/**
 * The whole server on the ACEP supplier, against the fake ACEP: a bought phone is provisioned by the
 * real job, commanded, backed up (its signed callback has the task asked about at once), its screen relayed behind the
 * viewer's pass; a backup ACEP never finishes is given up by the space job; forged callbacks are refused.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import { realAdapters } from '../../src/adapters'
import { signCallback } from '../../src/adapters/supplier/acep/callback'
import { loadConfig, sandboxAdapters } from '../../src/config'
import { acepPods } from '../../src/db/schema'
import { SPACE_TASK_TIMEOUT_MS } from '../../src/services/space/space-task-runner'
import { ACEP_CALLBACK_PATH, ACEP_ENV, acepApp } from '../helpers/acep-app'
import { FAKE_KEYS, SCREEN_PNG } from '../helpers/fake-acep'
import { deviceRow, givePhones } from '../helpers/fleet'
import { get, loginWithSms, post } from '../helpers/test-app'
import type { AuthTokenResult, CommandResult, DeviceCover } from '../../src/contract/device'
import type { SpaceTask } from '../../src/contract/space'
import { controlPageData } from '../helpers/control-page'

test('the server on ACEP: provisioning, commands, backup, screen relay, a task ACEP never ends', async (t) => {
  const { ctx, app, fake, database, warnings } = await acepApp(t, { listen: true })

  // Bought phones are provisioned by the provision job: CreatePod, then DetailPod until it runs.
  const me = await loginWithSms(ctx, '13100000001')
  const [phone, other] = await givePhones(ctx, me.userId, 2)
  await app.jobs.runDue(10_000)
  assert.equal(fake.count('CreatePod'), 2)
  assert.equal((await deviceRow(ctx, phone)).status, 0, 'still creating')
  await fake.advance(fake.delayMs)
  ctx.clock.advance(5_000)
  await app.jobs.runDue(10_000)
  const row = await deviceRow(ctx, phone)
  assert.equal(row.status, 1, 'running')
  assert.ok(row.supplierInstanceId && fake.pods.has(row.supplierInstanceId))

  const cleaned = await post<CommandResult>(
    app,
    '/device/command',
    { deviceId: phone, command: 'CleanVm' },
    me,
  )
  assert.equal(cleaned.code, 200, cleaned.msg)
  assert.deepEqual(cleaned.data, { deviceId: phone, ok: true, msg: '清理完成' })
  assert.equal(fake.count('RunSyncCommand'), 1)

  // The screen: BatchScreenShot, its address in the answer, relayed only to a live pass.
  const cover = await get<DeviceCover>(app, '/device/cover', me, { deviceId: String(phone) })
  assert.equal(cover.code, 200, cover.msg)
  assert.match(cover.data.url, /^\/vmcloud\/api\/supplier\/acep\/cover\//)
  const [shot] = await database.db
    .select()
    .from(acepPods)
    .where(eq(acepPods.podId, row.supplierInstanceId!))
  assert.equal(shot.screenUrl, `${fake.endpoint}/screens/${row.supplierInstanceId}.png`)
  const image = await app.inject({ method: 'GET', url: cover.data.url })
  assert.equal(image.statusCode, 200)
  assert.equal(image.headers['content-type'], 'image/png')
  assert.deepEqual(image.rawPayload, SCREEN_PNG)
  assert.equal(
    (await app.inject({ method: 'GET', url: cover.data.url.replace(/s=[^&]+/, 's=x') })).statusCode,
    403,
  )
  const bare = `/vmcloud/api/supplier/acep/cover/${row.supplierInstanceId}`
  assert.equal(
    (await app.inject({ method: 'GET', url: bare })).statusCode,
    403,
    'the pod id is no credential',
  )

  // The control page: the one-time token becomes a page session; its state relays the screen, its
  // buttons send commands through ACEP; the token works once.
  const issued = await get<AuthTokenResult>(app, '/user/getAuthToken', me, {
    deviceId: String(phone),
  })
  assert.equal(issued.code, 200, issued.msg)
  assert.match(issued.data.controlUrl, /^\/vmcloud\/api\/supplier\/acep\/control\?deviceId=/)
  const pageUrl = `${issued.data.controlUrl}&token=${encodeURIComponent(issued.data.authToken)}&userId=${me.userId}&userType=2&isWeb=1`
  const page = await app.inject({ method: 'GET', url: pageUrl })
  assert.equal(page.statusCode, 200)
  const session = controlPageData(page.body)?.session
  assert.ok(session, 'the page carries its session')
  assert.equal(controlPageData(page.body)?.base, '/vmcloud/api/supplier/acep')
  assert.equal(
    (await app.inject({ method: 'GET', url: pageUrl })).statusCode,
    401,
    'the token works once',
  )
  const state = await app.inject({
    method: 'GET',
    url: '/vmcloud/api/supplier/acep/control/state',
    query: { session },
  })
  const stateBody = state.json<{ code: number; data: { screenUrl: string } }>()
  assert.equal(stateBody.code, 200)
  assert.match(stateBody.data.screenUrl, /^\/vmcloud\/api\/supplier\/acep\/cover\//)
  const shots = fake.count('BatchScreenShot')
  const pressed = await app.inject({
    method: 'POST',
    url: '/vmcloud/api/supplier/acep/control/command',
    payload: { session, command: 'CleanMem' },
  })
  assert.deepEqual(pressed.json<{ data: CommandResult }>().data, {
    deviceId: phone,
    ok: true,
    msg: '内存已释放',
  })
  assert.equal(fake.count('RunSyncCommand'), 2)
  assert.equal(shots >= 2, true, 'the state asked ACEP for a fresh screenshot')

  // A backup: handed to ACEP by the space job; ACEP's signed callback has it asked about at once.
  const started = await post<SpaceTask>(app, '/space/backup', { deviceId: phone }, me)
  assert.equal(started.code, 200, started.msg)
  await app.jobs.runDue(10_000)
  assert.equal(fake.count('BackupData'), 1)
  await fake.advance(fake.delayMs)
  ctx.clock.advance(5_000)
  await app.jobs.runDue(10_000)
  const done = await get<SpaceTask>(app, '/space/task', me, { id: String(started.data.id) })
  assert.equal(done.data.status, 'done')
  assert.equal(done.data.sizeBytes, 512 * 1024 * 1024)

  // Forged and unsigned callbacks are refused before anything is read.
  const body = JSON.stringify({ id: 'x', event_type: 'Ping' })
  const forged = signCallback(
    body,
    { accessKey: FAKE_KEYS.callbackAccessKey, secret: 'guess' },
    Math.floor(ctx.clock.now().getTime() / 1000),
  )
  for (const headers of [{}, { 'ipaas-auth': forged }]) {
    const refused = await app.inject({
      method: 'POST',
      url: ACEP_CALLBACK_PATH,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    })
    assert.equal(refused.statusCode, 401)
  }
  // Each refusal is logged at warn with its reason, never the header's signature or our keys.
  const refusals = warnings
    .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string })
    .filter((line) => line.msg === 'ACEP callback refused')
  assert.deepEqual(
    refusals.map((line) => [line.level, line.reason]),
    [
      [40, 'no iPaaS-Auth header'],
      [40, 'iPaaS-Auth signature does not match'],
    ],
  )
  for (const secret of [
    forged.split('/')[4],
    FAKE_KEYS.callbackSecret,
    FAKE_KEYS.callbackAccessKey,
  ]) {
    assert.ok(!warnings.join('\n').includes(secret), 'no signature or key in the log')
  }
  assert.equal(await fake.postCallback(body), 200, 'a signed Ping is answered')

  // A backup ACEP never finishes: the space job gives up at its deadline and says so.
  fake.neverFinishNextTask = true
  const stuck = await post<SpaceTask>(app, '/space/backup', { deviceId: other }, me)
  assert.equal(stuck.code, 200, stuck.msg)
  await app.jobs.runDue(10_000)
  await fake.advance(fake.delayMs * 10)
  ctx.clock.advance(SPACE_TASK_TIMEOUT_MS + 60_000)
  await app.jobs.runDue(10_000)
  const interrupted = await get<SpaceTask>(app, '/space/task', me, { id: String(stuck.data.id) })
  assert.equal(interrupted.data.status, 'interrupted')
  assert.equal(interrupted.data.failCode, ResultCode.TASK_INTERRUPTED)
})

test('SUPPLIER_PROVIDER=acep: every missing ACEP variable named; production no longer asks for the sandbox switch', () => {
  assert.throws(
    () => realAdapters(loadConfig({ SUPPLIER_PROVIDER: 'acep' })),
    /SUPPLIER_PROVIDER=acep needs ACEP_ACCESS_KEY_ID, ACEP_SECRET_ACCESS_KEY, ACEP_PRODUCT_ID, ACEP_RESOURCE_TYPE, ACEP_CALLBACK_ACCESS_KEY, ACEP_CALLBACK_SECRET/,
  )
  assert.throws(
    () => loadConfig({ SUPPLIER_PROVIDER: 'aliyun' }),
    /SUPPLIER_PROVIDER must be one of sandbox, acep/,
  )
  const env = ACEP_ENV
  assert.equal(realAdapters(loadConfig(env), env).acep?.credentials.productId, 'c')
  assert.equal(realAdapters(loadConfig({})).acep, null, 'the sandbox by default')
  // In production ACEP's missing keys are lines of the one refusal, beside a payment provider's and
  // production's own problems.
  const production = {
    NODE_ENV: 'production',
    SUPPLIER_PROVIDER: 'acep',
    ALIPAY_PROVIDER: 'alipay',
    ACEP_ACCESS_KEY_ID: 'a',
  }
  assert.throws(
    () => realAdapters(loadConfig(production), production),
    (error: Error) => {
      const lines = error.message.split('\n')
      assert.equal(lines[0], 'Refusing to start with NODE_ENV=production:')
      assert.ok(
        lines.includes(
          '- SUPPLIER_PROVIDER=acep needs ACEP_SECRET_ACCESS_KEY, ACEP_PRODUCT_ID, ACEP_RESOURCE_TYPE, ACEP_CALLBACK_ACCESS_KEY, ACEP_CALLBACK_SECRET',
        ),
        error.message,
      )
      assert.ok(
        lines.some((line) => line.includes('ALIPAY_APP_ID is not set')),
        error.message,
      )
      assert.ok(
        lines.some((line) => line.startsWith('- DATABASE_URL is not set')),
        error.message,
      )
      assert.ok(!error.message.includes('ALLOW_SANDBOX_SUPPLIER'), error.message)
      return true
    },
  )
  assert.equal(
    sandboxAdapters(loadConfig({ ...env, NODE_ENV: 'production' })).includes('supplier'),
    false,
  )
  assert.equal(sandboxAdapters(loadConfig({ NODE_ENV: 'production' })).includes('supplier'), true)
})
