/**
 * The console's 云手机 and 任务 routes: each role on each route, the phone search (and that its
 * lookups read an index), one phone's history, creating a failed phone again until it runs on the sandbox
 * supplier, releasing a phone (refused while it has an open renewal or up/downgrade), failed and stuck
 * jobs put back in the queue; every action's audit row, its refusals, and two operators acting at once.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq, like, sql } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type {
  AdminDeviceDetail,
  AdminDevicePage,
  AdminDeviceRow,
  AdminJobPage,
  AdminJobRow,
} from '../../src/console/contract/devices'
import type { PagedData } from '../../src/contract/common'
import type { Quote } from '../../src/contract/goods'
import type { Device } from '../../src/contract/device'
import type { OrderInfo } from '../../src/contract/order'
import { devices, jobs } from '../../src/db/schema'
import { enqueueJob } from '../../src/job-queue'
import { deviceSearchWhere, jobsOfDevice, STUCK_AFTER_MS } from '../../src/console/services/devices'
import { PROVISION_JOB } from '../../src/services/devices/device-lifecycle'
import { DELIVER_OPERATOR_MESSAGE_JOB } from '../../src/console/services/messages'
import { adminCall, createOperator, signIn } from './helpers'
import { newKey, priceOf } from '../helpers/commerce'
import {
  DAY_MS,
  deviceRow,
  deviceRows,
  givePhones,
  instanceRow,
  runningPhones,
  settle,
  stockOf,
  FLAGSHIP_GOOD,
} from '../helpers/fleet'
import { buildTestApp, get, loginWithSms, post, type TestApp } from '../helpers/test-app'

type Method = 'GET' | 'POST'
const EVERYONE: OperatorRole[] = [...OPERATOR_ROLES]
const RETRY: OperatorRole[] = ['admin', 'operations', 'support']
const RELEASE: OperatorRole[] = ['admin', 'operations']

async function operatorAs(ta: TestApp, role: OperatorRole, name = `as-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

/** A phone whose create failed at the sandbox supplier (a name with #fail), renamed back afterwards. */
async function failedPhone(ta: TestApp, userId: number): Promise<number> {
  const [id] = await givePhones(ta, userId, 1)
  await ta.database.db.update(devices).set({ name: '测试#fail' }).where(eq(devices.id, id))
  await settle(ta)
  const row = await deviceRow(ta, id)
  assert.equal(row.status, DeviceStatus.failed, 'the first create failed')
  await ta.database.db.update(devices).set({ name: '测试机' }).where(eq(devices.id, id))
  return id
}

/** A job whose handler throws every time, run by the scheduler until its attempts are used up. */
async function failedJob(ta: TestApp): Promise<number> {
  const now = ta.clock.now()
  await enqueueJob(ta.database.db, now, 'fulfil-order', { orderId: 'lost' })
  const [job] = await ta.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.kind, 'fulfil-order'))
    .orderBy(sql`${jobs.id} desc`)
    .limit(1)
  for (let i = 0; i < 12; i++) {
    await ta.app.jobs.runDue()
    ta.clock.advance(10 * 60_000)
  }
  const [after] = await ta.database.db.select().from(jobs).where(eq(jobs.id, job.id))
  assert.equal(after.status, 'failed', 'the scheduler gave up on it')
  return job.id
}

/** The audit rows of one target, oldest first (read as the audit log is, by an admin). */
const auditOf = async (ta: TestApp, targetType: string, targetId: number) =>
  (
    await ta.app.console.audit.page({ targetType, targetId: String(targetId), rows: 100 })
  ).records.reverse()

