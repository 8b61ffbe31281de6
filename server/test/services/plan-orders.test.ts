import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq } from 'drizzle-orm'
import { activationCodes, devices, goodsPrices, messages, users } from '../../src/db/schema'
import { PLAN_CHANGED_REFUND } from '../../src/services/orders/plan-orders'
import { UNPAID_UNITS_CAP, UNPAID_UNITS_REFUSAL } from '../../src/services/orders/buyer-standing'
import { decideCompanyRequest } from '../../src/services/accounts/profile-service'
import {
  GOODS,
  ZONES,
  cancelOrder,
  commerceApp,
  createCloudOrder,
  newBuyer,
  newKey,
  orderRow,
  priceOf,
  quote,
  runJobs,
  runningPhones,
  stockOf,
} from '../helpers/commerce'
import {
  buildTestApp,
  get,
  post,
  type Envelope,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import { createTestDatabase } from '../helpers/test-database'
import type { ActivateResult } from '../../src/contract/activation'
import type { Quote } from '../../src/contract/goods'
import type { Device } from '../../src/contract/device'
import type { OrderInfo } from '../../src/contract/order'
import type { CreatePaymentResult } from '../../src/contract/payment'
import type { TransferResult } from '../../src/contract/transfer'
import type { UserInfo } from '../../src/contract/user'
import type { TimeToMonthQuote, TimeToMonthResult } from '../../src/contract/wallet'

const DAY = 86_400_000

async function giveBeans(ta: TestApp, userId: number, beans: number) {
  await ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, userId, beans, { reason: 'grant' }),
  )
}

async function payWithBeans(ta: TestApp, buyer: Session, orderNo: string) {
  const paid = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo, payMethod: 3 },
    buyer,
  )
  assert.equal(paid.code, 200, paid.msg)
  await runJobs(ta)
}

async function upgradeOrder(ta: TestApp, buyer: Session, deviceId: number, toGoodId: number) {
  const q = await quote(ta, buyer, { kind: 'upgrade', deviceIds: [deviceId], toGoodId })
  return post<OrderInfo>(
    ta.app,
    '/order/createUpOrDownOrder',
    { deviceId, toGoodId, expectedAmount: q.total, idempotencyKey: newKey() },
    buyer,
  )
}

async function renewOrder(ta: TestApp, buyer: Session, deviceId: number, goodId: number) {
  const priceId = priceOf(goodId, 30)
  const q = await post<Quote>(
    ta.app,
    '/CommodityGroup/getGoodPrice',
    { kind: 'renew', deviceIds: [deviceId], priceId },
    buyer,
  )
  if (q.code !== 200) return q as Envelope<never> & { status: number } // data is null on a refusal
  return post<OrderInfo>(
    ta.app,
    '/order/createRenewOrder',
    { deviceIds: [deviceId], priceId, expectedAmount: q.data.total, idempotencyKey: newKey() },
    buyer,
  )
}

const device = async (ta: TestApp, id: number) =>
  (await ta.database.db.select().from(devices).where(eq(devices.id, id)))[0]

test('while an upgrade is unpaid, the phone takes no other plan or time change', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer, { goodId: GOODS.enjoyB, days: 1 })
  const up = await upgradeOrder(ta, buyer, phone, GOODS.enjoyBigB)
  assert.equal(up.code, 200, up.msg)
  const refusal = `该云手机有待支付的订单（${up.data.orderNo}），请先完成支付或取消该订单`

  // The review's case: renew for 30 days, then pay the 1-day upgrade price.
  const renew = await renewOrder(ta, buyer, phone, GOODS.enjoyB)
  assert.deepEqual([renew.code, renew.msg], [1080, refusal])
  const down = await post<OrderInfo>(
    ta.app,
    '/order/createUpOrDownOrder',
    { deviceId: phone, toGoodId: GOODS.enjoyB, expectedAmount: 0, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(down.code, 1080)
  const zone = await post<Device>(
    ta.app,
    '/device/changeZone',
    { deviceId: phone, zoneId: ZONES.guangzhou },
    buyer,
  )
  assert.deepEqual([zone.code, zone.msg], [1080, refusal])
  const beans = await post<TimeToMonthResult>(
    ta.app,
    '/order/createTimeToMonthOrder',
    { deviceId: phone, expectedBeans: 1, idempotencyKey: newKey() },
    buyer,
  )
  assert.deepEqual([beans.code, beans.msg], [1080, refusal])

  // Cancelled, the phone is free again.
  await cancelOrder(ta, buyer, up.data.orderNo)
  const renewed = await renewOrder(ta, buyer, phone, GOODS.enjoyB)
  assert.equal(renewed.code, 200, renewed.msg)
})

