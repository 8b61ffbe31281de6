/**
 * The console's 消息 routes: each role on each route; a message to one user's number reaches
 * their message center and unread badge; a broadcast reaches users registered before it (not one
 * registered after), in batches that resume after a crash without writing a row twice; hostile input;
 * the audit rows; the read counts operators see.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type { OperatorMessagePage, OperatorMessageRow } from '../../src/console/contract/messages'
import type { Message, UnreadCount } from '../../src/contract/message'
import type { PagedData } from '../../src/contract/common'
import { jobs, messages, operatorMessages } from '../../src/db/schema'
import { DELIVER_OPERATOR_MESSAGE_JOB } from '../../src/console/services/messages'
import { adminCall, createOperator, signIn } from './helpers'
import { buildTestApp, get, loginWithSms, post, type TestApp } from '../helpers/test-app'

const SEND: OperatorRole[] = ['admin', 'operations', 'support']

const operatorAs = async (ta: TestApp, role: OperatorRole, name = `as-${role}`) =>
  signIn(ta, await createOperator(ta, name, role))

const unread = async (ta: TestApp, user: Awaited<ReturnType<typeof loginWithSms>>) =>
  (await get<UnreadCount>(ta.app, '/message/getUnreadCount', user)).data.unreadCount

const inbox = async (ta: TestApp, user: Awaited<ReturnType<typeof loginWithSms>>) =>
  (await get<PagedData<Message>>(ta.app, '/message/list', user, { page: '1', rows: '50' })).data
    .records

test('each role on each 消息 route: admitted where the table says, refused with 4003 elsewhere', async (t) => {
  const ta = await buildTestApp(t)
  await loginWithSms(ta, '13800000001')
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operatorAs(ta, role)
    const list = await adminCall(ta, 'GET', '/messages', { as })
    if (list.code !== 200) problems.push(`${role} GET → ${list.code}`)
    // admitted: refused by the rule (nobody has this number), so nothing is sent
    const send = await adminCall(ta, 'POST', '/messages', {
      as,
      body: { user: '13999999999', broadcast: false, title: '标题', content: '内容' },
    })
    const expected = SEND.includes(role) ? OperatorCode.USER_NOT_FOUND : OperatorCode.FORBIDDEN
    if (send.code !== expected) problems.push(`${role} POST → ${send.code} (${expected})`)
  }
  assert.deepEqual(problems, [])
  assert.equal((await ta.database.db.select().from(operatorMessages)).length, 0)
})

test('a message to a number: in that user’s message center with the unread badge, audited, read counted', async (t) => {
  const ta = await buildTestApp(t)
  const alice = await loginWithSms(ta, '13811112222')
  const bob = await loginWithSms(ta, '13833334444')
  const before = { alice: await unread(ta, alice), bob: await unread(ta, bob) }
  const as = await operatorAs(ta, 'support')
  const html = '<img src=x onerror=alert(1)><b>您的工单已处理</b>\n第二行'
  const sent = await adminCall<OperatorMessageRow>(ta, 'POST', '/messages', {
    as,
    body: { user: ' 13811112222 ', broadcast: false, title: '工单回复', content: html },
  })
  assert.equal(sent.code, 200, sent.msg)
  assert.equal(sent.data.userId, alice.userId)
  assert.equal(sent.data.recipients, 1)
  assert.equal(sent.data.read, 0)
  assert.equal(await unread(ta, alice), before.alice + 1)
  assert.equal(await unread(ta, bob), before.bob, 'nobody else gets it')
  const [top] = await inbox(ta, alice)
  assert.equal(top.title, '工单回复')
  assert.equal(top.content, html, 'stored as text, as sent (the client renders text)')
  assert.equal(top.type, 5)
  assert.equal(top.read, false)

  // by user id too
  const byId = await adminCall(ta, 'POST', '/messages', {
    as,
    body: { user: String(bob.userId), broadcast: false, title: '你好', content: '内容' },
  })
  assert.equal(byId.code, 200, byId.msg)
  assert.equal(await unread(ta, bob), before.bob + 1)

  const read = await post(ta.app, '/message/read', { ids: [top.id] }, alice)
  assert.equal(read.code, 200)
  const list = await adminCall<OperatorMessagePage>(ta, 'GET', '/messages', { as })
  assert.equal(list.data.total, 2)
  const first = list.data.records.find((row) => row.id === sent.data.id)!
  assert.equal(first.read, 1)
  assert.equal(first.mobile, '13811112222')
  assert.equal(first.userName, '', 'the nickname beside the number (none set)')
  assert.equal(first.operatorName, 'as-support')

  const audit = await ta.app.console.audit.page({
    targetType: 'user',
    targetId: String(alice.userId),
    rows: 10,
  })
  assert.equal(audit.records.length, 1)
  assert.equal(audit.records[0].action, 'message.send')
})

test('a broadcast: every user registered before it, in batches, resumed after a crash, never twice; not one registered after', async (t) => {
  const ta = await buildTestApp(t)
  const early = []
  for (let i = 0; i < 5; i++) early.push(await loginWithSms(ta, `1380000100${i}`))
  const counts = await Promise.all(early.map((user) => unread(ta, user)))
  const as = await operatorAs(ta, 'operations')
  const sent = await adminCall<OperatorMessageRow>(ta, 'POST', '/messages', {
    as,
    body: { broadcast: true, title: '系统维护通知', content: '今晚 2:00 维护' },
  })
  assert.equal(sent.code, 200, sent.msg)
  assert.equal(sent.data.userId, null)
  assert.equal(sent.data.deliveredAt, null, 'delivered by the job, not in the request')
  const late = await loginWithSms(ta, '13800002000')
  const lateBefore = await unread(ta, late)

  // two users' rows, then the process "dies" and the cursor is put back: the batch is written again
  const service = ta.app.console.messages
  assert.equal(await service.deliverBatch(sent.data.id, 2), true)
  await ta.database.db
    .update(operatorMessages)
    .set({ deliveredThrough: 0 })
    .where(eq(operatorMessages.id, sent.data.id))
  assert.equal(await service.deliverBatch(sent.data.id, 2), true)
  // the queued job finishes it
  await ta.app.jobs.runDue()
  const [job] = await ta.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.kind, DELIVER_OPERATOR_MESSAGE_JOB))
  assert.equal(job.status, 'done')

  const rows = await ta.database.db
    .select()
    .from(messages)
    .where(eq(messages.operatorMessageId, sent.data.id))
  assert.equal(rows.length, 5, 'one row per user registered before it, none twice')
  for (const [i, user] of early.entries()) {
    assert.equal(await unread(ta, user), counts[i] + 1)
    assert.equal((await inbox(ta, user))[0].title, '系统维护通知')
  }
  assert.equal(await unread(ta, late), lateBefore, 'a user registered afterwards does not get it')

  const list = await adminCall<OperatorMessagePage>(ta, 'GET', '/messages', { as })
  const row = list.data.records[0]
  assert.equal(row.recipients, 5, 'rows written again after the crash are not counted twice')
  assert.ok(row.deliveredAt)
  const audit = await ta.app.console.audit.page({
    targetType: 'operatorMessage',
    targetId: String(sent.data.id),
    rows: 10,
  })
  assert.deepEqual(
    audit.records.map((r) => r.action),
    ['message.broadcast'],
  )
})

test('hostile input is refused with 400 and writes nothing: NUL, control characters, blank, huge', async (t) => {
  const ta = await buildTestApp(t)
  await loginWithSms(ta, '13811112222')
  const as = await operatorAs(ta, 'admin')
  const base = { user: '13811112222', broadcast: false, title: '标题', content: '内容' }
  const bad = [
    { ...base, title: 'a\u0000b' },
    { ...base, content: 'a\u0000b' },
    { ...base, title: '第一行\n第二行' },
    { ...base, content: '\u001b[31m' },
    { ...base, title: '   ' },
    { ...base, content: '\n\n' },
    { ...base, title: '' },
    { ...base, title: '长'.repeat(51) },
    { ...base, content: '长'.repeat(1001) },
    { ...base, user: '1381111222x' },
    { title: '标题', content: '内容' },
  ]
  for (const body of bad) {
    const reply = await adminCall(ta, 'POST', '/messages', { as, body })
    assert.notEqual(reply.code, 200, JSON.stringify(body))
    assert.equal(reply.status, 400, `${JSON.stringify(body)} → ${reply.status}`)
  }
  const noTarget = await adminCall(ta, 'POST', '/messages', {
    as,
    body: { broadcast: false, title: '标题', content: '内容' },
  })
  assert.equal(noTarget.code, OperatorCode.USER_NOT_FOUND)
  const past = await adminCall(ta, 'POST', '/messages', {
    as,
    body: { ...base, user: '99999999999' },
  })
  assert.equal(past.code, OperatorCode.USER_NOT_FOUND, 'a user id past the serial range is nobody')
  assert.equal((await ta.database.db.select().from(operatorMessages)).length, 0)
  const longest = await adminCall(ta, 'POST', '/messages', {
    as,
    body: { ...base, title: '长'.repeat(50), content: '长'.repeat(1000) },
  })
  assert.equal(longest.code, 200, longest.msg)
})