test('each role on each 云手机 and 任务 route: admitted where the table says, refused with 4003 elsewhere', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000001')
  const [running] = await runningPhones(ta, user.userId, 1)
  const [released] = await runningPhones(ta, user.userId, 1)
  const admin = await operatorAs(ta, 'admin', 'setup')
  const setup = await adminCall(ta, 'POST', `/devices/${released}/release`, {
    as: admin,
    body: { reason: '测试' },
  })
  assert.equal(setup.code, 200, setup.msg)
  const [doneJob] = await ta.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, PROVISION_JOB), eq(jobs.status, 'done')))
    .limit(1)
  // Admitted calls that would change something are refused by the rule instead (no side effects here).
  const ROUTES: { method: Method; url: string; allowed: OperatorRole[]; admitted: number }[] = [
    { method: 'GET', url: '/devices', allowed: EVERYONE, admitted: 200 },
    { method: 'GET', url: `/devices/${running}`, allowed: EVERYONE, admitted: 200 },
    {
      method: 'POST',
      url: `/devices/${running}/retry-provision`,
      allowed: RETRY,
      admitted: OperatorCode.DEVICE_NOT_FAILED,
    },
    {
      method: 'POST',
      url: `/devices/${released}/release`,
      allowed: RELEASE,
      admitted: OperatorCode.DEVICE_RELEASED,
    },
    { method: 'GET', url: '/jobs', allowed: EVERYONE, admitted: 200 },
    {
      method: 'POST',
      url: `/jobs/${doneJob.id}/retry`,
      allowed: RETRY,
      admitted: OperatorCode.JOB_NOT_RETRYABLE,
    },
  ]
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operatorAs(ta, role)
    for (const route of ROUTES) {
      const reply = await adminCall(ta, route.method, route.url, {
        as,
        body: route.url.endsWith('/release') ? { reason: '核实' } : undefined,
      })
      const expected = route.allowed.includes(role) ? route.admitted : OperatorCode.FORBIDDEN
      if (reply.code !== expected) {
        problems.push(`${role} ${route.method} ${route.url} → ${reply.code} (${expected})`)
      }
    }
  }
  assert.deepEqual(problems, [])
  assert.equal((await deviceRow(ta, running)).status, DeviceStatus.running)
  const audit = await auditOf(ta, 'device', released)
  assert.equal(audit.length, 1, 'only the setup release is recorded')
})

test('phone search: by number, user id, phone id, instance and status, newest first, paged', async (t) => {
  const ta = await buildTestApp(t)
  const a = await loginWithSms(ta, '13811112222')
  const b = await loginWithSms(ta, '13833334444')
  const mine = await runningPhones(ta, a.userId, 2)
  const [theirs] = await runningPhones(ta, b.userId, 1)
  const failed = await failedPhone(ta, b.userId)
  const as = await operatorAs(ta, 'support')
  const search = async (query: Record<string, string>) => {
    const reply = await adminCall<AdminDevicePage>(ta, 'GET', '/devices', { as, query })
    assert.equal(reply.code, 200, reply.msg)
    return reply.data
  }
  const ids = (page: AdminDevicePage) => page.records.map((row) => row.id)
  assert.deepEqual(ids(await search({ user: '13811112222' })), [...mine].reverse())
  assert.deepEqual(ids(await search({ user: ` ${b.userId} ` })), [failed, theirs])
  assert.deepEqual(ids(await search({ deviceId: String(theirs) })), [theirs])
  const instance = (await deviceRow(ta, theirs)).supplierInstanceId!
  const byInstance = await search({ instanceId: instance })
  assert.deepEqual(ids(byInstance), [theirs])
  const row = byInstance.records[0]
  assert.equal(row.mobile, '13833334444')
  assert.equal(row.zoneName, '华东-上海')
  assert.equal(row.supplierInstanceId, instance)
  assert.deepEqual(ids(await search({ status: String(DeviceStatus.failed) })), [failed])
  assert.equal((await search({ status: '5' })).records[0].failReason !== null, true)
  assert.deepEqual(
    ids(await search({ user: '13899999999' })),
    [],
    'an unknown number finds nothing',
  )
  assert.deepEqual(ids(await search({ user: '99999999999' })), [], 'past any user id')
  const second = await search({ rows: '2', page: '2' })
  assert.equal(second.total, 4)
  assert.deepEqual(ids(second), [mine[1], mine[0]])
  const bad = await adminCall(ta, 'GET', '/devices', { as, query: { user: '138abc' } })
  assert.notEqual(bad.code, 200, 'a user filter is digits only')
})

