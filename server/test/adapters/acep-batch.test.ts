/**
 * Batch commands reach ACEP in ACEP's own batches: the fake ACEP checks each PodIdList against
 * the action's documented limit and refuses a list that names a pod twice; a 500-phone reboot is
 * ⌈500/100⌉ = 5 RebootPod calls, a throttled batch is retried, a refused one fails only its own pods;
 * RunSyncCommand answers per pod; and, through /device/batchCommand, every asked phone gets exactly one
 * result whatever the selection (owned, granted, view-only, others', missing, expired).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq, inArray, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { DeviceCommand } from '#domain/enums'
import { DeviceStatus } from '#domain/device-lifecycle'
import { acepPods, devices, deviceGrants } from '../../src/db/schema'
import { type AcepError, POD_LIST_LIMITS } from '../../src/adapters/supplier/acep/acep-client'
import { acepApp, acepSupplierSetup } from '../helpers/acep-app'
import { FAKE_LIST_LIMITS, type FakeAcep, type Call } from '../helpers/fake-acep'
import { givePhones } from '../helpers/fleet'
import { loginWithSms, post, type TestApp } from '../helpers/test-app'
import type { CommandResult } from '../../src/contract/device'

const REFUSED = { Code: 'OperationDenied', Message: 'pod is locked' }

/** The pods each call of `action` named, in order. */
const lists = (calls: Call[], action: string) =>
  calls.filter((c) => c.action === action).map((c) => c.body.PodIdList as string[])

test('our list limits are the ones the fake plays from the documents', () => {
  for (const [action, limit] of Object.entries(POD_LIST_LIMITS)) {
    assert.equal(FAKE_LIST_LIMITS[action], limit, action)
  }
})

test('a 500-pod reboot is 5 RebootPod calls; a throttled batch is retried, a refused one fails alone', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const pods = await fake.seedRunningPods(database.db, 500)
  const locked = pods[250]
  fake.throttleNext = 1 // the first batch is throttled once, then sent again
  fake.refuse = (call) =>
    call.action === 'RebootPod' && (call.body.PodIdList as string[]).includes(locked)
      ? REFUSED
      : null
  const outcomes = await supplier.commandMany([...pods, pods[0], 'not-ours'], {
    command: DeviceCommand.Reboot,
  })

  const sent = lists(fake.calls, 'RebootPod')
  assert.deepEqual(
    sent.map((list) => list.length),
    [100, 100, 100, 100, 100],
  )
  assert.equal(fake.throttled, 1)
  assert.deepEqual(sent.flat(), pods, 'each pod once, in order')
  assert.equal(outcomes.size, 501, 'one outcome per distinct id asked')
  const refusedBatch = new Set(sent[2])
  for (const pod of pods) {
    const outcome = outcomes.get(pod)!
    if (refusedBatch.has(pod)) {
      assert.equal(outcome.ok, false)
      assert.equal(outcome.msg, '云手机响应超时，请重试')
      assert.equal((outcome.error as AcepError).code, 'OperationDenied')
      assert.equal(fake.pods.get(pod)!.rebooting, false, 'ACEP did not reboot it')
    } else {
      assert.deepEqual(outcome, { ok: true, msg: '正在重启' })
      assert.equal(fake.pods.get(pod)!.rebooting, true)
    }
  }
  assert.equal(outcomes.get('not-ours')?.ok, false, 'a pod not ours fails alone')
  assert.equal(sent.flat().includes('not-ours'), false)
})

test('throttled past the attempts: that batch fails, the next still goes', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const pods = await fake.seedRunningPods(database.db, 150)
  fake.throttleNext = 5 // the client's five attempts, all on the first batch
  const outcomes = await supplier.commandMany(pods, { command: DeviceCommand.Reboot })
  assert.deepEqual(
    lists(fake.calls, 'RebootPod').map((list) => list.length),
    [50],
  )
  assert.equal(pods.slice(0, 100).filter((pod) => outcomes.get(pod)!.ok).length, 0)
  assert.ok((outcomes.get(pods[0])!.error as AcepError).throttled)
  assert.equal(pods.slice(100).filter((pod) => outcomes.get(pod)!.ok).length, 50)
})

