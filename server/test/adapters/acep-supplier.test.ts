/**
 * The ACEP supplier against the local fake ACEP (test/helpers/fake-acep.ts), whose signature check is the
 * official SDK's: provisioning, every command, release, backup, restore and zone change, throttling,
 * batch limits, a task that never finishes, signed and forged callbacks.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, type TestContext } from 'node:test'
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { Signer } from '@volcengine/openapi'
import { DeviceCommand } from '#domain/enums'
import { AcepClient, type AcepError } from '../../src/adapters/supplier/acep/acep-client'
import type { AcepSupplier } from '../../src/adapters/supplier/acep/acep-supplier'
import { verifyCallback, signCallback } from '../../src/adapters/supplier/acep/callback'
import { signRequest } from '../../src/adapters/supplier/acep/signer'
import { acepCredentialsFromEnv } from '../../src/adapters/supplier/acep/credentials'
import { assertAcepCatalogue, unmappedCatalogue } from '../../src/adapters/supplier/acep/catalogue'
import { createTestDatabase } from '../helpers/test-database'
import { FakeClock } from '../helpers/test-app'
import type { Clock } from '../../src/clock'
import { acepTasks } from '../../src/db/schema'
import { MIGRATE_TIMEOUT_MS } from '../../src/adapters/supplier/acep/acep-tasks'
import {
  acepSupplierFor,
  configOf,
  FAKE_KEYS,
  FakeAcep,
  mapWholeCatalogue,
} from '../helpers/fake-acep'
import type { Database } from '../../src/db/client'

const request = (requestId: string) => ({
  requestId,
  name: '云手机-1',
  goodId: 301,
  zoneId: 1,
  expireAt: new Date('2027-04-01T00:00:00.000Z'),
})

async function setup(t: TestContext, options: { map?: boolean; clock?: Clock } = {}) {
  const database: Database = await createTestDatabase()
  const fake = await new FakeAcep().start()
  t.after(async () => {
    await fake.stop()
    await database.close()
  })
  if (options.map !== false) await mapWholeCatalogue(database.db)
  return { fake, database, supplier: acepSupplierFor(fake, database.db, options.clock) }
}

/** A pod that has booted. */
async function runningPod(fake: FakeAcep, supplier: AcepSupplier, requestId = 'r1') {
  const { instanceId } = await supplier.create(request(requestId))
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(instanceId))?.status, 'running')
  return instanceId
}