test('the phone lookups and a phone’s jobs read an index, never every row', async (t) => {
  const ta = await buildTestApp(t)
  const db = ta.database.db
  const explain = async (query: { sql: string; params: unknown[] }) =>
    db.transaction(async (tx) => {
      // on a nearly empty table a scan is cheapest; forbid it to see whether an index can answer
      await tx.execute(sql`set local enable_seqscan = off`)
      const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
        const value = query.params[Number(n) - 1]
        return typeof value === 'number' ? String(value) : `'${String(value)}'`
      })
      const result = (await tx.execute(sql.raw(`explain ${text}`))) as unknown as {
        rows: Record<string, unknown>[]
      }
      return result.rows.map((row) => Object.values(row)[0]).join('\n')
    })
  const cases: [Parameters<typeof deviceSearchWhere>[0], RegExp][] = [
    [{ user: '13811112222' }, /users_mobile_phone_key/],
    [{ user: '42' }, /devices_user_(status|group)_idx/],
    [{ deviceId: 7 }, /devices_pkey/],
    [{ instanceId: 'sbx_0123' }, /devices_supplier_instance_idx/],
    [{ status: 5 }, /devices_status_expire_idx/],
  ]
  for (const [query, index] of cases) {
    const where = deviceSearchWhere(query)!
    const plan = await explain(db.select({ id: devices.id }).from(devices).where(where).toSQL())
    assert.doesNotMatch(plan, /Seq Scan on devices/, `${JSON.stringify(query)}:\n${plan}`)
    assert.match(plan, index, plan)
  }
  const plan = await explain(db.select({ id: jobs.id }).from(jobs).where(jobsOfDevice(7)).toSQL())
  assert.match(plan, /jobs_device_idx/, plan)
})

test('重新创建: a failed phone is created again until it runs on the sandbox supplier; audited; refused for any other status', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000002')
  const id = await failedPhone(ta, user.userId)
  const { supplierInstanceId: failedInstance, failReason } = await deviceRow(ta, id)
  assert.ok(failReason)
  const as = await operatorAs(ta, 'support')

  const reply = await adminCall<AdminDeviceRow>(ta, 'POST', `/devices/${id}/retry-provision`, {
    as,
  })
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.status, DeviceStatus.creating)
  assert.equal(reply.data.failReason, null)
  const again = await adminCall(ta, 'POST', `/devices/${id}/retry-provision`, { as })
  assert.equal(again.code, OperatorCode.DEVICE_NOT_FAILED)
  assert.equal(again.msg, '只有创建失败的云手机可以重新创建')

  await settle(ta)
  const after = await deviceRow(ta, id)
  assert.equal(after.status, DeviceStatus.running, '运行中 on the sandbox supplier')
  assert.notEqual(after.supplierInstanceId, failedInstance)
  assert.equal((await instanceRow(ta, failedInstance!)).status, 'released')
  const seen = await get<Device>(ta.app, '/device/detail', user, { deviceId: String(id) })
  assert.equal(seen.data.statusName, '运行中', 'the user sees it running')

  const audit = await auditOf(ta, 'device', id)
  assert.deepEqual(
    audit.map((row) => [row.action, row.operatorName, row.before, row.after]),
    [
      [
        'device.retryProvision',
        'as-support',
        { status: 5, failReason, opSeq: 0 },
        { status: 0, opSeq: 1 },
      ],
    ],
  )

  const detail = await adminCall<AdminDeviceDetail>(ta, 'GET', `/devices/${id}`, { as })
  assert.equal(detail.code, 200, detail.msg)
  assert.equal(detail.data.device.status, DeviceStatus.running)
  assert.equal(detail.data.owner.mobile, '13800000002')
  assert.deepEqual(
    detail.data.jobs.map((job) => [job.kind, job.status, job.target]),
    [
      [PROVISION_JOB, 'done', `云手机 ${id}`],
      [PROVISION_JOB, 'done', `云手机 ${id}`],
    ],
    'the first create and the retry',
  )
  assert.deepEqual(
    detail.data.actions.map((action) => [action.action, action.operatorName]),
    [['device.retryProvision', 'as-support']],
  )
  const missing = await adminCall(ta, 'GET', '/devices/999999', { as })
  assert.equal(missing.code, OperatorCode.DEVICE_NOT_FOUND)
  const missingRetry = await adminCall(ta, 'POST', '/devices/999999/retry-provision', { as })
  assert.equal(missingRetry.code, OperatorCode.DEVICE_NOT_FOUND)
})

