import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { devices, goodsStockSlots, messages } from '../../src/db/schema'
import {
  GOODS,
  commerceApp,
  newBuyer,
  newKey,
  orderInfo,
  payWithSandbox,
  priceOf,
  runningPhones,
} from '../helpers/commerce'
import { get, post, type Session, type TestApp } from '../helpers/test-app'
import type { ActivateResult, MyCode } from '../../src/contract/activation'
import type { Quote } from '../../src/contract/goods'
import type { PagedData } from '../../src/contract/common'
import type { OrderInfo } from '../../src/contract/order'

const DAY = 86_400_000

async function buyCodes(ta: TestApp, buyer: Session, quantity: number, goodId = GOODS.enjoyB) {
  const priceId = priceOf(goodId, 7)
  const quote = await post<Quote>(
    ta.app,
    '/CommodityGroup/getGoodPrice',
    { kind: 'activationCode', goodId, priceId, quantity },
    buyer,
  )
  const created = await post<OrderInfo>(
    ta.app,
    '/order/purchaseActivationCode',
    { goodId, priceId, quantity, expectedAmount: quote.data.total, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(created.code, 200, created.msg)
  await payWithSandbox(ta, buyer, created.data.orderNo)
  return (await orderInfo(ta, buyer, created.data.orderNo)).codes as string[]
}

test('my codes are listed with goods, duration and status', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const codes = await buyCodes(ta, buyer, 3)
  const list = await get<PagedData<MyCode>>(ta.app, '/activation/myCodes', buyer, { rows: '2' })
  assert.equal(list.code, 200)
  assert.deepEqual([list.data.total, list.data.totalPage, list.data.records.length], [3, 2, 2])
  const first = list.data.records[0]
  assert.ok(codes.includes(first.code))
  assert.deepEqual(
    [
      first.goodsName,
      first.goodTime,
      first.durationLabel,
      first.status,
      first.statusText,
      first.usedAt,
    ],
    ['畅享版 4核4G', 7, '7天', 0, '未使用', null],
  )
  const stranger = await newBuyer(ta)
  const none = await get<PagedData<MyCode>>(ta.app, '/activation/myCodes', stranger)
  assert.equal(none.data.total, 0)
})

test('a code makes a new phone once; typed in lower case with dashes it still works', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const friend = await newBuyer(ta)
  const [code] = await buyCodes(ta, buyer, 1)
  const typed = code.toLowerCase().replace(/(.{4})(?!$)/g, '$1-')
  const reply = await post<ActivateResult>(ta.app, '/activation/activate', { code: typed }, friend)
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.kind, 'new')
  assert.equal(reply.data.expireAt, ta.clock.now().getTime() + 7 * DAY)
  const [phone] = await ta.database.db
    .select()
    .from(devices)
    .where(eq(devices.id, reply.data.deviceId))
  assert.deepEqual([phone.userId, phone.goodId, phone.status], [friend.userId, GOODS.enjoyB, 0])
  const created = await ta.database.db
    .select()
    .from(messages)
    .where(eq(messages.userId, friend.userId))
  assert.ok(created.some((m) => m.type === 4))

  const list = await get<PagedData<MyCode>>(ta.app, '/activation/myCodes', buyer)
  const used = list.data.records.find((c) => c.code === code)!
  assert.deepEqual([used.status, used.statusText, used.deviceId], [1, '已使用', phone.id])
  assert.equal(used.usedAt, ta.clock.now().getTime())

  const again = await post<ActivateResult>(ta.app, '/activation/activate', { code }, buyer)
  assert.deepEqual([again.code, again.msg], [1080, '激活码已被使用'])
  const unknown = await post<ActivateResult>(
    ta.app,
    '/activation/activate',
    { code: 'ABCDEFGHJKMNPQRS' },
    buyer,
  )
  assert.deepEqual([unknown.code, unknown.msg], [1080, '激活码不存在'])
  const malformed = await post<ActivateResult>(
    ta.app,
    '/activation/activate',
    { code: 'O0I1' },
    buyer,
  )
  assert.deepEqual([malformed.code, malformed.msg], [1080, '激活码不存在'])
})

test('two concurrent activations of one code: exactly one wins', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const other = await newBuyer(ta)
  const [code] = await buyCodes(ta, buyer, 1)
  const replies = await Promise.all([
    post<ActivateResult>(ta.app, '/activation/activate', { code }, buyer),
    post<ActivateResult>(ta.app, '/activation/activate', { code }, other),
    post<ActivateResult>(ta.app, '/activation/activate', { code }, other),
  ])
  assert.equal(replies.filter((r) => r.code === 200).length, 1)
  assert.ok(replies.filter((r) => r.code !== 200).every((r) => r.msg === '激活码已被使用'))
  assert.equal((await ta.database.db.select().from(devices)).length, 1)
})

test('a code renews one of my phones of the same goods by its duration', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer, { days: 7 })
  const [other] = await runningPhones(ta, buyer, { goodId: GOODS.enjoyBigB, days: 7 })
  const [code, spare] = await buyCodes(ta, buyer, 2)
  const [before] = await ta.database.db.select().from(devices).where(eq(devices.id, phone))
  const reply = await post<ActivateResult>(
    ta.app,
    '/activation/activate',
    { code, renewDeviceId: phone },
    buyer,
  )
  assert.equal(reply.code, 200, reply.msg)
  assert.deepEqual([reply.data.kind, reply.data.deviceId], ['renew', phone])
  const [after] = await ta.database.db.select().from(devices).where(eq(devices.id, phone))
  assert.equal(after.expireAt.getTime(), before.expireAt.getTime() + 7 * DAY)

  const wrongGoods = await post<ActivateResult>(
    ta.app,
    '/activation/activate',
    { code: spare, renewDeviceId: other },
    buyer,
  )
  assert.deepEqual(
    [wrongGoods.code, wrongGoods.msg],
    [1080, '该激活码只能用于「畅享版 4核4G」配置的云手机'],
  )
  const stranger = await newBuyer(ta)
  const foreign = await post<ActivateResult>(
    ta.app,
    '/activation/activate',
    { code: spare, renewDeviceId: phone },
    stranger,
  )
  assert.deepEqual([foreign.code, foreign.msg], [1031, '云手机不存在'])
  const list = await get<PagedData<MyCode>>(ta.app, '/activation/myCodes', buyer, { status: '0' })
  assert.deepEqual(
    list.data.records.map((c) => c.code),
    [spare],
    'a refused activation leaves the code unused',
  )
})

test('when the goods are sold out everywhere the code stays unused (1017)', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [code] = await buyCodes(ta, buyer, 1)
  await ta.database.db
    .update(goodsStockSlots)
    .set({ stock: 0 })
    .where(eq(goodsStockSlots.goodId, GOODS.enjoyB))
  const reply = await post<ActivateResult>(ta.app, '/activation/activate', { code }, buyer)
  assert.equal(reply.code, 1017)
  const list = await get<PagedData<MyCode>>(ta.app, '/activation/myCodes', buyer)
  assert.equal(list.data.records[0].status, 0)
  assert.equal((await ta.database.db.select().from(devices)).length, 0)
})

test('activation needs a login and a code', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  assert.equal(
    (await post<ActivateResult>(ta.app, '/activation/activate', { code: 'ABCDEFGHJKMNPQRS' })).code,
    2017,
  )
  assert.equal((await post<ActivateResult>(ta.app, '/activation/activate', {}, buyer)).code, 400)
  assert.equal((await get<PagedData<MyCode>>(ta.app, '/activation/myCodes')).code, 2017)
})
