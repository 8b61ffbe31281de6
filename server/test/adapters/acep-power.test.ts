/**
 * Stopping and starting ACEP pods against the fake ACEP: suspend powers pods off in ACEP's
 * batches of 200 (PowerOffPod), each pod's own answer counting; a pod whose rental ended stays off
 * when its state is read (a rented one found off is still powered on); resume powers it on; a stopped
 * pod is released like any other. Then the whole server: the expiry job stops the pod, a renewal
 * starts it again.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq, inArray } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import { acepPods, jobs } from '../../src/db/schema'
import { SUSPEND_RECHECK_MS } from '../../src/jobs/expire-devices'
import { acepApp, acepSupplierSetup } from '../helpers/acep-app'
import type { FakeAcep } from '../helpers/fake-acep'
import { DAY_MS, deviceRow, givePhones } from '../helpers/fleet'
import { loginWithSms } from '../helpers/test-app'

const podSizes = (fake: FakeAcep, action: string) =>
  fake.calls
    .filter((call) => call.action === action)
    .map((call) => (call.body.PodIdList as string[]).length)

test('suspend: PowerOffPod 200 pods a call, each pod on its own; an expired pod stays off, resume and release work', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const pods = await fake.seedRunningPods(database.db, 450)
  // The rentals ended (acep_pods keeps our expiry).
  await database.db
    .update(acepPods)
    .set({ expireAt: new Date(Date.now() - 1000) })
    .where(inArray(acepPods.podId, pods))
  // One pod ACEP no longer has (deleted in its console): it fails alone, in its batch's answer.
  fake.pods.delete(pods[7])

  const outcomes = await supplier.suspend([...pods, pods[0], 'not-ours'])
  assert.deepEqual(podSizes(fake, 'PowerOffPod'), [200, 200, 50], 'ACEP batch limits, no repeats')
  assert.equal(outcomes.size, 451)
  assert.equal(outcomes.get('not-ours')?.ok, false)
  assert.equal(outcomes.get(pods[7])?.ok, false)
  assert.equal([...outcomes.values()].filter((o) => o.ok).length, 449)
  assert.ok(pods.filter((_, i) => i !== 7).every((id) => fake.pods.get(id)!.off))

  // Read while its rental has ended: suspended, and not powered on again.
  assert.equal((await supplier.state(pods[0]))?.status, 'suspended')
  assert.equal(fake.count('PowerOnPod'), 0)
  // A stopped pod runs no command.
  const cleaned = await supplier.command(pods[0], { command: DeviceCommand.CleanVm })
  assert.equal(cleaned.ok, false)

  // A batch ACEP refused fails only its own pods; asking again is harmless.
  fake.refuse = (call) =>
    call.action === 'PowerOffPod' && (call.body.PodIdList as string[]).includes(pods[300])
      ? { Code: 'InternalError', Message: 'try later' }
      : null
  const again = await supplier.suspend(pods.slice(0, 400))
  fake.refuse = null
  assert.equal(
    pods.slice(0, 200).every((id, i) => i === 7 || again.get(id)?.ok),
    true,
  )
  assert.ok(pods.slice(200, 400).every((id) => again.get(id)?.ok === false))

  // Renewed: resume powers it on; it boots and runs.
  await supplier.renew(pods[1], new Date(Date.now() + 30 * DAY_MS))
  await supplier.resume(pods[1])
  assert.deepEqual(podSizes(fake, 'PowerOnPod'), [1])
  assert.equal((await supplier.state(pods[1]))?.status, 'rebooting')
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pods[1]))?.status, 'running')
  await assert.rejects(supplier.resume(pods[7]), /record not found/)

  // A rented pod found off is still powered on (our phones run while rented).
  fake.pods.get(pods[1])!.off = true
  assert.equal((await supplier.state(pods[1]))?.status, 'rebooting')
  assert.deepEqual(podSizes(fake, 'PowerOnPod'), [1, 1, 1], 'pods[1], pods[7] refused, pods[1]')

  // Release of a stopped pod: DeletePod as always; suspending a released pod asks ACEP nothing.
  await supplier.release(pods[2])
  assert.equal(fake.pods.has(pods[2]), false)
  assert.equal((await supplier.state(pods[2]))?.status, 'released')
  const offCalls = fake.count('PowerOffPod')
  assert.deepEqual([...(await supplier.suspend([pods[2]])).values()], [{ ok: true }])
  assert.equal(fake.count('PowerOffPod'), offCalls)
})

test('the server on ACEP: the expiry job powers the pod off, the stop recheck leaves it off, a renewal powers it on', async (t) => {
  const { ctx, app, fake, database } = await acepApp(t)
  await app.jobs.ensureRecurring()
  const me = await loginWithSms(ctx, '13100000091')
  const [phone] = await givePhones(ctx, me.userId, 1, { days: 1 })
  await app.jobs.runDue(10_000)
  await fake.advance(fake.delayMs)
  ctx.clock.advance(5_000)
  await app.jobs.runDue(10_000)
  const row = await deviceRow(ctx, phone)
  assert.equal(row.status, 1)
  const pod = row.supplierInstanceId!

  const runExpiryAt = async (at: number) => {
    ctx.clock.advance(at - ctx.clock.now().getTime())
    await database.db
      .update(jobs)
      .set({ runAt: ctx.clock.now() })
      .where(eq(jobs.kind, 'expire-devices'))
    await app.jobs.runDue(10_000)
  }
  await runExpiryAt(row.expireAt.getTime())
  assert.equal((await deviceRow(ctx, phone)).status, 2)
  assert.equal(fake.pods.get(pod)!.off, true, 'PowerOffPod at expiry')
  // The stop's sync job reads the pod (DetailPod: off) and, its rental over, leaves it off.
  const detailsBefore = fake.count('DetailPod')
  await runExpiryAt(ctx.clock.now().getTime() + SUSPEND_RECHECK_MS)
  assert.ok(fake.count('DetailPod') > detailsBefore, 'the recheck asked ACEP')
  assert.equal(fake.count('PowerOnPod'), 0)
  assert.equal(fake.pods.get(pod)!.off, true)

  // Renewed: its sync job records the expiry and powers the pod on; it runs again.
  await database.db.transaction((tx) =>
    app.services.lifecycle.extendDevices(tx, [
      { deviceId: phone, newExpireAt: ctx.clock.now().getTime() + 30 * DAY_MS },
    ]),
  )
  await app.jobs.runDue(10_000)
  assert.equal(fake.count('PowerOnPod'), 1)
  assert.equal(fake.pods.get(pod)!.off, false)
  await fake.advance(fake.delayMs)
  assert.equal((await app.services.ctx.supplier.state(pod))?.status, 'running')
  assert.equal((await deviceRow(ctx, phone)).status, 1)
})
