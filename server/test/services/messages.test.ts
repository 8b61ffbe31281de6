import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp, get, loginWithSms, post } from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type {
  Message,
  MessageSettings,
  ReadMessagesResult,
  UnreadCount,
} from '../../src/contract/message'

test('message center: welcome messages, unread counts, reading, settings', async (t) => {
  const ctx = await buildTestApp(t)
  const { app, clock } = ctx
  const { messages } = app.services
  const alice = await loginWithSms(ctx, '13400000001')
  const bob = await loginWithSms(ctx, '13400000002')

  await t.test('a new user has a welcome system message and an announcement', async () => {
    const unread = await get<UnreadCount>(app, '/message/getUnreadCount', alice)
    assert.equal(unread.data.unreadCount, 2)
    assert.equal(unread.data.longSystem, 1)
    assert.equal(unread.data.longNotice, 1)
    assert.equal(unread.data.longApply, 0)
  })

  await t.test('unread counts per type and a newest-first paged list', async () => {
    for (let i = 1; i <= 3; i++) {
      clock.advance(1000)
      await messages.sendMessage(
        alice.userId,
        2,
        `续费提醒 ${i}`,
        '您的云手机即将到期',
        app.services.ctx.db,
      )
    }
    await messages.sendMessage(alice.userId, 4, '创建成功', '云手机已创建', app.services.ctx.db)
    const unread = await get<UnreadCount>(app, '/message/getUnreadCount', alice)
    assert.equal(unread.data.longRenewal, 3)
    assert.equal(unread.data.longCreate, 1)
    assert.equal(unread.data.longAll, 6)
    const page = await get<PagedData<Message>>(app, '/message/list', alice, {
      type: '2',
      page: '1',
      rows: '2',
    })
    assert.deepEqual(
      page.data.records.map((m) => m.title),
      ['续费提醒 3', '续费提醒 2'],
    )
    assert.equal(page.data.total, 3)
    assert.equal(page.data.totalPage, 2)
    assert.equal(page.data.page, 1)
    const second = await get<PagedData<Message>>(app, '/message/list', alice, {
      type: '2',
      page: '2',
      rows: '2',
    })
    assert.equal(second.data.records.length, 1)
    assert.equal(second.data.total, 3)
    // past the end: no records, and still the total (the page and its total are one statement)
    const past = await get<PagedData<Message>>(app, '/message/list', alice, {
      type: '2',
      page: '9',
      rows: '2',
    })
    assert.deepEqual([past.data.records, past.data.total, past.data.totalPage], [[], 3, 2])
    const all = await get<PagedData<Message>>(app, '/message/list', alice, { rows: '100' })
    assert.equal(all.data.total, 6)
    assert.equal(all.data.records[0].title, '创建成功')
    const none = await get<PagedData<Message>>(app, '/message/list', bob, { type: '3' })
    assert.deepEqual([none.data.records, none.data.total, none.data.totalPage], [[], 0, 0])
    assert.equal(
      (await get<PagedData<Message>>(app, '/message/list', alice, { rows: '101' })).status,
      400,
    )
  })

  await t.test("reading marks only the caller's messages", async () => {
    const aliceIds = (
      await get<PagedData<Message>>(app, '/message/list', alice, { rows: '100' })
    ).data.records.map((m) => m.id)
    const bobIds = (
      await get<PagedData<Message>>(app, '/message/list', bob, { rows: '100' })
    ).data.records.map((m) => m.id)
    const read = await post<ReadMessagesResult>(
      app,
      '/message/read',
      { ids: [...bobIds, aliceIds[0]] },
      alice,
    )
    assert.equal(read.data.updated, 1)
    assert.equal(
      (await get<UnreadCount>(app, '/message/getUnreadCount', bob)).data.unreadCount,
      2,
      "bob's are untouched",
    )
    await post<ReadMessagesResult>(app, '/message/read', { type: 2 }, alice)
    const afterType = await get<UnreadCount>(app, '/message/getUnreadCount', alice)
    assert.equal(afterType.data.longRenewal, 0)
    await post<ReadMessagesResult>(app, '/message/read', { all: true }, alice)
    assert.equal(
      (await get<UnreadCount>(app, '/message/getUnreadCount', alice)).data.unreadCount,
      0,
    )
    const list = await get<PagedData<Message>>(app, '/message/list', alice)
    assert.ok(list.data.records.every((m) => m.read))
  })

  await t.test('a disabled category is not created; system messages always are', async () => {
    const settings = await post<MessageSettings>(
      app,
      '/message/updateSettings',
      { renewal: false, system: false },
      bob,
    )
    assert.deepEqual(settings.data, {
      notice: true,
      renewal: false,
      transfer: true,
      create: true,
      system: true,
    })
    assert.deepEqual(
      (await get<MessageSettings>(app, '/message/getSettings', bob)).data,
      settings.data,
    )
    assert.equal(
      await messages.sendMessage(bob.userId, 2, '续费提醒', '...', app.services.ctx.db),
      false,
    )
    assert.equal(
      await messages.sendMessage(bob.userId, 5, '系统通知', '...', app.services.ctx.db),
      true,
    )
    const unread = await get<UnreadCount>(app, '/message/getUnreadCount', bob)
    assert.equal(unread.data.longRenewal, 0)
    assert.equal(unread.data.longSystem, 2)
  })
})
