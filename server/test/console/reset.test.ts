/**
 * 重置 on the console's 云手机 page (issues 27 and 28): a factory reset of a user's phone at the (sandbox)
 * supplier. Each role on the route, the phone 重启中 until the supplier is done and then 运行中 with the
 * apps it was made with, the audit row (before/after), the owner's message, every refusal (4050, 4052,
 * 4055, 4056) and that a reset never interleaves with a backup, a restore, a zone change or a system
 * update, nor with a second reset.
 */
import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { and, desc, eq } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import {
  OPERATOR_PERMISSIONS,
  OPERATOR_ROLES,
  type OperatorRole,
} from '#domain/console/operator-roles'
import { OperatorCode, operatorMessages, ResultCode } from '#domain/result-codes'
import { DEFAULT_APPS } from '../../src/adapters/supplier/sandbox/catalogue'
import type { AdminDeviceRow } from '../../src/console/contract/devices'
import type { SpaceTask } from '../../src/contract/space'
import { devices, messages, sandboxInstances, spaceTasks } from '../../src/db/schema'
import { MessageKind } from '../../src/services/engagement/message-service'
import { adminCall, createOperator, signIn } from './helpers'
import { deviceRow, instanceRow, runningPhones, settle } from '../helpers/fleet'
import { buildTestApp, loginWithSms, post, type TestApp } from '../helpers/test-app'

const RESET: readonly OperatorRole[] = ['admin', 'operations']