test('shell commands answer per pod; uninstall by AppId or pm uninstall; screenshots in batches', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const pods = await fake.seedRunningPods(database.db, 250)
  const booting = [pods[3], pods[150]]
  for (const pod of booting) fake.pods.get(pod)!.bootUntil = fake.now() + 60_000

  const cleaned = await supplier.commandMany(pods, { command: DeviceCommand.CleanVm })
  assert.deepEqual(
    lists(fake.calls, 'RunSyncCommand').map((list) => list.length),
    [100, 100, 50],
  )
  for (const pod of pods) {
    assert.deepEqual(
      cleaned.get(pod),
      booting.includes(pod)
        ? { ok: false, msg: '云手机响应超时，请重试' }
        : { ok: true, msg: '清理完成' },
    )
  }

  // WeChat came from ACEP's app centre (AppId): UninstallApp, all 250 pods in one call (limit 1000).
  // A pod that lost it already answers 应用不存在.
  fake.pods.get(pods[7])!.apps = []
  const wechat = await supplier.commandMany(pods, {
    command: DeviceCommand.Uninstall,
    packageName: 'com.tencent.mm',
  })
  assert.equal(fake.count('GetPodAppList'), 250, 'the app list has no list form')
  assert.deepEqual(
    lists(fake.calls, 'UninstallApp').map((list) => list.length),
    [249],
  )
  assert.deepEqual(wechat.get(pods[7]), { ok: false, msg: '应用不存在', refusal: 'appNotFound' })
  assert.deepEqual(wechat.get(pods[8]), { ok: true, msg: '已卸载' })
  // Douyin was installed by the user: `pm uninstall`, through RunSyncCommand in batches of 100.
  const before = fake.count('RunSyncCommand')
  const douyin = await supplier.commandMany(pods.slice(0, 120), {
    command: DeviceCommand.Uninstall,
    packageName: 'com.ss.android.ugc.aweme',
  })
  assert.deepEqual(
    lists(fake.calls, 'RunSyncCommand')
      .slice(before)
      .map((list) => list.length),
    [100, 19],
    'pods[7] has no apps left',
  )
  assert.equal(douyin.get(booting[0])?.ok, false)
  assert.equal(douyin.get(pods[9])?.ok, true)
  assert.deepEqual(fake.pods.get(pods[9])!.apps, [])

  const shots = await supplier.commandMany(pods, { command: DeviceCommand.GetVmCover })
  assert.deepEqual(
    lists(fake.calls, 'BatchScreenShot').map((list) => list.length),
    [100, 100, 50],
  )
  // Each pod's image address is its own entry in the answer; a booting pod has none and fails alone.
  for (const pod of pods) assert.equal(shots.get(pod)?.ok, !booting.includes(pod), pod)
  const kept = await database.db
    .select({ podId: acepPods.podId, screenUrl: acepPods.screenUrl })
    .from(acepPods)
    .where(inArray(acepPods.podId, [pods[0], booting[0]]))
  assert.deepEqual(Object.fromEntries(kept.map((row) => [row.podId, row.screenUrl])), {
    [pods[0]]: `${fake.endpoint}/screens/${pods[0]}.png`,
    [booting[0]]: null,
  })

  const bad = await supplier.commandMany(pods.slice(0, 2), {
    command: DeviceCommand.OpenUrl,
    url: 'file:///etc/passwd',
  })
  assert.equal(bad.get(pods[0])?.msg, '请输入以 http:// 或 https:// 开头的网址')
  assert.equal((await supplier.commandMany([], { command: DeviceCommand.Reboot })).size, 0)
})

test('timing: a 500-phone reboot, pod by pod (before) and in ACEP batches (after)', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const pods = await fake.seedRunningPods(database.db, 500)
  let started = performance.now()
  for (const pod of pods) await supplier.command(pod, { command: DeviceCommand.Reboot })
  const perPod = performance.now() - started
  const perPodCalls = fake.count('RebootPod')
  started = performance.now()
  await supplier.commandMany(pods, { command: DeviceCommand.Reboot })
  const batched = performance.now() - started
  const batchedCalls = fake.count('RebootPod') - perPodCalls
  t.diagnostic(
    `500-phone reboot on the fake ACEP: pod by pod ${perPod.toFixed(0)} ms in ${perPodCalls} calls, ` +
      `batched ${batched.toFixed(0)} ms in ${batchedCalls} calls`,
  )
  assert.equal(perPodCalls, 500)
  assert.equal(batchedCalls, 5)
})

/** `count` running phones of `userId`, each on a pod of the fake ACEP. */
async function acepPhones(ctx: TestApp, fake: FakeAcep, userId: number, count: number) {
  const ids = await givePhones(ctx, userId, count)
  const pods = await fake.seedRunningPods(ctx.database.db, count)
  // Postgres array literals: the ids are integers and ACEP's pod ids digits.
  await ctx.database.db.execute(sql`
    update devices set status = ${DeviceStatus.running}, supplier_instance_id = pods.pod
    from unnest(${`{${ids.join(',')}}`}::int[], ${`{${pods.join(',')}}`}::text[]) as pods(id, pod)
    where devices.id = pods.id`)
  return ids
}