test('two operators retry one failed phone at once: one provisioning, one audit row, the other is refused', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000003')
  const id = await failedPhone(ta, user.userId)
  const one = await operatorAs(ta, 'admin')
  const two = await operatorAs(ta, 'operations')
  const replies = await Promise.all(
    [one, two].map((as) => adminCall(ta, 'POST', `/devices/${id}/retry-provision`, { as })),
  )
  assert.deepEqual(replies.map((reply) => reply.code).sort(), [200, OperatorCode.DEVICE_NOT_FAILED])
  const provisions = await ta.database.db
    .select()
    .from(jobs)
    .where(like(jobs.uniqueKey, `${PROVISION_JOB}:${id}:%`))
  assert.deepEqual(provisions.map((job) => job.uniqueKey).sort(), [
    `${PROVISION_JOB}:${id}:0`,
    `${PROVISION_JOB}:${id}:1`,
  ])
  assert.equal((await auditOf(ta, 'device', id)).length, 1)
  await settle(ta)
  assert.equal((await deviceRow(ta, id)).status, DeviceStatus.running)
})

test('释放: the phone leaves the user’s lifecycle, its stock and supplier instance go back; audited; a second release is refused', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000004')
  const [id, kept] = await runningPhones(ta, user.userId, 2)
  const { supplierInstanceId } = await deviceRow(ta, id)
  const stock = await stockOf(ta, FLAGSHIP_GOOD, 1)
  const as = await operatorAs(ta, 'operations')

  const noReason = await adminCall(ta, 'POST', `/devices/${id}/release`, {
    as,
    body: { reason: '   ' },
  })
  assert.notEqual(noReason.code, 200, 'a reason is required')
  const reply = await adminCall<AdminDeviceRow>(ta, 'POST', `/devices/${id}/release`, {
    as,
    body: { reason: '用户申请注销' },
  })
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.status, DeviceStatus.released)
  assert.ok(reply.data.releasedAt)

  const row = await deviceRow(ta, id)
  assert.equal(row.supplierReleased, true)
  assert.equal((await instanceRow(ta, supplierInstanceId!)).status, 'released')
  assert.equal(await stockOf(ta, FLAGSHIP_GOOD, 1), stock + 1, 'its stock unit is back')
  const lifecycle = await get<PagedData<Device>>(ta.app, '/device/list', user, {
    page: '1',
    rows: '50',
  })
  assert.deepEqual(
    lifecycle.data.records.map((device) => device.deviceId),
    [kept],
    'the user no longer sees it',
  )
  const detail = await get<Device>(ta.app, '/device/detail', user, { deviceId: String(id) })
  assert.notEqual(detail.code, 200)

  const again = await adminCall(ta, 'POST', `/devices/${id}/release`, {
    as,
    body: { reason: '再次' },
  })
  assert.equal(again.code, OperatorCode.DEVICE_RELEASED)
  assert.equal(again.msg, '该云手机已释放')
  const audit = await auditOf(ta, 'device', id)
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.before, entry.after]),
    [
      [
        'device.release',
        { status: DeviceStatus.running, expireAt: row.expireAt.getTime() },
        { status: DeviceStatus.released, reason: '用户申请注销' },
      ],
    ],
  )
})

