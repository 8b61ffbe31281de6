/**
 * A factory reset (重置) at the supplier: ACEP's ResetPod against the fake ACEP (signed as the
 * official SDK signs, an asynchronous task that can fail or outlast the pod's reboot), and the sandbox
 * supplier's reset (asynchronous like its reboot, refused by its failure rate). Both are followed with
 * `state`: 'rebooting' while the reset runs, 'running' after.
 */
import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { eq } from 'drizzle-orm'
import { DeviceCommand } from '#domain/enums'
import type { AcepSupplier } from '../../src/adapters/supplier/acep/acep-supplier'
import { SandboxSupplier } from '../../src/adapters/supplier/sandbox/sandbox-supplier'
import { DEFAULT_APPS } from '../../src/adapters/supplier/sandbox/catalogue'
import { acepTasks, sandboxInstances } from '../../src/db/schema'
import { acepSupplierSetup } from '../helpers/acep-app'
import type { FakeAcep } from '../helpers/fake-acep'
import { buildTestApp } from '../helpers/test-app'

const request = (requestId: string, name = '云手机-1') => ({
  requestId,
  name,
  goodId: 301,
  zoneId: 1,
  expireAt: new Date('2027-04-01T00:00:00.000Z'),
})

async function runningPod(fake: FakeAcep, supplier: AcepSupplier, requestId = 'r1') {
  const { instanceId } = await supplier.create(request(requestId))
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(instanceId))?.status, 'running')
  return instanceId
}

async function setup(t: TestContext) {
  return acepSupplierSetup(t)
}

test('ACEP reset: one signed ResetPod (2025-05-01) keeping the properties; rebooting until its task ends, apps gone', async (t) => {
  const { fake, database, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)
  assert.ok(fake.pods.get(pod)!.apps.length > 0)

  await supplier.reset(pod)
  const calls = fake.calls.filter((call) => call.action === 'ResetPod')
  assert.equal(calls.length, 1)
  assert.deepEqual(calls[0].body, {
    ProductId: fake.keys.productId,
    PodIdList: [pod],
    ResetType: 1,
  })
  const [task] = await database.db.select().from(acepTasks).where(eq(acepTasks.podId, pod))
  assert.deepEqual({ kind: task.kind, status: task.status }, { kind: 'reset', status: 'running' })
  assert.equal((await supplier.state(pod))?.status, 'rebooting')
  // A pod being reset runs no command.
  assert.equal((await supplier.command(pod, { command: DeviceCommand.CleanVm })).ok, false)

  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running')
  assert.deepEqual(fake.pods.get(pod)!.apps, [], 'the user’s apps are gone')
  const [done] = await database.db.select().from(acepTasks).where(eq(acepTasks.podId, pod))
  assert.equal(done.status, 'done')
})

test('ACEP reset: the task, not the pod’s Online, says when it ended; a failed one leaves the pod running', async (t) => {
  const { fake, database, supplier } = await setup(t)
  const pod = await runningPod(fake, supplier)

  // The pod is back up (Online 1) while ACEP still reports the reset task running.
  fake.neverFinishNextTask = true
  await supplier.reset(pod)
  await fake.advance(fake.delayMs)
  assert.equal(fake.pods.get(pod)!.bootUntil <= fake.now(), true)
  assert.equal((await supplier.state(pod))?.status, 'rebooting')
  // Only the task's end (here: GetTaskInfo once the fake lets it finish) lets the pod count as running.
  for (const task of fake.tasks.values()) task.never = false
  assert.equal((await supplier.state(pod))?.status, 'running')
  await fake.advance(0)

  const apps = fake.pods.get(pod)!.apps.length
  fake.pods.get(pod)!.apps.push({ PackageName: 'com.example.mine' })
  fake.failNextTask = true
  await supplier.reset(pod)
  await fake.advance(fake.delayMs)
  assert.equal((await supplier.state(pod))?.status, 'running', 'a failed reset: the pod runs on')
  assert.equal(fake.pods.get(pod)!.apps.length, apps + 1, 'with its apps')
  const statuses = (await database.db.select().from(acepTasks).where(eq(acepTasks.podId, pod))).map(
    (row) => row.status,
  )
  assert.deepEqual(statuses.sort(), ['done', 'failed'])
})

test('ACEP reset refused: a booting pod (ACEP says no), a pod not ours, a released pod; nothing recorded', async (t) => {
  const { fake, database, supplier } = await setup(t)
  const { instanceId: booting } = await supplier.create(request('r-boot'))
  await assert.rejects(supplier.reset(booting), /OperationDenied/)
  assert.equal(fake.count('ResetPod'), 1)

  await assert.rejects(supplier.reset('7399999999999999999'), /no pod/)
  const pod = await runningPod(fake, supplier, 'r-2')
  await supplier.release(pod)
  await assert.rejects(supplier.reset(pod), /released/)
  assert.equal(fake.count('ResetPod'), 1, 'neither asked ACEP')

  // ACEP refusing the call (an error answer) surfaces as a throw too.
  const live = await runningPod(fake, supplier, 'r-3')
  fake.refuse = (call) =>
    call.action === 'ResetPod' ? { Code: 'InternalError', Message: 'try later' } : null
  await assert.rejects(supplier.reset(live), /InternalError/)
  fake.refuse = null
  assert.equal((await supplier.state(live))?.status, 'running')
  assert.equal((await database.db.select().from(acepTasks)).length, 0)
})

test('sandbox reset: rebooting for two delays, back running with the apps it was made with', async (t) => {
  const { database, clock } = await buildTestApp(t)
  const supplier = new SandboxSupplier(database.db, clock, { delayMs: 3000, failureRate: 0 })
  const { instanceId } = await supplier.create(request('s1'))
  // Not running yet: refused.
  await assert.rejects(supplier.reset(instanceId), /is create, not reset/)
  clock.advance(3000)
  assert.equal((await supplier.state(instanceId))?.status, 'running')
  await supplier.command(instanceId, {
    command: DeviceCommand.Uninstall,
    packageName: DEFAULT_APPS[0],
  })
  await database.db
    .update(sandboxInstances)
    .set({ apps: ['com.example.mine'] })
    .where(eq(sandboxInstances.id, instanceId))

  await supplier.reset(instanceId)
  let state = await supplier.state(instanceId)
  assert.equal(state?.status, 'rebooting')
  assert.equal(state?.readyAt?.getTime(), clock.now().getTime() + 6000)
  await assert.rejects(supplier.reset(instanceId), /reset/, 'one reset at a time')
  assert.equal((await supplier.command(instanceId, { command: DeviceCommand.CleanVm })).ok, false)
  clock.advance(6000)
  state = await supplier.state(instanceId)
  assert.equal(state?.status, 'running')
  const [row] = await database.db
    .select()
    .from(sandboxInstances)
    .where(eq(sandboxInstances.id, instanceId))
  assert.deepEqual(row.apps, [...DEFAULT_APPS])
})

test('sandbox reset fails by its failure rate, and for an unknown instance', async (t) => {
  const { database, clock } = await buildTestApp(t)
  let roll = 0.9
  const supplier = new SandboxSupplier(database.db, clock, {
    delayMs: 1000,
    failureRate: 0.5,
    random: () => roll,
  })
  const { instanceId } = await supplier.create(request('s2'))
  clock.advance(1000)
  assert.equal((await supplier.state(instanceId))?.status, 'running')
  roll = 0.1
  await assert.rejects(supplier.reset(instanceId), /not reset/)
  assert.equal((await supplier.state(instanceId))?.status, 'running', 'nothing started')
  await assert.rejects(supplier.reset('sbx_nope'), /no instance/)
})