test('/device/batchCommand on ACEP: 500 phones in 5 calls, a throttled batch retried, a refused batch fails its phones only', async (t) => {
  const { ctx, fake } = await acepApp(t)
  const me = await loginWithSms(ctx, '13100000001')
  const phones = await acepPhones(ctx, fake, me.userId, 500)
  const rows = await ctx.database.db
    .select({ id: devices.id, pod: devices.supplierInstanceId })
    .from(devices)
    .where(inArray(devices.id, phones))
  const podOf = new Map(rows.map((row) => [row.id, row.pod!]))
  const locked = podOf.get(phones[420])!
  fake.throttleNext = 1
  fake.refuse = (call) =>
    call.action === 'RebootPod' && (call.body.PodIdList as string[]).includes(locked)
      ? REFUSED
      : null

  const reply = await post<CommandResult[]>(
    ctx.app,
    '/device/batchCommand',
    { deviceIds: phones, command: 'Reboot' },
    me,
  )
  assert.equal(reply.code, 200, reply.msg)
  const sent = lists(fake.calls, 'RebootPod')
  assert.deepEqual(
    sent.map((list) => list.length),
    [100, 100, 100, 100, 100],
  )
  assert.equal(fake.throttled, 1)
  const refusedPods = new Set(sent.find((list) => list.includes(locked)))
  assert.deepEqual(
    reply.data.map((r) => r.deviceId),
    phones,
  )
  for (const result of reply.data) {
    assert.deepEqual(
      result,
      refusedPods.has(podOf.get(result.deviceId)!)
        ? { deviceId: result.deviceId, ok: false, msg: '云手机响应超时，请重试' }
        : { deviceId: result.deviceId, ok: true, msg: '正在重启' },
    )
  }
  const statuses = await ctx.database.db
    .select({ status: devices.status, n: sql<number>`count(*)::int` })
    .from(devices)
    .where(inArray(devices.id, phones))
    .groupBy(devices.status)
  assert.deepEqual(
    Object.fromEntries(statuses.map((s) => [s.status, s.n])),
    { [DeviceStatus.running]: 100, [DeviceStatus.rebooting]: 400 },
    'only the phones ACEP rebooted are 重启中',
  )
})

test('property: any selection gets one result per asked phone, and no pod twice in a call or a batch', async (t) => {
  const { ctx, fake } = await acepApp(t)
  const me = await loginWithSms(ctx, '13100000002')
  const owner = await loginWithSms(ctx, '13100000003')
  const mine = await acepPhones(ctx, fake, me.userId, 12)
  const theirs = await acepPhones(ctx, fake, owner.userId, 6)
  const expired = mine[11]
  await ctx.database.db
    .update(devices)
    .set({ status: DeviceStatus.expired })
    .where(eq(devices.id, expired))
  const [control1, control2, view1, view2] = theirs
  const now = ctx.clock.now()
  await ctx.database.db.insert(deviceGrants).values(
    [
      [control1, 2],
      [control2, 2],
      [view1, 1],
      [view2, 1],
    ].map(([deviceId, permission]) => ({
      ownerId: owner.userId,
      granteeId: me.userId,
      deviceId,
      permission,
      expiresAt: new Date(now.getTime() + 30 * 86_400_000),
      createdAt: now,
    })),
  )
  const podRows = await ctx.database.db
    .select({ id: devices.id, pod: devices.supplierInstanceId })
    .from(devices)
    .where(inArray(devices.id, [...mine, ...theirs]))
  const podOf = new Map(podRows.map((row) => [row.id, row.pod!]))
  const controllable = new Set([...mine, control1, control2])
  const pool = [...mine, ...theirs, 99_990, 99_991]

  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 40 }),
      fc.constantFrom('CleanVm', 'CleanMem', 'GetVmCover', 'Reboot', 'DeepCleanVm'),
      async (deviceIds, command) => {
        const from = fake.calls.length
        const reply = await post<CommandResult[]>(
          ctx.app,
          '/device/batchCommand',
          { deviceIds, command },
          me,
        )
        assert.equal(reply.code, 200, reply.msg)
        const asked = [...new Set(deviceIds)]
        assert.deepEqual(
          reply.data.map((r) => r.deviceId),
          asked,
          'exactly one result per asked phone, in order',
        )
        const calls = fake.calls.slice(from).filter((c) => Array.isArray(c.body.PodIdList))
        const named = calls.flatMap((c) => c.body.PodIdList as string[])
        assert.equal(new Set(named).size, named.length, 'no pod twice in the batch')
        for (const result of reply.data) {
          const pod = podOf.get(result.deviceId)
          if (!controllable.has(result.deviceId)) {
            assert.deepEqual(result, { deviceId: result.deviceId, ok: false, msg: '云手机不存在' })
          }
          if (result.deviceId === expired) assert.equal(result.ok, false)
          if (!pod || !controllable.has(result.deviceId) || result.deviceId === expired) {
            assert.ok(!pod || !named.includes(pod), 'a refused phone never reaches ACEP')
          }
        }
        // Rebooted phones come back before the next run (ACEP's boot and our sync job).
        await fake.advance(fake.delayMs)
        ctx.clock.advance(5_000)
        await ctx.app.jobs.runDue(10_000)
      },
    ),
    { numRuns: 25 },
  )
})
