import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import {
  deviceGroups,
  deviceTransfers,
  devices,
  messages,
  spaceTasks,
  users,
} from '../../src/db/schema'
import { deviceRows, runningPhones } from '../helpers/fleet'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  sendCode,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { AuthTokenResult, Device } from '../../src/contract/device'
import type { TransferRecord, TransferRefusal, TransferResult } from '../../src/contract/transfer'

const SENDER = '13700000001'
const RECEIVER = '13700000002'
const OTHER = '13700000003'

async function withPassword(t: TestApp, session: Session) {
  await t.database.db
    .update(users)
    .set({ passwordHash: 'set-by-test' })
    .where(eq(users.id, session.userId))
}

/** A fresh transfer code to the sender's own number (past the 60 s resend wait). */
async function transferCode(t: TestApp, sender: Session) {
  t.clock.advance(61_000)
  return sendCode(t.app, SENDER, 'transfer', sender)
}

function transfer(
  t: TestApp,
  sender: Session,
  deviceIds: number[],
  mobilePhone: string,
  smsCode: string,
) {
  return post<TransferResult>(
    t.app,
    '/device/transfer',
    { deviceIds, mobilePhone, smsCode },
    sender,
  )
}

/** Rows that a refused transfer must leave as they were. */
async function snapshot(t: TestApp, ids: number[]) {
  const db = t.database.db
  return {
    devices: await deviceRows(t, ids),
    transfers: await db.select().from(deviceTransfers),
    messages: (await db.select().from(messages)).length,
  }
}

async function setup(t: Parameters<typeof buildTestApp>[0], phones = 2) {
  const ta = await buildTestApp(t)
  const sender = await loginWithSms(ta, SENDER)
  const receiver = await loginWithSms(ta, RECEIVER)
  await withPassword(ta, sender)
  const ids = await runningPhones(ta, sender.userId, phones)
  return { ta, sender, receiver, ids }
}

test('a transfer moves the phones, their time, group and backups; the sender loses access and both are told', async (t) => {
  const { ta, sender, receiver, ids } = await setup(t)
  const db = ta.database.db
  // one phone in 工作室 (the receiver has one), one in 直播间 (the receiver has none)
  const groups = await db
    .insert(deviceGroups)
    .values([
      { userId: sender.userId, name: '工作室', sort: 0, createdAt: ta.clock.now() },
      { userId: sender.userId, name: '直播间', sort: 1, createdAt: ta.clock.now() },
      { userId: receiver.userId, name: '工作室', sort: 0, createdAt: ta.clock.now() },
    ])
    .returning()
  await db.update(devices).set({ groupId: groups[0].id }).where(eq(devices.id, ids[0]))
  await db.update(devices).set({ groupId: groups[1].id }).where(eq(devices.id, ids[1]))
  const before = await deviceRows(ta, ids)
  await db.insert(spaceTasks).values({
    userId: sender.userId,
    deviceId: ids[0],
    deviceName: before[0].name,
    kind: 'backup',
    status: 'done',
    sizeBytes: 1024,
    createdAt: ta.clock.now(),
    finishedAt: ta.clock.now(),
  })

  const reply = await transfer(ta, sender, ids, RECEIVER, await transferCode(ta, sender))
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.count, 2)
  assert.equal(reply.data.toMobile, '137****0002')

  const receiverGroups = await db
    .select()
    .from(deviceGroups)
    .where(eq(deviceGroups.userId, receiver.userId))
  const receiverGroup = (name: string) => receiverGroups.find((g) => g.name === name)!.id
  assert.deepEqual(
    receiverGroups.map((g) => g.name).sort(),
    ['工作室', '直播间'],
    'one of each name',
  )
  const after = await deviceRows(ta, ids)
  for (const [i, row] of after.entries()) {
    assert.equal(row.userId, receiver.userId)
    const name = i === 0 ? '工作室' : '直播间'
    assert.equal(row.groupId, receiverGroup(name), `in the receiver's ${name}`)
    assert.equal(row.expireAt.getTime(), before[i].expireAt.getTime(), 'remaining time kept')
    assert.equal(row.status, 1)
  }
  const backups = await db.select().from(spaceTasks).where(eq(spaceTasks.deviceId, ids[0]))
  assert.deepEqual(
    backups.map((b) => b.userId),
    [receiver.userId],
  )

  const senderDetail = await get<Device>(ta.app, '/device/detail', sender, {
    deviceId: String(ids[0]),
  })
  assert.notEqual(senderDetail.code, 200, 'the sender no longer sees the phone')
  const senderToken = await get<AuthTokenResult>(ta.app, '/user/getAuthToken', sender, {
    deviceId: String(ids[0]),
  })
  assert.notEqual(senderToken.code, 200, 'nor controls it')
  const receiverDetail = await get<Device>(ta.app, '/device/detail', receiver, {
    deviceId: String(ids[0]),
  })
  assert.equal(receiverDetail.code, 200, receiverDetail.msg)

  for (const [who, title] of [
    [sender, '云手机已转出'],
    [receiver, '云手机已转入'],
  ] as const) {
    const told = await db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, who.userId), eq(messages.type, 3)))
    assert.deepEqual(
      told.map((m) => m.title),
      [title],
    )
  }
  const sent = await get<PagedData<TransferRecord>>(ta.app, '/device/transfer/list', sender, {
    direction: 'out',
  })
  assert.equal(sent.data.total, 2)
  assert.equal(sent.data.records[0].otherMobile, '137****0002')
  const received = await get<PagedData<TransferRecord>>(ta.app, '/device/transfer/list', receiver, {
    direction: 'in',
  })
  assert.equal(received.data.total, 2)
  assert.equal(received.data.records[0].otherMobile, '137****0001')
  const none = await get<PagedData<TransferRecord>>(ta.app, '/device/transfer/list', sender, {
    direction: 'in',
  })
  assert.equal(none.data.total, 0)
})