test('two operators release one phone at once: one release, its stock back once', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000005')
  const [id] = await runningPhones(ta, user.userId, 1)
  const stock = await stockOf(ta, FLAGSHIP_GOOD, 1)
  const one = await operatorAs(ta, 'admin')
  const two = await operatorAs(ta, 'operations')
  const replies = await Promise.all(
    [one, two].map((as) =>
      adminCall(ta, 'POST', `/devices/${id}/release`, { as, body: { reason: '违规' } }),
    ),
  )
  assert.deepEqual(replies.map((reply) => reply.code).sort(), [200, OperatorCode.DEVICE_RELEASED])
  assert.equal(await stockOf(ta, FLAGSHIP_GOOD, 1), stock + 1)
  assert.equal((await auditOf(ta, 'device', id)).length, 1)
})

test('a phone released while its supplier creates it stays released, and the instance made for it goes back', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000008')
  const [id] = await givePhones(ta, user.userId, 1)
  const as = await operatorAs(ta, 'admin')
  const supplier = ta.app.services.ctx.supplier
  const create = supplier.create.bind(supplier)
  let released: Promise<{ code: number }> | null = null
  let createdInstance: string | null = null
  supplier.create = async (request) => {
    const made = await create(request)
    createdInstance = made.instanceId
    // the operator releases the phone while the supplier's answer is on its way back
    released = adminCall(ta, 'POST', `/devices/${id}/release`, { as, body: { reason: '违规' } })
    await released
    return made
  }
  t.after(() => (supplier.create = create))
  await settle(ta)
  assert.equal((await released!)?.code, 200)
  supplier.create = create
  await settle(ta)
  const row = await deviceRow(ta, id)
  assert.equal(row.status, DeviceStatus.released, 'not brought back to 运行中')
  assert.equal(row.supplierInstanceId, null)
  assert.equal(row.pendingInstanceId, null)
  assert.ok(createdInstance)
  assert.equal(
    (await instanceRow(ta, createdInstance)).status,
    'released',
    'the instance made for it goes back to the supplier',
  )
})

test('a phone released while its supplier cannot be reached: expire-devices releases the instance later', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000006')
  const [id] = await runningPhones(ta, user.userId, 1)
  const { supplierInstanceId } = await deviceRow(ta, id)
  const supplier = ta.app.services.ctx.supplier
  const release = supplier.release.bind(supplier)
  supplier.release = () => Promise.reject(new Error('supplier down'))
  t.after(() => (supplier.release = release))
  const as = await operatorAs(ta, 'admin')
  const reply = await adminCall(ta, 'POST', `/devices/${id}/release`, {
    as,
    body: { reason: '到期未续' },
  })
  assert.equal(reply.code, 200, 'the release stands: the instance follows')
  assert.equal((await deviceRow(ta, id)).supplierReleased, false)
  supplier.release = release
  await ta.app.jobs.ensureRecurring() // as the server does at start
  await ta.app.jobs.runDue()
  assert.equal((await deviceRow(ta, id)).supplierReleased, true)
  assert.equal((await instanceRow(ta, supplierInstanceId!)).status, 'released')
})