/** A local address whose POSTs go to supplier.acceptCallback (200 accepted, 401 refused). */
async function callbackServer(t: TestContext, supplier: AcepSupplier) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const check = await supplier.acceptCallback(req.headers, Buffer.concat(chunks).toString('utf8'))
    res.writeHead(check.ok ? 200 : 401).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`
}

// Query keys start with a letter, as every ACEP parameter does: the SDK keeps its sorted keys in an object,
// where an integer-like key ("0") would jump ahead of the others.
test('our V4 signature is the official SDK signature, for any query and body', () => {
  const keys = {
    accessKeyId: 'AK',
    secretAccessKey: 'SK/+=',
    region: 'cn-north-1',
    service: 'ACEP',
  }
  fc.assert(
    fc.property(
      fc.dictionary(
        fc.stringMatching(/^[A-Za-z][\w .~*'()!-]{0,8}$/),
        fc.string({ maxLength: 12 }),
        {
          maxKeys: 4,
        },
      ),
      fc.string({ maxLength: 40 }),
      fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
      (query, body, date) => {
        const ours = signRequest({ method: 'POST', query, body, date }, keys)
        const signer = new Signer(
          {
            region: keys.region,
            method: 'POST',
            pathname: '/',
            params: { ...query },
            headers: { 'X-Date': ours['X-Date'], 'X-Content-Sha256': ours['X-Content-Sha256'] },
            body,
          },
          'ACEP',
        )
        const theirs = signer
          .signature(
            { accessKeyId: keys.accessKeyId, secretKey: keys.secretAccessKey },
            ours['X-Date'],
          )
          .toString()
        assert.equal(ours.Authorization.split('Signature=')[1], theirs)
      },
    ),
    { numRuns: 200 },
  )
})

test('credentials: every missing variable is named; defaults for region and endpoint; a bad endpoint refused', () => {
  assert.deepEqual(acepCredentialsFromEnv({}), {
    ok: false,
    problems: [
      'SUPPLIER_PROVIDER=acep needs ACEP_ACCESS_KEY_ID, ACEP_SECRET_ACCESS_KEY, ACEP_PRODUCT_ID, ACEP_RESOURCE_TYPE, ACEP_CALLBACK_ACCESS_KEY, ACEP_CALLBACK_SECRET',
    ],
  })
  const env = {
    ACEP_ACCESS_KEY_ID: 'a',
    ACEP_SECRET_ACCESS_KEY: 'b',
    ACEP_PRODUCT_ID: 'c',
    ACEP_RESOURCE_TYPE: '200',
    ACEP_CALLBACK_ACCESS_KEY: 'd',
    ACEP_CALLBACK_SECRET: 'e',
  }
  const result = acepCredentialsFromEnv(env)
  assert.ok(result.ok)
  assert.equal(result.credentials.region, 'cn-north-1')
  assert.equal(result.credentials.endpoint, 'https://open.volcengineapi.com')
  assert.equal(result.credentials.resourceType, 200)
  assert.equal(
    (
      acepCredentialsFromEnv({ ...env, ACEP_RESOURCE_TYPE: '100' }) as {
        credentials: { resourceType: number }
      }
    ).credentials.resourceType,
    100,
  )
  assert.deepEqual(acepCredentialsFromEnv({ ...env, ACEP_RESOURCE_TYPE: 'local' }), {
    ok: false,
    problems: [
      'ACEP_RESOURCE_TYPE must be 200 (本地存储) or 100 (云盘存储), as the ACEP business is (got "local")',
    ],
  })
  for (const endpoint of ['open.volcengineapi.com', 'ftp://open.volcengineapi.com', 'https://']) {
    assert.deepEqual(acepCredentialsFromEnv({ ...env, ACEP_ENDPOINT: endpoint }), {
      ok: false,
      problems: [`ACEP_ENDPOINT must be an http(s) URL (got "${endpoint}")`],
    })
  }
})

test('a request signed with the wrong secret is refused, and not retried', async (t) => {
  const { fake } = await setup(t, { map: false })
  const client = new AcepClient({
    endpoint: fake.endpoint,
    keys: {
      accessKeyId: FAKE_KEYS.accessKeyId,
      secretAccessKey: 'wrong',
      region: 'cn-north-1',
      service: 'ACEP',
    },
    backoffMs: 1,
  })
  await assert.rejects(
    client.call('ListPod', { ProductId: FAKE_KEYS.productId }),
    (error: AcepError) => {
      assert.equal(error.code, 'SignatureDoesNotMatch')
      assert.equal(error.status, 401)
      return true
    },
  )
  assert.equal(fake.calls.length, 0, 'the fake ran nothing')
})

test('provisioning: CreatePod once per requestId, booting → running, mapped config and Dc', async (t) => {
  const { fake, supplier } = await setup(t)
  const { instanceId } = await supplier.create(request('r1'))
  assert.deepEqual(
    await supplier.create(request('r1')),
    { instanceId },
    'the same requestId, the same pod',
  )
  assert.equal(fake.count('CreatePod'), 1)
  assert.deepEqual(
    { config: fake.pods.get(instanceId)?.config, dc: fake.pods.get(instanceId)?.dc },
    { config: configOf(301), dc: 'dc-1' },
  )
  assert.equal((await supplier.state(instanceId))?.status, 'creating')
  await fake.advance(fake.delayMs)
  const state = await supplier.state(instanceId)
  assert.equal(state?.status, 'running')
  assert.equal(state?.goodId, 301)
  assert.equal(state?.zoneId, 1)
  assert.equal(await supplier.state('no-such-pod'), null, 'a pod that is not ours')
})

test('a create whose answer was lost finds its pod by name instead of making a second', async (t) => {
  const { fake, supplier } = await setup(t)
  fake.loseNextCreateAnswer = true
  await assert.rejects(supplier.create(request('lost')))
  assert.equal(fake.pods.size, 1, 'ACEP made the pod')
  const { instanceId } = await supplier.create(request('lost'))
  assert.equal(fake.count('CreatePod'), 1, 'not created again')
  assert.ok(fake.pods.has(instanceId))
})

test('throttling is retried with backoff; past the attempts it surfaces', async (t) => {
  const { fake, supplier } = await setup(t)
  fake.throttleNext = 3
  const { instanceId } = await supplier.create(request('r1'))
  assert.ok(fake.pods.has(instanceId), 'created after three 429s')
  fake.throttleNext = 10
  await assert.rejects(supplier.state(instanceId), (error: AcepError) => error.throttled)
})

test('every command goes through ACEP', async (t) => {
  const { fake, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)
  for (const command of [
    DeviceCommand.CleanVm,
    DeviceCommand.CleanMem,
    DeviceCommand.DeepCleanVm,
  ]) {
    assert.equal((await supplier.command(pod, { command })).ok, true, command)
  }
  assert.equal(fake.count('RunSyncCommand'), 3)
  assert.deepEqual(
    await supplier.command(pod, {
      command: DeviceCommand.OpenUrl,
      url: 'https://example.com/a?b=1',
    }),
    {
      ok: true,
      msg: '已打开网址',
    },
  )
  assert.match(
    String(fake.calls.at(-1)?.body.Command),
    /^am start .* -d 'https:\/\/example.com\/a\?b=1'$/,
  )
  const hostile = await supplier.command(pod, {
    command: DeviceCommand.OpenUrl,
    url: "https://x/'; reboot; echo '",
  })
  assert.equal(hostile.ok, true)
  assert.equal(
    String(fake.calls.at(-1)?.body.Command),
    "am start -a android.intent.action.VIEW -d 'https://x/%27;%20reboot;%20echo%20%27'",
    'a quote never reaches the shell unescaped',
  )
  assert.deepEqual(
    await supplier.command(pod, { command: DeviceCommand.OpenUrl, url: 'file:///etc/passwd' }),
    {
      ok: false,
      msg: '请输入以 http:// 或 https:// 开头的网址',
    },
  )
  assert.equal(fake.count('RunSyncCommand'), 5)

  assert.deepEqual(await supplier.command(pod, { command: DeviceCommand.GetVmCover }), {
    ok: true,
    msg: '画面已刷新',
  })
  assert.equal(fake.count('BatchScreenShot'), 1)

  // An app from ACEP's app centre goes by its AppId, one the user installed by `pm uninstall`.
  assert.equal(
    (
      await supplier.command(pod, {
        command: DeviceCommand.Uninstall,
        packageName: 'com.tencent.mm',
      })
    ).ok,
    true,
  )
  assert.equal(fake.count('UninstallApp'), 1)
  assert.equal(
    (
      await supplier.command(pod, {
        command: DeviceCommand.Uninstall,
        packageName: 'com.ss.android.ugc.aweme',
      })
    ).ok,
    true,
  )
  assert.deepEqual(fake.pods.get(pod)?.apps, [])
  assert.deepEqual(
    await supplier.command(pod, {
      command: DeviceCommand.Uninstall,
      packageName: 'com.tencent.mm',
    }),
    {
      ok: false,
      msg: '应用不存在',
      refusal: 'appNotFound',
    },
  )
  const injected = await supplier.command(pod, {
    command: DeviceCommand.Uninstall,
    packageName: 'a.b; reboot',
  })
  assert.equal(injected.refusal, 'appNotFound')

  assert.deepEqual(await supplier.command(pod, { command: DeviceCommand.Reboot }), {
    ok: true,
    msg: '正在重启',
  })
  assert.equal((await supplier.state(pod))?.status, 'rebooting')
  // A command while it reboots: ACEP's command fails, the user is told to retry.
  assert.deepEqual(await supplier.command(pod, { command: DeviceCommand.CleanVm }), {
    ok: false,
    msg: '云手机响应超时，请重试',
  })
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running')
})

test('a pod found powered off is powered on again', async (t) => {
  const { fake, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)
  fake.pods.get(pod)!.off = true
  assert.equal((await supplier.state(pod))?.status, 'rebooting')
  assert.equal(fake.count('PowerOnPod'), 1)
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running')
})

test('release deletes the pod, idempotently; renew is ours; changeConfig updates and restarts', async (t) => {
  const { fake, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)
  const later = new Date('2027-05-01T00:00:00.000Z')
  await supplier.renew(pod, later)
  assert.equal((await supplier.state(pod))?.expireAt.getTime(), later.getTime())

  await supplier.changeConfig(pod, 302)
  assert.equal(fake.count('UpdatePod'), 0, 'goods 302 has the same ACEP configuration as 301')
  await supplier.changeConfig(pod, 401)
  assert.equal(fake.pods.get(pod)?.config, configOf(401))
  assert.equal(fake.count('RebootPod'), 1)
  assert.equal((await supplier.state(pod))?.goodId, 401)

  await supplier.release(pod)
  assert.equal(fake.pods.has(pod), false)
  await supplier.release(pod)
  assert.equal((await supplier.state(pod))?.status, 'released')
})

test('zone change: MigratePod (PodIdList, TargetDc), followed by the pod’s Dc in DetailPod until it moved', async (t) => {
  const clock = new FakeClock()
  const { fake, supplier } = await setup(t, { clock })
  const pod = await runningPod(fake, supplier)
  await supplier.changeZone(pod, 2)
  await supplier.changeZone(pod, 2)
  assert.equal(fake.count('MigratePod'), 1, 'one migration at a time')
  const asked = fake.calls.find((call) => call.action === 'MigratePod')!
  assert.deepEqual(asked.body, {
    ProductId: FAKE_KEYS.productId,
    PodIdList: [pod],
    TargetDc: 'dc-2',
  })
  assert.equal((await supplier.state(pod))?.op, 'changeZone')
  // ACEP may power the pod off while it moves it: not powered on again meanwhile.
  fake.pods.get(pod)!.off = true
  assert.equal((await supplier.state(pod))?.op, 'changeZone')
  assert.equal(fake.count('PowerOnPod'), 0)
  fake.pods.get(pod)!.off = false
  await fake.advance(fake.delayMs)
  const state = await supplier.state(pod)
  assert.deepEqual({ op: state?.op, zoneId: state?.zoneId }, { op: null, zoneId: 2 })
  assert.equal(fake.pods.get(pod)?.dc, 'dc-2')

  // ACEP never moves it: given up after MIGRATE_TIMEOUT_MS, the zone kept, and a new one may start.
  fake.failNextTask = true
  await supplier.changeZone(pod, 3)
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.op, 'changeZone', 'still waiting for the pod to move')
  clock.advance(MIGRATE_TIMEOUT_MS)
  const failed = await supplier.state(pod)
  assert.deepEqual(
    { op: failed?.op, zoneId: failed?.zoneId },
    { op: null, zoneId: 2 },
    'a migration that never ended keeps the zone',
  )
  await supplier.changeZone(pod, 3)
  assert.equal(fake.count('MigratePod'), 3, 'asked again')
})

test('zone change refused for its pod in MigratePod’s Details: nothing recorded, the zone kept', async (t) => {
  const { fake, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)
  fake.pods.get(pod)!.off = true
  await assert.rejects(supplier.changeZone(pod, 2), /MigratePod refused pod .*pod is not running/)
  fake.pods.get(pod)!.off = false
  const state = await supplier.state(pod)
  assert.deepEqual({ op: state?.op, zoneId: state?.zoneId }, { op: null, zoneId: 1 })
})

test('backup and restore by polling; a failed one says why; delete frees it once', async (t) => {
  const { fake, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)
  const { taskId } = await supplier.backup(pod, 'space-1')
  assert.deepEqual(await supplier.backup(pod, 'space-1'), { taskId }, 'same requestId, same task')
  assert.equal(fake.count('BackupData'), 1)
  assert.equal((await supplier.backupTask(taskId))?.status, 'running')
  await fake.advance(fake.delayMs)
  assert.deepEqual(await supplier.backupTask(taskId), {
    status: 'done',
    sizeBytes: 512 * 1024 * 1024,
    failReason: null,
    readyAt: null,
  })

  const restore = await supplier.restore(pod, taskId, 'space-2')
  assert.equal((await supplier.backupTask(restore.taskId))?.status, 'running')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.backupTask(restore.taskId))?.status, 'done')

  fake.failNextTask = true
  const failing = await supplier.backup(pod, 'space-3')
  await fake.advance(fake.delayMs)
  assert.deepEqual(await supplier.backupTask(failing.taskId), {
    status: 'failed',
    sizeBytes: 0,
    failReason: '备份失败，云手机数据读取异常',
    readyAt: null,
  })

  await supplier.deleteBackup(taskId)
  await supplier.deleteBackup(taskId)
  assert.equal(fake.count('DeleteBackupData'), 1)
  assert.equal(await supplier.backupTask('unknown'), null)
})

test('replace keeping the data: the old pod is backed up, restored onto the new one, then the copy is freed', async (t) => {
  const { fake, supplier } = await setup(t)
  const old = await runningPod(fake, supplier, 'old')
  const { instanceId } = await supplier.replace(old, { ...request('new'), keepData: true })
  assert.deepEqual(await supplier.replace(old, { ...request('new'), keepData: true }), {
    instanceId,
  })
  assert.equal(fake.count('BackupData'), 1, 'backed up once')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(instanceId))?.status, 'creating', 'booted, the restore starts')
  assert.equal(fake.count('RestoreData'), 1)
  assert.equal((await supplier.state(instanceId))?.status, 'creating', 'restoring')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(instanceId))?.status, 'running')
  assert.equal(fake.count('DeleteBackupData'), 1, "the copy's backup is freed")

  const fresh = await supplier.replace(old, { ...request('fresh'), keepData: false })
  assert.equal(fake.count('BackupData'), 1, 'no copy without keepData')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(fresh.instanceId))?.status, 'running')

  fake.failNextTask = true
  const failing = await supplier.replace(old, { ...request('failing'), keepData: true })
  await fake.advance(fake.delayMs)
  const state = await supplier.state(failing.instanceId)
  assert.deepEqual(
    [state?.status, state?.failReason],
    ['failed', '数据复制失败，原云手机可继续使用'],
  )
})

test('a task that never finishes stays running (the space job gives up on it at its deadline)', async (t) => {
  const { fake, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)
  fake.neverFinishNextTask = true
  const { taskId } = await supplier.backup(pod, 'space-1')
  await fake.advance(fake.delayMs * 3)
  assert.equal((await supplier.backupTask(taskId))?.status, 'running')
})

test('callbacks: a signed AsyncTask has its task asked about at once, its own status never trusted; forged and stale ones change nothing', async (t) => {
  const { fake, database, supplier } = await setup(t)
  fake.callbackUrl = await callbackServer(t, supplier)
  const pod = await runningPod(fake, supplier)
  const { taskId } = await supplier.backup(pod, 'space-1')
  const row = async () =>
    (await database.db.select().from(acepTasks).where(eq(acepTasks.taskId, taskId)))[0]

  const event = (status: number) =>
    JSON.stringify({
      id: `m-${status}`,
      event_type: 'AsyncTask',
      event_async_task: [{ instance_id: pod, global_task_id: taskId, task_status: status }],
    })
  assert.equal(await fake.postCallback(event(100), { forge: true }), 401, 'forged')
  assert.equal(
    await fake.postCallback(event(100), { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    401,
    'stale',
  )
  const polls = fake.count('ListBackupData')
  assert.equal(polls, 0, 'refused callbacks asked ACEP nothing')

  // A genuine callback saying "done" while ACEP still runs the task: asked, and still running.
  assert.equal(await fake.postCallback(event(100)), 200)
  assert.equal(fake.count('ListBackupData'), 1, 'asked ListBackupData at once')
  assert.equal((await row()).status, 'running', 'the callback decided nothing')

  // ACEP finishes and posts its callback: the task ends before anyone asks backupTask.
  await fake.advance(fake.delayMs)
  const done = await row()
  assert.deepEqual(
    { status: done.status, sizeBytes: done.sizeBytes },
    { status: 'done', sizeBytes: 512 * 1024 * 1024 },
  )
  assert.equal(await fake.postCallback(event(-1)), 200, 'a late failure is accepted…')
  assert.equal((await supplier.backupTask(taskId))?.status, 'done', '…and changes nothing')

  // Ping (连通性测试) and events of tasks not ours are accepted and change nothing.
  assert.equal(await fake.postCallback(JSON.stringify({ id: 'p', event_type: 'Ping' })), 200)
  assert.equal(await fake.postCallback(event(100).replace(taskId, 'not-ours')), 200)
  assert.equal(fake.count('ListBackupData'), 2)
})

test('callback signature: tampered body, wrong key, bad header shapes, each with its reason', () => {
  const keys = { accessKey: 'ak', secret: 'sk' }
  const now = new Date('2026-11-27T00:00:00Z')
  const ts = Math.floor(now.getTime() / 1000)
  const header = signCallback('{"a":1}', keys, ts)
  assert.deepEqual(verifyCallback(header, '{"a":1}', keys, now), { ok: true })
  assert.deepEqual(verifyCallback(header, '{"a":2}', keys, now), {
    ok: false,
    reason: 'iPaaS-Auth signature does not match',
    skewSeconds: 0,
  })
  assert.deepEqual(verifyCallback(header, '{"a":1}', { accessKey: 'other', secret: 'sk' }, now), {
    ok: false,
    reason: 'iPaaS-Auth names another access key than ACEP_CALLBACK_ACCESS_KEY',
  })
  assert.deepEqual(verifyCallback(signCallback('{"a":1}', keys, ts + 3600), '{"a":1}', keys, now), {
    ok: false,
    reason: 'iPaaS-Auth timestamp outside its validity',
    skewSeconds: 3600,
  })
  for (const bad of [
    undefined,
    '',
    'auth-v1/ak',
    `${header}/x`,
    header.replace(/[0-9a-f]{64}$/, 'zz'),
    '\u0000',
  ]) {
    const check = verifyCallback(bad, '{"a":1}', keys, now)
    assert.equal(check.ok, false, String(bad))
    assert.ok(!check.ok && !check.reason.includes('sk'), 'the reason names no secret')
  }
})

test('batches of 500 are split to ACEP limits', async (t) => {
  const { fake, supplier, database } = await setup(t)
  const ids = await fake.seedRunningPods(database.db, 500)
  const client = (supplier as unknown as { client: AcepClient }).client
  await assert.rejects(
    client.call('PowerOnPod', { ProductId: FAKE_KEYS.productId, PodIdList: ids }),
    (error: AcepError) => error.code === 'InvalidParameter',
    'ACEP refuses 500 at once',
  )
  const batches = await client.postBatches('PowerOnPod', ids, (batch) => ({
    ProductId: FAKE_KEYS.productId,
    PodIdList: batch,
  }))
  assert.deepEqual(
    batches.map((b) => [b.podIds.length, b.ok]),
    [
      [200, true],
      [200, true],
      [100, true],
    ],
  )
  const sizes = fake.calls
    .filter((c) => c.action === 'PowerOnPod')
    .map((c) => (c.body.PodIdList as string[]).length)
  assert.deepEqual(sizes, [500, 200, 200, 100])
})

test('start-up check: every goods on sale and every zone needs an ACEP id, all listed at once', async (t) => {
  const { database } = await setup(t, { map: false })
  const missing = await unmappedCatalogue(database.db)
  assert.ok(missing.some((line) => line.startsWith('goods 301 ')))
  assert.ok(missing.some((line) => line.startsWith('zone 1 ')))
  await assert.rejects(
    assertAcepCatalogue(database.db),
    /supplier_catalogue[\s\S]*goods 301[\s\S]*zone 1/,
  )
  await mapWholeCatalogue(database.db)
  await assertAcepCatalogue(database.db)
})
