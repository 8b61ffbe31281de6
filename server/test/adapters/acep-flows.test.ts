/**
 * The long tasks end to end on the ACEP supplier: the whole server, its jobs and routes, against the
 * fake ACEP that answers as ACEP's model says (GetTaskInfo's 10/100/−1, BackupData's Details, MigratePod
 * without a task id, ListBackupData by POST). A cloud backup and its restore, a zone change, a
 * replacement that keeps the data and an operator's factory reset each complete, by polling alone
 * (no callback address is set), and every request the server sent is the model's.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DeviceStatus } from '#domain/device-lifecycle'
import { requestRefusal } from '../../src/adapters/supplier/acep/model/acep-model'
import type { AdminDeviceRow } from '../../src/console/contract/devices'
import type { SpaceTask } from '../../src/contract/space'
import { acepApp, runningAcepPhones } from '../helpers/acep-app'
import { adminCall, createOperator, signIn } from '../console/helpers'
import type { FakeAcep } from '../helpers/fake-acep'
import { deviceRow } from '../helpers/fleet'
import { get, loginWithSms, post, type TestApp } from '../helpers/test-app'

/** Lets ACEP finish what it runs and the jobs poll it, a few rounds. */
async function settleOnAcep(ctx: TestApp, fake: FakeAcep, rounds = 4) {
  for (let i = 0; i < rounds; i++) {
    await ctx.app.jobs.runDue(10_000)
    await fake.advance(fake.delayMs)
    ctx.clock.advance(5_000)
  }
  await ctx.app.jobs.runDue(10_000)
}

test('backup, restore, zone change, keep-data replace and factory reset complete on ACEP by polling', async (t) => {
  const { ctx, app, fake } = await acepApp(t)
  const me = await loginWithSms(ctx, '13100000001')
  const {
    phones: [phone],
    pods: [pod],
  } = await runningAcepPhones(ctx, fake, me.userId, 1)

  // A cloud backup, then its restore onto the same phone.
  const backup = await post<SpaceTask>(app, '/space/backup', { deviceId: phone }, me)
  assert.equal(backup.code, 200, backup.msg)
  await settleOnAcep(ctx, fake)
  const backedUp = await get<SpaceTask>(app, '/space/task', me, { id: String(backup.data.id) })
  assert.deepEqual([backedUp.data.status, backedUp.data.sizeBytes], ['done', 512 * 1024 * 1024])
  const restore = await post<SpaceTask>(
    app,
    '/space/restore',
    { backupId: backup.data.id, deviceId: phone },
    me,
  )
  assert.equal(restore.code, 200, restore.msg)
  await settleOnAcep(ctx, fake)
  const restored = await get<SpaceTask>(app, '/space/task', me, { id: String(restore.data.id) })
  assert.equal(restored.data.status, 'done')

  // A zone change: MigratePod, then the pod's DetailPod names the new data centre.
  const moved = await post(app, '/device/changeZone', { deviceId: phone, zoneId: 2 }, me)
  assert.equal(moved.code, 200, moved.msg)
  await settleOnAcep(ctx, fake)
  const afterMove = await deviceRow(ctx, phone)
  assert.deepEqual([afterMove.zoneId, afterMove.busyOp], [2, null])
  assert.equal(fake.pods.get(pod)?.dc, 'dc-2')

  // A replacement that keeps the data: a new pod, the old one's data backed up and restored onto it.
  const replaced = await post(app, '/device/replace', { deviceId: phone }, me)
  assert.equal(replaced.code, 200, replaced.msg)
  await settleOnAcep(ctx, fake, 6)
  const afterReplace = await deviceRow(ctx, phone)
  assert.equal(afterReplace.status, DeviceStatus.running)
  assert.equal(afterReplace.busyOp, null)
  assert.notEqual(afterReplace.supplierInstanceId, pod, 'a new pod')
  assert.ok(fake.count('RestoreData') >= 2, 'the copy was restored onto it')

  // An operator's factory reset: ResetPod, rebooting until GetTaskInfo says 100.
  const operator = await signIn(ctx, await createOperator(ctx, 'ops', 'operations'))
  const reset = await adminCall<AdminDeviceRow>(ctx, 'POST', `/devices/${phone}/reset`, {
    as: operator,
    body: { reason: '用户来电要求恢复出厂设置' },
  })
  assert.equal(reset.code, 200, reset.msg)
  assert.equal((await deviceRow(ctx, phone)).status, DeviceStatus.rebooting)
  await settleOnAcep(ctx, fake)
  assert.equal((await deviceRow(ctx, phone)).status, DeviceStatus.running)
  assert.deepEqual(fake.pods.get(afterReplace.supplierInstanceId!)?.apps, [])

  for (const sent of fake.requests.filter((r) => r.action !== 'AssumeRole')) {
    assert.equal(requestRefusal(sent), null, `${sent.action}: ${JSON.stringify(sent)}`)
  }
})