test('任务: failed and stuck jobs are listed; 重试 puts one back with its attempts at 0, audited; running and done jobs are refused', async (t) => {
  const ta = await buildTestApp(t)
  const failed = await failedJob(ta)
  const as = await operatorAs(ta, 'support')
  const list = async (query: Record<string, string> = {}) => {
    const reply = await adminCall<AdminJobPage>(ta, 'GET', '/jobs', { as, query })
    assert.equal(reply.code, 200, reply.msg)
    return reply.data
  }
  const listed = (await list({ state: 'failed' })).records
  assert.deepEqual(
    listed.map((job) => [job.id, job.kind, job.status, job.attempts, job.target, job.retryable]),
    [[failed, 'fulfil-order', 'failed', 10, null, true]],
  )
  assert.match(listed[0].lastError ?? '', /bad fulfil-order payload/)

  // a job claimed by a process that died: its lease ran out, and no worker took it since
  const user = await loginWithSms(ta, '13800000007')
  const [phone] = await givePhones(ta, user.userId, 1)
  const now = ta.clock.now()
  const [stuck] = await ta.database.db
    .update(jobs)
    .set({
      status: 'running',
      attempts: 1,
      lockedUntil: new Date(now.getTime() - STUCK_AFTER_MS - 1000),
    })
    .where(jobsOfDevice(phone))
    .returning()
  const [young] = await ta.database.db
    .insert(jobs)
    .values({
      kind: PROVISION_JOB,
      payload: { deviceId: phone },
      status: 'running',
      runAt: now,
      lockedUntil: new Date(now.getTime() - 60_000),
      createdAt: now,
    })
    .returning()
  assert.deepEqual(
    (await list({ state: 'stuck' })).records.map((job) => [job.id, job.target, job.deviceId]),
    [[stuck.id, `云手机 ${phone}`, phone]],
    'a lease that ran out a minute ago is not stuck yet',
  )
  assert.deepEqual(
    (await list()).records.map((job) => job.id).sort((x, y) => x - y),
    [failed, stuck.id],
  )
  assert.deepEqual(
    (await list({ kind: PROVISION_JOB })).records.map((job) => job.id),
    [stuck.id],
  )

  const refusedYoung = await adminCall(ta, 'POST', `/jobs/${young.id}/retry`, { as })
  assert.equal(refusedYoung.code, OperatorCode.JOB_NOT_RETRYABLE)
  const missing = await adminCall(ta, 'POST', '/jobs/99999999/retry', { as })
  assert.equal(missing.code, OperatorCode.JOB_NOT_FOUND)

  const retried = await adminCall<AdminJobRow>(ta, 'POST', `/jobs/${failed}/retry`, { as })
  assert.equal(retried.code, 200, retried.msg)
  assert.deepEqual([retried.data.status, retried.data.attempts], ['pending', 0])
  const refused = await adminCall(ta, 'POST', `/jobs/${failed}/retry`, { as })
  assert.equal(refused.code, OperatorCode.JOB_NOT_RETRYABLE, 'pending now')
  assert.equal(refused.msg, '只有失败或卡住的任务可以重试')
  const unstuck = await adminCall<AdminJobRow>(ta, 'POST', `/jobs/${stuck.id}/retry`, { as })
  assert.equal(unstuck.code, 200, unstuck.msg)
  assert.deepEqual([unstuck.data.status, unstuck.data.attempts], ['pending', 0])

  await settle(ta)
  const [ranAgain] = await ta.database.db.select().from(jobs).where(eq(jobs.id, failed))
  assert.deepEqual(
    [ranAgain.status, ranAgain.attempts],
    ['pending', 1],
    'it ran again with a fresh count of attempts (and failed once more)',
  )
  assert.equal((await deviceRow(ta, phone)).status, DeviceStatus.running, 'the stuck job finished')
  const [done] = await ta.database.db.select().from(jobs).where(eq(jobs.id, stuck.id))
  assert.equal(done.status, 'done')
  const refusedDone = await adminCall(ta, 'POST', `/jobs/${stuck.id}/retry`, { as })
  assert.equal(refusedDone.code, OperatorCode.JOB_NOT_RETRYABLE)

  const audit = await auditOf(ta, 'job', failed)
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.before, entry.after]),
    [
      [
        'job.retry',
        { kind: 'fulfil-order', status: 'failed', attempts: 10 },
        { status: 'pending', attempts: 0 },
      ],
    ],
  )
})

test('two operators retry one failed job at once: it is put back once', async (t) => {
  const ta = await buildTestApp(t)
  const failed = await failedJob(ta)
  const one = await operatorAs(ta, 'admin')
  const two = await operatorAs(ta, 'support')
  const replies = await Promise.all(
    [one, two].map((as) => adminCall(ta, 'POST', `/jobs/${failed}/retry`, { as })),
  )
  assert.deepEqual(replies.map((reply) => reply.code).sort(), [200, OperatorCode.JOB_NOT_RETRYABLE])
  assert.equal((await auditOf(ta, 'job', failed)).length, 1)
})