test('without a login password the transfer asks for one first (1331), and nothing moves', async (t) => {
  const { ta, sender, ids } = await setup(t, 1)
  await ta.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, sender.userId))
  const before = await snapshot(ta, ids)
  const reply = await transfer(ta, sender, ids, RECEIVER, await transferCode(ta, sender))
  assert.equal(reply.code, ResultCode.MUST_SET_PASSWORD)
  assert.deepEqual(await snapshot(ta, ids), before)
})

test('a phone mid-backup or expired cannot move (1330 lists each with why); the code stays usable', async (t) => {
  const { ta, sender, ids } = await setup(t)
  const db = ta.database.db
  const [busy, expired] = await deviceRows(ta, ids)
  await db.insert(spaceTasks).values({
    userId: sender.userId,
    deviceId: busy.id,
    deviceName: busy.name,
    kind: 'backup',
    status: 'running',
    createdAt: ta.clock.now(),
  })
  await db.update(devices).set({ status: 2 }).where(eq(devices.id, expired.id))
  const code = await transferCode(ta, sender)
  const before = await snapshot(ta, ids)
  const reply = await transfer(ta, sender, ids, RECEIVER, code)
  assert.equal(reply.code, ResultCode.CAN_NOT_DO_TRANSFER)
  assert.deepEqual((reply.data as unknown as TransferRefusal).devices, [
    { deviceId: busy.id, name: busy.name, reason: '云手机正在备份或恢复数据，完成后才能转移' },
    { deviceId: expired.id, name: expired.name, reason: '云手机已到期，请续费后再操作' },
  ])
  assert.deepEqual(await snapshot(ta, ids), before)
  await db.update(spaceTasks).set({ status: 'done' }).where(eq(spaceTasks.deviceId, busy.id))
  const retry = await transfer(ta, sender, [busy.id], RECEIVER, code)
  assert.equal(retry.code, 200, 'the code was not used up by the refusal')
})

test('bad input is refused with a clear message and changes nothing', async (t) => {
  const { ta, sender, receiver, ids } = await setup(t, 1)
  const [theirs] = await runningPhones(ta, receiver.userId, 1)
  const code = await transferCode(ta, sender)
  const before = await snapshot(ta, [...ids, theirs])
  const cases: [string, number[], string, string, string][] = [
    ['unknown number', ids, '13799999999', code, '该手机号尚未注册云手机账号'],
    ['oneself', ids, SENDER, code, '不能转移给自己'],
    ['a malformed number', ids, '1234', code, '请输入正确的手机号'],
    ['someone else’s phone', [theirs], RECEIVER, code, '云手机不存在或不属于您的账号'],
    ['a wrong code', ids, RECEIVER, code === '000000' ? '111111' : '000000', '验证码错误'],
  ]
  for (const [what, deviceIds, mobile, smsCode, msg] of cases) {
    const reply = await transfer(ta, sender, deviceIds, mobile, smsCode)
    assert.notEqual(reply.code, 200, what)
    assert.match(reply.msg, new RegExp(msg), what)
  }
  assert.deepEqual(await snapshot(ta, [...ids, theirs]), before)
})

test('two transfers of the same phone at once: one moves it, the other is refused', async (t) => {
  const { ta, sender, ids } = await setup(t, 1)
  await loginWithSms(ta, OTHER)
  const first = await transferCode(ta, sender)
  const second = await transferCode(ta, sender)
  const replies = await Promise.all([
    transfer(ta, sender, ids, RECEIVER, first),
    transfer(ta, sender, ids, OTHER, second),
  ])
  assert.equal(
    replies.filter((r) => r.code === 200).length,
    1,
    JSON.stringify(replies.map((r) => r.msg)),
  )
  const moves = await ta.database.db.select().from(deviceTransfers)
  assert.equal(moves.length, 1)
  const [row] = await deviceRows(ta, ids)
  assert.equal(row.userId, moves[0].toUserId)
})