async function operatorAs(ta: TestApp, role: OperatorRole, name = `as-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

/** The sandbox with a fixed random: nothing fails unless a test turns `roll` down. */
async function setup(t: TestContext) {
  const dice = { roll: 0.5 }
  const ta = await buildTestApp(t, {
    config: { sandboxSupplierFailureRate: 0.2 },
    sandboxSupplierRandom: () => dice.roll,
  })
  const user = await loginWithSms(ta, '13900000001')
  return { ta, user, dice }
}

const reset = (ta: TestApp, id: number, as: Awaited<ReturnType<typeof operatorAs>>) =>
  adminCall<AdminDeviceRow>(ta, 'POST', `/devices/${id}/reset`, {
    as,
    body: { reason: '用户来电要求恢复出厂设置' },
  })

const resetAudit = async (ta: TestApp, id: number) =>
  (
    await ta.app.console.audit.page({
      targetType: 'device',
      targetId: String(id),
      action: 'device.reset',
      rows: 100,
    })
  ).records

/** The owner's reset messages, newest first. */
const messagesOf = (ta: TestApp, userId: number) =>
  ta.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.title, '云手机正在重置')))
    .orderBy(desc(messages.id))

test('the permission table: 重置 is for admin and operations', () => {
  assert.deepEqual([...OPERATOR_PERMISSIONS.resetPhones], RESET)
})

test('each role on POST /devices/:id/reset: admin and operations reset, the others are refused 4003', async (t) => {
  const { ta, user } = await setup(t)
  const phones = await runningPhones(ta, user.userId, OPERATOR_ROLES.length)
  const problems: string[] = []
  for (const [i, role] of OPERATOR_ROLES.entries()) {
    const reply = await reset(ta, phones[i], await operatorAs(ta, role))
    const expected = RESET.includes(role) ? 200 : OperatorCode.FORBIDDEN
    if (reply.code !== expected) problems.push(`${role} → ${reply.code} (${expected})`)
    const status = (await deviceRow(ta, phones[i])).status
    const after = RESET.includes(role) ? DeviceStatus.rebooting : DeviceStatus.running
    if (status !== after) problems.push(`${role}: phone ${status} (${after})`)
  }
  assert.deepEqual(problems, [])
  const audited = await Promise.all(phones.map((id) => resetAudit(ta, id)))
  assert.deepEqual(
    audited.map((rows) => rows.length),
    OPERATOR_ROLES.map((role) => (RESET.includes(role) ? 1 : 0)),
    'only the admitted resets are recorded',
  )
})

test('重置: 重启中 until the supplier is done, then 运行中 with only its own apps; audited; the owner is told', async (t) => {
  const { ta, user } = await setup(t)
  const [id] = await runningPhones(ta, user.userId, 1)
  const before = await deviceRow(ta, id)
  const instanceId = before.supplierInstanceId!
  await ta.database.db
    .update(sandboxInstances)
    .set({ apps: [...DEFAULT_APPS, 'com.example.mine'] })
    .where(eq(sandboxInstances.id, instanceId))
  const as = await operatorAs(ta, 'operations')

  const reply = await reset(ta, id, as)
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.status, DeviceStatus.rebooting)
  assert.equal(reply.data.supplierInstanceId, instanceId, 'the same instance')
  assert.equal(reply.data.expireAt, before.expireAt.getTime(), 'the same rental')
  assert.equal((await instanceRow(ta, instanceId)).status, 'rebooting')

  const [audit] = await resetAudit(ta, id)
  assert.equal(audit.operatorName, 'as-operations')
  assert.deepEqual(audit.before, {
    status: DeviceStatus.running,
    instanceId,
    opSeq: before.opSeq,
  })
  assert.deepEqual(audit.after, {
    status: DeviceStatus.rebooting,
    opSeq: before.opSeq + 1,
    reason: '用户来电要求恢复出厂设置',
  })
  const [message] = await messagesOf(ta, user.userId)
  assert.equal(message.type, MessageKind.SYSTEM)
  assert.equal(message.title, '云手机正在重置')
  assert.match(message.content, /发起重置：所有应用和数据将被清除/)
  assert.match(message.content, new RegExp(before.name))

  // The reset takes two supplier delays: after one the phone is still 重启中.
  await settle(ta)
  assert.equal((await deviceRow(ta, id)).status, DeviceStatus.rebooting)
  await settle(ta)
  const after = await deviceRow(ta, id)
  assert.equal(after.status, DeviceStatus.running)
  assert.equal(after.supplierInstanceId, instanceId)
  assert.deepEqual((await instanceRow(ta, instanceId)).apps, [...DEFAULT_APPS])
})

test('refusals: no such phone 4050, released 4052, not running or busy 4055, the supplier refused 4056', async (t) => {
  const { ta, user, dice } = await setup(t)
  const [a, b, c] = await runningPhones(ta, user.userId, 3)
  const as = await operatorAs(ta, 'admin')
  const code = async (id: number) => {
    const reply = await reset(ta, id, as)
    if (reply.code === 200) return reply.code
    assert.equal(
      reply.msg,
      operatorMessages[reply.code as keyof typeof operatorMessages],
      'the code’s message',
    )
    return reply.code
  }

  assert.equal(await code(999999), OperatorCode.DEVICE_NOT_FOUND)

  // Not running: expired, creating, failed phones.
  for (const status of [DeviceStatus.expired, DeviceStatus.creating, DeviceStatus.failed]) {
    await ta.database.db.update(devices).set({ status }).where(eq(devices.id, a))
    assert.equal(await code(a), OperatorCode.DEVICE_NOT_RESETTABLE, `status ${status}`)
  }
  await ta.database.db
    .update(devices)
    .set({ status: DeviceStatus.running })
    .where(eq(devices.id, a))

  // The supplier refused (its failure rate): nothing changed, it can be tried again.
  dice.roll = 0.1
  assert.equal(await code(a), OperatorCode.DEVICE_RESET_REFUSED)
  dice.roll = 0.5
  const row = await deviceRow(ta, a)
  assert.equal(row.status, DeviceStatus.running)
  assert.equal((await instanceRow(ta, row.supplierInstanceId!)).status, 'running')
  assert.deepEqual(await resetAudit(ta, a), [], 'a refused reset is not recorded')
  assert.equal((await messagesOf(ta, user.userId)).length, 0, 'nor told to the user')

  // Once reset it is 重启中: a second reset is refused until it runs again.
  assert.equal(await code(a), 200)
  assert.equal(await code(a), OperatorCode.DEVICE_NOT_RESETTABLE)
  await settle(ta, 6000)
  assert.equal(await code(a), 200, 'running again: it may be reset again')

  const release = await adminCall(ta, 'POST', `/devices/${b}/release`, {
    as,
    body: { reason: '测试' },
  })
  assert.equal(release.code, 200, release.msg)
  assert.equal(await code(b), OperatorCode.DEVICE_RELEASED)

  // A reason is required.
  const noReason = await adminCall(ta, 'POST', `/devices/${c}/reset`, { as, body: { reason: ' ' } })
  assert.notEqual(noReason.code, 200)
  assert.equal((await deviceRow(ta, c)).status, DeviceStatus.running)
})

test('a reset never interleaves: refused while a backup, restore, zone change or update runs; the user’s backup is refused while it resets', async (t) => {
  const { ta, user } = await setup(t)
  const [id, other] = await runningPhones(ta, user.userId, 2)
  const as = await operatorAs(ta, 'admin')

  // A backup of the phone is running: refused.
  const backup = await post<SpaceTask>(ta.app, '/space/backup', { deviceId: id }, user)
  assert.equal(backup.code, 200, backup.msg)
  assert.equal((await reset(ta, id, as)).code, OperatorCode.DEVICE_NOT_RESETTABLE)
  await settle(ta, 6000)
  const [done] = await ta.database.db
    .select()
    .from(spaceTasks)
    .where(and(eq(spaceTasks.deviceId, id), eq(spaceTasks.kind, 'backup')))
  assert.equal(done.status, 'done')

  // A restore onto the phone is running: refused.
  const restore = await post<SpaceTask>(
    ta.app,
    '/space/restore',
    { backupId: done.id, deviceId: id },
    user,
  )
  assert.equal(restore.code, 200, restore.msg)
  assert.equal((await reset(ta, id, as)).code, OperatorCode.DEVICE_NOT_RESETTABLE)
  await settle(ta, 9000)
  assert.equal((await deviceRow(ta, id)).status, DeviceStatus.running)

  // A zone change or a system update holds the phone (busyOp): refused.
  for (const busyOp of ['changeZone', 'systemUpdate', 'replace'] as const) {
    await ta.database.db.update(devices).set({ busyOp }).where(eq(devices.id, other))
    assert.equal((await reset(ta, other, as)).code, OperatorCode.DEVICE_NOT_RESETTABLE, busyOp)
  }
  await ta.database.db.update(devices).set({ busyOp: null }).where(eq(devices.id, other))
  assert.deepEqual(await resetAudit(ta, id), [])
  assert.deepEqual(await resetAudit(ta, other), [])

  // Reset: the user's backup and restore wait for it.
  assert.equal((await reset(ta, id, as)).code, 200)
  const during = await post<SpaceTask>(ta.app, '/space/backup', { deviceId: id }, user)
  assert.equal(during.code, ResultCode.SHOW_ERROR_TIPS, 'no backup of a phone being reset')
  const restoring = await post<SpaceTask>(
    ta.app,
    '/space/restore',
    { backupId: done.id, deviceId: id },
    user,
  )
  assert.notEqual(restoring.code, 200, 'no restore onto a phone being reset')
})

test('two operators reset one phone at once: one reset at the supplier, one audit row, one message', async (t) => {
  const { ta, user } = await setup(t)
  const [id] = await runningPhones(ta, user.userId, 1)
  const one = await operatorAs(ta, 'admin')
  const two = await operatorAs(ta, 'operations')
  const replies = await Promise.all([reset(ta, id, one), reset(ta, id, two)])
  assert.deepEqual(replies.map((reply) => reply.code).sort(), [
    200,
    OperatorCode.DEVICE_NOT_RESETTABLE,
  ])
  assert.equal((await resetAudit(ta, id)).length, 1)
  assert.equal((await messagesOf(ta, user.userId)).length, 1)
})