test('任务: a failed broadcast names its message as the target', async (t) => {
  const ta = await buildTestApp(t)
  const now = ta.clock.now()
  const [job] = await ta.database.db
    .insert(jobs)
    .values({
      kind: DELIVER_OPERATOR_MESSAGE_JOB,
      payload: { operatorMessageId: 7 },
      status: 'failed',
      attempts: 10,
      runAt: now,
      createdAt: now,
    })
    .returning()
  const as = await operatorAs(ta, 'support')
  const reply = await adminCall<AdminJobPage>(ta, 'GET', '/jobs', {
    as,
    query: { state: 'failed' },
  })
  assert.equal(reply.code, 200, reply.msg)
  assert.deepEqual(
    reply.data.records.map((row) => [row.id, row.kind, row.target, row.deviceId]),
    [[job.id, DELIVER_OPERATOR_MESSAGE_JOB, '消息 7', null]],
  )
})

test('释放 and 重置 are refused while a phone has an open renewal, naming it; the five-phone batch renewal then delivers every phone', async (t) => {
  const ta = await buildTestApp(t)
  const user = await loginWithSms(ta, '13800000021')
  const ids = await runningPhones(ta, user.userId, 5)
  const before = await deviceRows(ta, ids)
  const as = await operatorAs(ta, 'operations')
  const priceId = priceOf(FLAGSHIP_GOOD, 30)
  const quoted = await post<Quote>(
    ta.app,
    '/CommodityGroup/getGoodPrice',
    { kind: 'renew', deviceIds: ids, priceId },
    user,
  )
  const renewal = await post<OrderInfo>(
    ta.app,
    '/order/createRenewOrder',
    { deviceIds: ids, priceId, expectedAmount: quoted.data.total, idempotencyKey: newKey() },
    user,
  )
  assert.equal(renewal.code, 200, renewal.msg)
  const { orderNo } = renewal.data
  assert.match(orderNo, /^CP/)

  const refused = async (expected: string) => {
    for (const action of ['release', 'reset']) {
      const reply = await adminCall(ta, 'POST', `/devices/${ids[2]}/${action}`, {
        as,
        body: { reason: '用户申请' },
      })
      assert.deepEqual([reply.code, reply.msg], [OperatorCode.DEVICE_PLAN_ORDER_OPEN, expected])
    }
  }
  await refused(`该云手机有待支付的订单（${orderNo}），请待用户支付或取消该订单后再操作`)
  // paid, not yet delivered
  await ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, user.userId, renewal.data.amount, { reason: 'grant' }),
  )
  const paid = await post(ta.app, '/pay/createPayment', { orderNo, payMethod: 3 }, user)
  assert.equal(paid.code, 200, paid.msg)
  await refused(`该云手机的订单（${orderNo}）已支付，正在生效，请稍后再试`)
  const untouched = await deviceRows(ta, ids)
  assert.deepEqual(
    untouched.map((row) => [row.status, row.planVersion]),
    before.map((row) => [row.status, row.planVersion]),
    'nothing changed on the phones',
  )
  assert.equal((await auditOf(ta, 'device', ids[2])).length, 0, 'a refusal is not recorded')

  await ta.app.jobs.runDue()
  const delivered = await get<OrderInfo>(ta.app, '/order/getOrderInfo', user, { orderNo })
  assert.equal(delivered.data.status, 2, 'completed, not refunded')
  const after = await deviceRows(ta, ids)
  for (const [i, row] of after.entries()) {
    assert.equal(row.expireAt.getTime(), before[i].expireAt.getTime() + 30 * DAY_MS, `phone ${i}`)
  }
  // delivered: the phone may be released now
  const released = await adminCall(ta, 'POST', `/devices/${ids[2]}/release`, {
    as,
    body: { reason: '用户申请' },
  })
  assert.equal(released.code, 200, released.msg)
})