test('an upgrade paid after its phone changed is refunded, never applied, and stock is whole', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer, { goodId: GOODS.enjoyB, days: 1 })
  const smallStock = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)
  const bigStock = await stockOf(ta, GOODS.enjoyBigB, ZONES.shanghai)
  const up = await upgradeOrder(ta, buyer, phone, GOODS.enjoyBigB)
  assert.equal(up.code, 200, up.msg)
  // Any writer that moves the plan (an operator's SQL here) makes the priced plan a thing of the past.
  const before = await device(ta, phone)
  await ta.database.db
    .update(devices)
    .set({ expireAt: new Date(before.expireAt.getTime() + 30 * DAY) })
    .where(eq(devices.id, phone))
  await giveBeans(ta, buyer.userId, up.data.amount)
  await payWithBeans(ta, buyer, up.data.orderNo)

  const order = await orderRow(ta, up.data.orderNo)
  assert.equal(order.status, 5, 'refunded')
  assert.equal((order.detail as { refundReason?: string }).refundReason, PLAN_CHANGED_REFUND)
  const after = await device(ta, phone)
  assert.equal(after.goodId, GOODS.enjoyB, 'still on the plan that was paid for')
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), smallStock)
  assert.equal(await stockOf(ta, GOODS.enjoyBigB, ZONES.shanghai), bigStock)
  assert.equal(
    await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db),
    up.data.amount,
    'beans back',
  )
})

test('the plan version moves with the goods, expiry, video, zone, owner and release, not with status', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const other = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer, { goodId: GOODS.enjoyB })
  const version = async () => (await device(ta, phone)).planVersion
  const moves = async (set: Partial<typeof devices.$inferInsert>) => {
    const was = await version()
    await ta.database.db.update(devices).set(set).where(eq(devices.id, phone))
    return (await version()) - was
  }
  assert.equal(await moves({ status: 2 }), 0, 'expired')
  assert.equal(await moves({ status: 1, name: 'x' }), 0)
  assert.equal(await moves({ expireAt: new Date(Date.now() + 40 * DAY) }), 1)
  assert.equal(await moves({ goodId: GOODS.enjoyBigB }), 1)
  assert.equal(await moves({ videoEdition: true }), 1)
  assert.equal(await moves({ zoneId: ZONES.guangzhou }), 1)
  assert.equal(await moves({ userId: other.userId }), 1)
  assert.equal(await moves({ status: 3 }), 1, 'released')
})

test('a transfer waits for the phone’s unpaid plan order', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const receiver = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer, { goodId: GOODS.enjoyB })
  const renew = await renewOrder(ta, buyer, phone, GOODS.enjoyB)
  assert.equal(renew.code, 200, renew.msg)
  await ta.database.db.update(users).set({ passwordHash: 'set' }).where(eq(users.id, buyer.userId))
  const [{ mobilePhone }] = await ta.database.db
    .select({ mobilePhone: users.mobilePhone })
    .from(users)
    .where(eq(users.id, receiver.userId))
  const refused = await post<TransferResult>(
    ta.app,
    '/device/transfer',
    { deviceIds: [phone], mobilePhone, smsCode: '000000' },
    buyer,
  )
  assert.equal(refused.code, 1330)
  assert.match(refused.msg, new RegExp(`有待支付的订单 ${renew.data.orderNo}`))
  assert.equal((await device(ta, phone)).userId, buyer.userId)
})

test('a video-edition phone pays its video fee on every extension of its time', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer, { goodId: GOODS.flagshipB, days: 7 })
  const plain = await quote(ta, buyer, {
    kind: 'renew',
    deviceIds: [phone],
    priceId: priceOf(GOODS.flagshipB, 30),
  })
  await ta.database.db.update(devices).set({ videoEdition: true }).where(eq(devices.id, phone))
  const video = await quote(ta, buyer, {
    kind: 'renew',
    deviceIds: [phone],
    priceId: priceOf(GOODS.flagshipB, 30),
  })
  // flagship B's video fee is 100 fen a day (seed-catalogue.ts)
  assert.equal(video.total, plain.total + 30 * 100)
  const line = video.lines.find((l) => l.label.startsWith('视频定制版'))
  assert.deepEqual([line?.label, line?.amount], ['视频定制版 续1个月', 3000])
  assert.equal(video.renewals![0].amount, plain.renewals![0].amount + 3000)

  const month = await get<TimeToMonthQuote>(ta.app, '/wallet/timeToMonthQuote', buyer, {
    deviceId: String(phone),
  })
  assert.equal(month.code, 200, month.msg)
  const [monthPrice] = await ta.database.db
    .select({ goodPrice: goodsPrices.goodPrice })
    .from(goodsPrices)
    .where(and(eq(goodsPrices.goodId, GOODS.flagshipB), eq(goodsPrices.goodTime, 30)))
  assert.equal(month.data.beans, monthPrice.goodPrice + 3000, 'one bean a fen, video fee included')
})

