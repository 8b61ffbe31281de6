/**
 * The ACEP adapter held against ACEP's own model (src/adapters/supplier/acep/model, extracted from
 * Volcengine's Go SDKs by scripts/acep-model.mjs): every request it makes in every flow (provisioning,
 * commands, power, backup, restore, zone change, keep-data replace, factory reset, app installs, the
 * smoke check) is
 * the model's method, version and placement with no unknown field, every required one and the right
 * types; the fake refuses what does not match as the gateway would; the adapter reads answers shaped
 * like the model, a partial failure and one pod refused in a batch's Details among them.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import fc from 'fast-check'
import { eq } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import { AcepClient, type AcepError } from '../../src/adapters/supplier/acep/acep-client'
import { taskOutcome } from '../../src/adapters/supplier/acep/acep-tasks'
import { checkAcep } from '../../src/adapters/supplier/acep'
import {
  ACEP_ACTIONS,
  type AcepAction,
  requestRefusal,
} from '../../src/adapters/supplier/acep/model/acep-model'
import { canonicalQuery, signRequest } from '../../src/adapters/supplier/acep/signer'
import { acepTasks, apps } from '../../src/db/schema'
import { acepSupplierSetup } from '../helpers/acep-app'
import { buildApk } from '../helpers/apk'
import { acepEnvFor, acepSupplierFor, FAKE_KEYS, type FakeAcep } from '../helpers/fake-acep'

const request = (requestId: string, zoneId = 1) => ({
  requestId,
  name: '云手机-1',
  goodId: 301,
  zoneId,
  expireAt: new Date('2027-04-01T00:00:00.000Z'),
})

/** A request to the fake signed as ACEP wants, its fields wherever the caller puts them. */
async function signed(
  fake: FakeAcep,
  method: 'GET' | 'POST',
  action: string,
  version: string,
  query: Record<string, string>,
  body: unknown,
) {
  const fullQuery = { Action: action, Version: version, ...query }
  const raw = body === undefined ? '' : JSON.stringify(body)
  const headers = signRequest(
    { method, query: fullQuery, body: raw, date: new Date() },
    {
      accessKeyId: FAKE_KEYS.accessKeyId,
      secretAccessKey: FAKE_KEYS.secretAccessKey,
      region: 'cn-north-1',
      service: 'ACEP',
    },
  )
  const response = await fetch(`${fake.endpoint}/?${canonicalQuery(fullQuery)}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: method === 'POST' ? raw : undefined,
  })
  const envelope = (await response.json()) as {
    ResponseMetadata: { Error?: { Code: string; Message: string } }
  }
  return { status: response.status, error: envelope.ResponseMetadata.Error }
}

test('the model names its source for every action: the SDK repository at a commit, the version, where the fields go', () => {
  for (const [action, model] of Object.entries(ACEP_ACTIONS)) {
    assert.match(
      model.source,
      /^volcengine\/(volc-sdk-golang|volcengine-go-sdk)@[0-9a-f]{40} service\/acep/,
      action,
    )
    assert.ok(['2023-10-30', '2025-05-01'].includes(model.version), action)
    assert.equal(model.in, model.method === 'GET' ? 'query' : 'body', action)
    // Every action names its business; UploadApp's is the one the SDK leaves optional (we send it).
    assert.ok(model.request.ProductId, `${action} names its business`)
    assert.equal(model.request.ProductId.required, action !== 'UploadApp' || undefined, action)
  }
  // Facts only the documents give are in the model with their page.
  assert.deepEqual(
    Object.keys(ACEP_ACTIONS.GetTaskInfo.answer.fields!.Jobs.items!.fields!.Status.values!).sort(),
    ['-1', '-2', '10', '100'],
  )
  assert.equal(ACEP_ACTIONS.ListBackupData.method, 'POST')
  assert.equal(ACEP_ACTIONS.ListBackupData.request.BackupDataIdList.type, 'array')
})

test('every request of every flow is the model’s, and every action of the model is used', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  // Provisioning, commands, power, configuration, image.
  const { instanceId: pod } = await supplier.create(request('r1'))
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running')
  for (const command of [DeviceCommand.CleanVm, DeviceCommand.Reboot, DeviceCommand.GetVmCover]) {
    await supplier.command(pod, { command })
  }
  await fake.advance(fake.delayMs)
  await supplier.command(pod, { command: DeviceCommand.Uninstall, packageName: 'com.tencent.mm' })
  await supplier.cover(pod, 'd=1')
  await supplier.suspend([pod])
  await supplier.resume(pod)
  await fake.advance(fake.delayMs)
  await supplier.changeConfig(pod, 401)
  await fake.advance(fake.delayMs)
  // Backup and restore; a zone change; a factory reset; a keep-data replacement.
  const { taskId } = await supplier.backup(pod, 'space-1')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.backupTask(taskId))?.status, 'done')
  const restore = await supplier.restore(pod, taskId, 'space-2')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.backupTask(restore.taskId))?.status, 'done')
  await supplier.changeZone(pod, 2)
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.zoneId, 2)
  await supplier.reset(pod)
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running')
  const { instanceId: copy } = await supplier.replace(pod, { ...request('r2'), keepData: true })
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(copy))?.status, 'creating', 'restoring the copy')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(copy))?.status, 'running')
  await supplier.deleteBackup(taskId)
  // An app: uploaded from our signed address (served here as the route serves it), installed, listed, opened.
  const apk = buildApk({ packageName: 'com.studio.model', versionCode: 2 })
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local')
    const allowed = supplier.apps.apkDownloadAllowed(
      Number(url.pathname.split('/').at(-1)),
      url.searchParams.get('e') ?? undefined,
      url.searchParams.get('s') ?? undefined,
    )
    res.writeHead(allowed ? 200 : 403).end(allowed ? apk : 'forbidden')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  supplier.apps.publicBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const [appRow] = await database.db
    .insert(apps)
    .values({
      ownerId: null,
      packageName: 'com.studio.model',
      name: '模型应用',
      versionCode: 2,
      versionName: '1.0',
      sizeBytes: apk.length,
      sha256: 'model',
      apkPath: '/private/apks/model.apk',
      createdAt: new Date(),
    })
    .returning()
  const forInstall = {
    appId: appRow.id,
    packageName: 'com.studio.model',
    name: '模型应用',
    versionCode: 2,
    versionName: '1.0',
    abis: [],
    read: async () => apk,
  }
  const installing = (await supplier.apps.install([copy], forInstall)).get(copy)
  assert.ok(installing?.ok, JSON.stringify(installing))
  await fake.advance(fake.delayMs)
  const states = await supplier.apps.taskStates([{ instanceId: copy, task: installing.task }])
  assert.deepEqual(states.get(installing.task), { status: 'installed' })
  assert.ok((await supplier.apps.installed(copy)).some((a) => a.packageName === 'com.studio.model'))
  await supplier.apps.launch(copy, 'com.studio.model')
  await supplier.release(pod)
  // A create whose answer was lost looks its pod up by name (ListPod); the smoke check lists data centres.
  fake.loseNextCreateAnswer = true
  await assert.rejects(supplier.create(request('r3')))
  await supplier.create(request('r3'))
  const check = await checkAcep(database.db, acepEnvFor(fake))
  assert.equal(check.credentialsAccepted, true)

  const asked = fake.requests.filter((r) => r.action !== 'AssumeRole')
  for (const sent of asked) {
    assert.equal(requestRefusal(sent), null, `${sent.action}: ${JSON.stringify(sent)}`)
  }
  assert.deepEqual(
    [...new Set(asked.map((r) => r.action))].sort(),
    Object.keys(ACEP_ACTIONS).sort(),
    'every action the adapter calls is in the model, and each was exercised',
  )
})

test('the fake refuses what the gateway would: unknown action or version, wrong method, a field missing, unknown, misplaced or mistyped', async (t) => {
  const { fake } = await acepSupplierSetup(t)
  const product = { ProductId: FAKE_KEYS.productId }
  type Sent = Parameters<typeof signed> extends [FakeAcep, ...infer Rest] ? Rest : never
  const cases: [string, Sent, number, string][] = [
    [
      'no such action',
      ['POST', 'ScreenShotNow', '2025-05-01', {}, product],
      404,
      'InvalidActionOrVersion',
    ],
    [
      'another version',
      ['POST', 'ResetPod', '2023-10-30', {}, { ...product, PodIdList: ['1'] }],
      404,
      'InvalidActionOrVersion',
    ],
    [
      'ListBackupData as a GET',
      ['GET', 'ListBackupData', '2025-05-01', { ...product, BackupDataIdList: 'bd-1' }, undefined],
      405,
      'MethodNotAllowed',
    ],
    [
      'no ProductId',
      ['POST', 'BackupData', '2025-05-01', {}, { PodIdList: ['1'] }],
      400,
      'MissingParameter',
    ],
    [
      'BackupData’s old PodId',
      ['POST', 'BackupData', '2025-05-01', {}, { ...product, PodId: '1' }],
      400,
      'InvalidParameter',
    ],
    [
      'MigratePod’s old Dc',
      ['POST', 'MigratePod', '2025-05-01', {}, { ...product, PodIdList: ['1'], Dc: 'dc-2' }],
      400,
      'InvalidParameter',
    ],
    [
      'a body field in the query',
      ['POST', 'BackupData', '2025-05-01', { PodIdList: '1' }, product],
      400,
      'InvalidParameter',
    ],
    [
      'a list as text',
      ['POST', 'ListBackupData', '2025-05-01', {}, { ...product, BackupDataIdList: 'bd-1' }],
      400,
      'InvalidParameter',
    ],
    [
      'text for a number',
      ['GET', 'ListPod', '2023-10-30', { ...product, Count: 'ten' }, undefined],
      400,
      'InvalidParameter',
    ],
    [
      'a ResourceType ACEP has not',
      [
        'POST',
        'CreatePod',
        '2023-10-30',
        {},
        { ...product, ConfigurationCode: 'c', Dc: 'd', ResourceType: 300 },
      ],
      400,
      'InvalidParameter',
    ],
    ['no TaskId', ['POST', 'GetTaskInfo', '2025-05-01', {}, product], 400, 'MissingParameter'],
  ]
  for (const [name, args, status, code] of cases) {
    const answer = await signed(fake, ...args)
    assert.deepEqual([answer.status, answer.error?.Code], [status, code], name)
  }
  assert.equal(fake.calls.length, 0, 'nothing refused ran')
})

test('a request the model would refuse is never sent', async (t) => {
  const { fake } = await acepSupplierSetup(t)
  const client = new AcepClient({
    endpoint: fake.endpoint,
    keys: { ...FAKE_KEYS, region: 'cn-north-1', service: 'ACEP' },
  })
  await assert.rejects(
    client.call('BackupData', { ProductId: FAKE_KEYS.productId, PodId: '1' }),
    /ACEP BackupData: not sent, InvalidParameter: .*PodId: not a field of the model/,
  )
  await assert.rejects(
    client.call('GetTaskInfo', { ProductId: FAKE_KEYS.productId }),
    /MissingParameter/,
  )
  assert.equal(fake.requests.length, 0)
})

test('a GET value with a space is sent as it is signed (%20, not +)', async (t) => {
  const { fake } = await acepSupplierSetup(t)
  const client = new AcepClient({
    endpoint: fake.endpoint,
    keys: { ...FAKE_KEYS, region: 'cn-north-1', service: 'ACEP' },
  })
  const page = await client.call<{ Total?: number }>('ListPod', {
    ProductId: FAKE_KEYS.productId,
    ZoneId: 'zone a+b',
  })
  assert.equal(page.Total, 0)
  assert.equal(fake.calls.at(-1)?.query.ZoneId, 'zone a+b')
})

test('GetTaskInfo’s scale: 100 done, below 0 failed (−1 全部失败, −2 部分失败), anything else still running', () => {
  fc.assert(
    fc.property(fc.integer({ min: -1000, max: 1000 }), (status) => {
      const outcome = taskOutcome(status)
      assert.equal(outcome, status === 100 ? 'done' : status < 0 ? 'failed' : 'running')
    }),
  )
  assert.equal(taskOutcome(undefined), 'running')
})

test('a factory reset ACEP failed partly (−2) ends failed; the pod runs on as it was', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const { instanceId: pod } = await supplier.create(request('r1'))
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running')
  fake.partlyFailNextTask = true
  await supplier.reset(pod)
  assert.equal((await supplier.state(pod))?.status, 'rebooting', 'the task is at 10 (执行中)')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running')
  const [task] = await database.db.select().from(acepTasks).where(eq(acepTasks.podId, pod))
  assert.equal(task.status, 'failed')
  assert.ok(fake.pods.get(pod)!.apps.length > 0, 'its apps are still there')
})

test('a backup of a pod ACEP leaves out of BackupData’s Details is refused; nothing is recorded', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const { instanceId: pod } = await supplier.create(request('r1'))
  // Still booting: ACEP backs up only running pods, and names none in its answer.
  await assert.rejects(supplier.backup(pod, 'space-1'), /BackupData: the answer names no pod/)
  assert.equal(fake.count('BackupData'), 1)
  assert.equal((await database.db.select().from(acepTasks)).length, 0)
})

test('a local-storage business gets ResourceType 200 on CreatePod; one set to 100 is refused by ACEP', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  await supplier.create(request('r1'))
  assert.equal(fake.calls.find((c) => c.action === 'CreatePod')?.body.ResourceType, 200)
  const misconfigured = acepSupplierFor(fake, database.db, undefined, '', {
    ACEP_RESOURCE_TYPE: '100',
  })
  await assert.rejects(
    misconfigured.create(request('r2')),
    (error: AcepError) => error.code === 'InvalidParameter.ResourceType',
  )
})

test('answers off the model fail loudly in the fake (it never invents a shape)', async (t) => {
  const { fake } = await acepSupplierSetup(t)
  const action: AcepAction = 'ListDc'
  // ACEP's ListDc answer has Row and Total; a field it has not must not slip out of the fake.
  const original = (fake as unknown as { act: (...args: unknown[]) => unknown }).act.bind(fake)
  ;(fake as unknown as { act: (...args: unknown[]) => unknown }).act = (...args) =>
    args[0] === action ? { Rows: [] } : original(...args)
  const answer = await signed(
    fake,
    'GET',
    action,
    '2023-10-30',
    { ProductId: FAKE_KEYS.productId },
    undefined,
  )
  assert.deepEqual([answer.status, answer.error?.Code], [500, 'FakeAnswerOffModel'])
  assert.match(answer.error!.Message, /ListDc\.Result\.Rows: not a field of the model/)
})