test('an activation code cannot renew a video-edition phone', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer, { goodId: GOODS.flagshipB, days: 7 })
  await ta.database.db.update(devices).set({ videoEdition: true }).where(eq(devices.id, phone))
  const bought = await post<OrderInfo>(
    ta.app,
    '/order/purchaseActivationCode',
    {
      goodId: GOODS.flagshipB,
      priceId: priceOf(GOODS.flagshipB, 7),
      quantity: 1,
      expectedAmount: (
        await quote(ta, buyer, {
          kind: 'activationCode',
          goodId: GOODS.flagshipB,
          priceId: priceOf(GOODS.flagshipB, 7),
          quantity: 1,
        })
      ).total,
      idempotencyKey: newKey(),
    },
    buyer,
  )
  assert.equal(bought.code, 200, bought.msg)
  await giveBeans(ta, buyer.userId, bought.data.amount)
  await payWithBeans(ta, buyer, bought.data.orderNo)
  const order = await orderRow(ta, bought.data.orderNo)
  const [code] = await ta.database.db
    .select({ code: activationCodes.code })
    .from(activationCodes)
    .where(eq(activationCodes.orderId, order.id))
  const used = await post<ActivateResult>(
    ta.app,
    '/activation/activate',
    { code: code.code, renewDeviceId: phone },
    buyer,
  )
  assert.deepEqual([used.code, used.msg], [1080, '视频定制版云手机请通过续费延长时长'])
})

test('unpaid orders hold at most UNPAID_UNITS_CAP units per buyer, also when sent at once', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const cap = UNPAID_UNITS_CAP.personal
  const order = (quantity: number) => createCloudOrder(ta, buyer, { quantity })
  // A first order paid, so the orders sent at once are all priced alike.
  const first = await order(1)
  await giveBeans(ta, buyer.userId, first.data.amount)
  await payWithBeans(ta, buyer, first.data.orderNo)
  const replies = await Promise.all(Array.from({ length: 20 }, () => order(5)))
  const placed = replies.filter((r) => r.code === 200)
  assert.equal(placed.length, cap / 5)
  for (const refused of replies.filter((r) => r.code !== 200)) {
    assert.deepEqual([refused.code, refused.msg], [1014, UNPAID_UNITS_REFUSAL])
  }
  const [row] = await ta.database.db
    .select({ unpaidUnits: users.unpaidUnits })
    .from(users)
    .where(eq(users.id, buyer.userId))
  assert.equal(row.unpaidUnits, cap)
  // Paying or cancelling one frees its units.
  await post<OrderInfo>(ta.app, '/order/cancel', { orderNo: placed[0].data.orderNo }, buyer)
  assert.equal((await order(5)).code, 200)
  assert.equal((await order(1)).code, 1014)
  // Timed-out orders free theirs too.
  await ta.app.jobs.ensureRecurring()
  ta.clock.advance(16 * 60_000)
  await runJobs(ta, 3)
  const [after] = await ta.database.db
    .select({ unpaidUnits: users.unpaidUnits })
    .from(users)
    .where(eq(users.id, buyer.userId))
  assert.equal(after.unpaidUnits, 0)
  assert.equal((await order(1)).code, 200)
})

test('at the cap: refused before anything is priced, locked or written, yet the order a key made is answered again', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const goodId = GOODS.enjoyB
  const priceId = priceOf(goodId, 30)
  const body = async (quantity: number, idempotencyKey = newKey()) => ({
    goodId,
    priceId,
    zoneId: ZONES.shanghai,
    quantity,
    expectedAmount: (await quote(ta, buyer, { kind: 'new', goodId, priceId, quantity })).total,
    idempotencyKey,
  })
  const order = async (sent: Record<string, unknown>) =>
    post<OrderInfo>(ta.app, '/order/createCloudOrder', sent, buyer)
  const fifty = await body(50)
  const first = await order(fifty)
  assert.equal(first.code, 200, first.msg)
  // the same key again (a retry after a lost answer) is that order, not a refusal
  const replay = await order(fifty)
  assert.deepEqual([replay.code, replay.data.orderNo], [200, first.data.orderNo])
  const stock = await stockOf(ta, goodId, ZONES.shanghai)
  const refused = await order(await body(1))
  assert.deepEqual([refused.code, refused.msg], [1014, UNPAID_UNITS_REFUSAL])
  // more than any buyer may hold is the quantity rule's refusal, which names the limit
  const tooMany = await order({ ...(await body(1)), quantity: UNPAID_UNITS_CAP.personal + 1 })
  assert.equal(tooMany.code, 1014)
  assert.notEqual(tooMany.msg, UNPAID_UNITS_REFUSAL)
  assert.equal(await stockOf(ta, goodId, ZONES.shanghai), stock, 'no stock taken')
  const [{ unpaidUnits }] = await ta.database.db
    .select({ unpaidUnits: users.unpaidUnits })
    .from(users)
    .where(eq(users.id, buyer.userId))
  assert.equal(unpaidUnits, UNPAID_UNITS_CAP.personal)
})

test(
  'a refusal at the cap is one read of the buyer: no pricing, lock, statement that writes or transaction',
  {
    skip:
      !process.env.TEST_DATABASE_URL && 'needs PostgreSQL (TEST_DATABASE_URL): its statement log',
  },
  async (t) => {
    const statements: string[] = []
    const database = await createTestDatabase({
      logger: { logQuery: (query) => void statements.push(query) },
    })
    const ta = await buildTestApp(t, { database })
    const buyer = await newBuyer(ta)
    assert.equal((await createCloudOrder(ta, buyer, { quantity: 50 })).code, 200)
    const sent = {
      goodId: GOODS.enjoyB,
      priceId: priceOf(GOODS.enjoyB, 30),
      zoneId: ZONES.shanghai,
      quantity: 1,
      expectedAmount: (
        await quote(ta, buyer, {
          kind: 'new',
          goodId: GOODS.enjoyB,
          priceId: priceOf(GOODS.enjoyB, 30),
          quantity: 1,
        })
      ).total,
      idempotencyKey: newKey(),
    }
    statements.length = 0
    const refused = await post(ta.app, '/order/createCloudOrder', sent, buyer)
    assert.equal(refused.code, 1014)
    assert.equal(statements.length, 1, statements.join('\n---\n'))
    assert.match(statements[0], /^select case when "unpaid_units" \+ \$1::integer >/)
  },
)

test('a company buyer is one an operator verified; saving company details only asks', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const saved = await post<UserInfo>(
    ta.app,
    '/user/updateCompanyInfo',
    { companyName: '某某科技有限公司', address: '上海市', workTypes: [] },
    buyer,
  )
  assert.equal(saved.code, 200, saved.msg)
  assert.deepEqual([saved.data.userType, saved.data.companyStatus], [1, 1])
  const linkOrder = () =>
    quote(ta, buyer, {
      kind: 'new',
      goodId: GOODS.enjoyB,
      priceId: priceOf(GOODS.enjoyB, 30),
      quantity: 1,
    }).then((q) =>
      post<OrderInfo>(
        ta.app,
        '/order/createBigUserLinkOrder',
        {
          goodId: GOODS.enjoyB,
          priceId: priceOf(GOODS.enjoyB, 30),
          zoneId: ZONES.shanghai,
          quantity: 1,
          expectedAmount: q.total,
          idempotencyKey: newKey(),
        },
        buyer,
      ),
    )
  assert.equal((await linkOrder()).code, 1080, 'not a company buyer yet')
  // 60 units unpaid is past a personal buyer's cap
  assert.equal((await createCloudOrder(ta, buyer, { quantity: 50 })).code, 200)
  assert.equal((await createCloudOrder(ta, buyer, { quantity: 10 })).code, 1014)

  assert.equal(await decideCompanyRequest(ta.database.db, ta.clock.now(), buyer.userId, true), true)
  assert.equal(
    await decideCompanyRequest(ta.database.db, ta.clock.now(), buyer.userId, true),
    false,
  )
  const [user] = await ta.database.db.select().from(users).where(eq(users.id, buyer.userId))
  assert.deepEqual([user.userType, user.companyStatus], [2, 2])
  const told = await ta.database.db.select().from(messages).where(eq(messages.userId, buyer.userId))
  assert.ok(told.some((m) => m.title === '企业认证已通过'))
  assert.equal((await linkOrder()).code, 200)
  assert.equal((await createCloudOrder(ta, buyer, { quantity: 10 })).code, 200)

  // A new company name asks again, and the buyer is personal meanwhile: not while holding more.
  const renamed = await post<UserInfo>(
    ta.app,
    '/user/updateCompanyInfo',
    { companyName: '另一家公司', address: '上海市', workTypes: [] },
    buyer,
  )
  assert.equal(renamed.code, 1014)
  const other = await newBuyer(ta)
  await post<UserInfo>(
    ta.app,
    '/user/updateCompanyInfo',
    { companyName: '另一家公司', address: '上海市', workTypes: [] },
    other,
  )
  assert.equal(
    await decideCompanyRequest(ta.database.db, ta.clock.now(), other.userId, false),
    true,
  )
  const [rejected] = await ta.database.db.select().from(users).where(eq(users.id, other.userId))
  assert.deepEqual([rejected.userType, rejected.companyStatus], [1, 3])
})
