import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { accountLedger, beanLedger, devices, jobs, orders } from '../../src/db/schema'
import { FEN_PER_BEAN, RECHARGE_PACKAGES } from '../../src/services/wallet/wallet-service'
import {
  GOODS,
  commerceApp,
  createCloudOrder,
  newBuyer,
  newKey,
  orderInfo,
  payWithSandbox,
  replayPaidNotification,
  runJobs,
  runningPhones,
} from '../helpers/commerce'
import { get, post, type Session, type TestApp } from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { OrderInfo } from '../../src/contract/order'
import type { CreatePaymentResult } from '../../src/contract/payment'
import type {
  AccountBalance,
  BeanLedgerEntry,
  RechargePackages,
  TimeToMonthQuote,
  TimeToMonthResult,
} from '../../src/contract/wallet'

const DAY_MS = 86_400_000

async function rechargeOrder(ta: TestApp, buyer: Session, packageId = 2) {
  const pack = RECHARGE_PACKAGES.find((p) => p.id === packageId)!
  const reply = await post<OrderInfo>(
    ta.app,
    '/order/createRechargeOrder',
    { packageId, expectedAmount: pack.price, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as { orderNo: string; amount: number; businessType: number; kind: string }
}

async function ledgerOf(ta: TestApp, userId: number) {
  return ta.database.db.select().from(beanLedger).where(eq(beanLedger.userId, userId))
}

async function grant(ta: TestApp, userId: number, beans: number) {
  await ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, userId, beans, { reason: 'grant' }),
  )
}

async function expiryOf(ta: TestApp, deviceId: number) {
  const [row] = await ta.database.db
    .select({ expireAt: devices.expireAt })
    .from(devices)
    .where(eq(devices.id, deviceId))
  return row.expireAt.getTime()
}

test('the packages come with the balance; every package is one bean per fen plus its bonus', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  await grant(ta, buyer.userId, 25)
  const reply = await get<RechargePackages>(ta.app, '/wallet/rechargePackages', buyer)
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.balance, 25)
  assert.equal(reply.data.fenPerBean, 1)
  assert.ok(reply.data.packages.length >= 3)
  for (const pack of reply.data.packages) assert.equal(pack.beans * FEN_PER_BEAN, pack.price)
  assert.deepEqual(reply.data.packages[1], { id: 2, price: 3000, beans: 3000, bonus: 300 })
})

test('a paid recharge order credits its beans and bonus once, with a ledger row naming the order', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const order = await rechargeOrder(ta, buyer, 2)
  assert.equal(order.businessType, 3)
  assert.equal(order.kind, 'beanRecharge')
  assert.equal(order.amount, 3000)
  await payWithSandbox(ta, buyer, order.orderNo)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 2)
  assert.equal(await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db), 3300)
  const ledger = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', buyer)
  assert.equal(ledger.code, 200, ledger.msg)
  assert.equal(ledger.data.total, 1)
  const [row] = ledger.data.records
  assert.equal(row.change, 3300)
  assert.equal(row.balanceAfter, 3300)
  assert.equal(row.reason, 'recharge')
  assert.equal(row.reasonText, '云豆充值')
  assert.equal(row.orderNo, order.orderNo)
  assert.equal(row.remark, '充值3000云豆，赠送300云豆')
})

test('a recharge notification replayed 50 times and its job run again credit the beans once', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const order = await rechargeOrder(ta, buyer, 1)
  assert.equal(await replayPaidNotification(ta, buyer, order.orderNo, 600, 50), 1)
  await runJobs(ta)
  const [job] = await ta.database.db.select().from(jobs).where(eq(jobs.kind, 'fulfil-order'))
  await ta.app.services.fulfilment.fulfil(Number((job.payload as { orderId: number }).orderId))
  await runJobs(ta)
  assert.equal(await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db), 600)
  assert.equal((await ledgerOf(ta, buyer.userId)).length, 1)
})

test('a recharge cannot be paid with beans, and bad packages or amounts create nothing', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  await grant(ta, buyer.userId, 10_000)
  const order = await rechargeOrder(ta, buyer, 1)
  const withBeans = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 3 },
    buyer,
  )
  assert.equal(withBeans.code, 1080)
  assert.equal(withBeans.msg, '云豆充值请使用微信支付或支付宝')
  assert.equal(await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db), 10_000)
  const bad = [
    { packageId: 99, expectedAmount: 600 },
    { packageId: -1, expectedAmount: 600 },
    { packageId: 1.5, expectedAmount: 600 },
    { packageId: 1, expectedAmount: -600 },
    { packageId: 1, expectedAmount: 6.5 },
  ]
  for (const body of bad) {
    const reply = await post<OrderInfo>(
      ta.app,
      '/order/createRechargeOrder',
      { ...body, idempotencyKey: newKey() },
      buyer,
    )
    assert.notEqual(reply.code, 200, JSON.stringify(body))
    assert.ok(reply.msg, 'a message says why')
  }
  const unknown = await post<OrderInfo>(
    ta.app,
    '/order/createRechargeOrder',
    { packageId: 99, expectedAmount: 600, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(unknown.msg, '充值套餐不存在')
  const stale = await post<OrderInfo>(
    ta.app,
    '/order/createRechargeOrder',
    { packageId: 1, expectedAmount: 500, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(stale.code, 1023)
  const rows = await ta.database.db.select().from(orders).where(eq(orders.userId, buyer.userId))
  assert.equal(rows.length, 1)
})

test('the ledger pages newest first and filters by a date range', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const first = ta.clock.now().getTime()
  for (let i = 1; i <= 5; i++) {
    await grant(ta, buyer.userId, i)
    ta.clock.advance(DAY_MS)
  }
  const page1 = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', buyer, {
    page: '1',
    rows: '2',
  })
  assert.equal(page1.data.total, 5)
  assert.equal(page1.data.totalPage, 3)
  assert.deepEqual(
    page1.data.records.map((r) => r.change),
    [5, 4],
  )
  const ranged = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', buyer, {
    startTime: String(first + DAY_MS),
    endTime: String(first + 3 * DAY_MS),
  })
  assert.deepEqual(
    ranged.data.records.map((r) => r.change),
    [3, 2],
  )
  assert.equal(ranged.data.total, 2)
  // each bound alone, and a page past the end (which still tells the total)
  const since = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', buyer, {
    startTime: String(first + 3 * DAY_MS),
  })
  assert.deepEqual([since.data.records.map((r) => r.change), since.data.total], [[5, 4], 2])
  const before = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', buyer, {
    endTime: String(first + DAY_MS),
    page: '3',
    rows: '1',
  })
  assert.deepEqual([before.data.records, before.data.total], [[], 1])
  const backwards = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', buyer, {
    startTime: String(first + DAY_MS),
    endTime: String(first),
  })
  assert.equal(backwards.msg, '结束日期不能早于开始日期')
  const other = await newBuyer(ta)
  const empty = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', other)
  assert.equal(empty.data.total, 0)
})

async function monthQuote(ta: TestApp, buyer: Session, deviceId: number) {
  const reply = await get<TimeToMonthQuote>(ta.app, '/wallet/timeToMonthQuote', buyer, {
    deviceId: String(deviceId),
  })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as { beans: number; balance: number; expireAt: number; newExpireAt: number }
}

function timeToMonth(
  ta: TestApp,
  buyer: Session,
  deviceId: number,
  expectedBeans: number,
  key = newKey(),
) {
  return post<TimeToMonthResult>(
    ta.app,
    '/order/createTimeToMonthOrder',
    { deviceId, expectedBeans, idempotencyKey: key },
    buyer,
  )
}

test('beans to a month: 30 more days, the beans debited with a ledger row, once per idempotency key', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [deviceId] = await runningPhones(ta, buyer)
  const quote = await monthQuote(ta, buyer, deviceId)
  const [price] = await ta.database.db.select().from(orders).where(eq(orders.userId, buyer.userId))
  assert.equal(quote.beans, Math.ceil(price.originalAmount / FEN_PER_BEAN))
  const before = await expiryOf(ta, deviceId)
  assert.equal(quote.newExpireAt, before + 30 * DAY_MS)
  await grant(ta, buyer.userId, quote.beans + 7)
  const key = newKey()
  const reply = await timeToMonth(ta, buyer, deviceId, quote.beans, key)
  assert.equal(reply.code, 200, reply.msg)
  assert.equal(reply.data.balance, 7)
  assert.equal(await expiryOf(ta, deviceId), before + 30 * DAY_MS)
  const again = await timeToMonth(ta, buyer, deviceId, quote.beans, key)
  assert.equal(again.data.orderNo, reply.data.orderNo)
  assert.equal(await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db), 7)
  assert.equal(await expiryOf(ta, deviceId), before + 30 * DAY_MS)
  const ledger = await get<PagedData<BeanLedgerEntry>>(ta.app, '/wallet/beanLedger', buyer)
  const [debit] = ledger.data.records
  assert.equal(debit.change, -quote.beans)
  assert.equal(debit.reasonText, '云豆转包月')
  assert.equal(debit.orderNo, reply.data.orderNo)
  const order = await orderInfo(ta, buyer, reply.data.orderNo)
  assert.equal(order.kind, 'timeToMonth')
  assert.equal(order.status, 2)
  assert.equal(order.payMethod, 3)
})

test('beans to a month with too few beans is 1015 and changes nothing; others phones and stale prices are refused', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [deviceId] = await runningPhones(ta, buyer)
  const quote = await monthQuote(ta, buyer, deviceId)
  await grant(ta, buyer.userId, quote.beans - 1)
  const before = await expiryOf(ta, deviceId)
  const short = await timeToMonth(ta, buyer, deviceId, quote.beans)
  assert.equal(short.code, 1015)
  assert.equal(
    await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db),
    quote.beans - 1,
  )
  assert.equal(await expiryOf(ta, deviceId), before)
  const timeToMonthOrders = await ta.database.db
    .select()
    .from(orders)
    .where(eq(orders.kind, 'timeToMonth'))
  assert.equal(timeToMonthOrders.length, 0)
  await grant(ta, buyer.userId, 1)
  const stale = await timeToMonth(ta, buyer, deviceId, quote.beans + 1)
  assert.equal(stale.code, 1023)
  const stranger = await newBuyer(ta)
  await grant(ta, stranger.userId, 10_000)
  const notTheirs = await timeToMonth(ta, stranger, deviceId, quote.beans)
  assert.notEqual(notTheirs.code, 200)
  assert.equal(await ta.app.services.beans.balance(stranger.userId, ta.app.services.ctx.db), 10_000)
  for (const bad of [0, -5, 1.5]) {
    const reply = await timeToMonth(ta, buyer, deviceId, bad)
    assert.notEqual(reply.code, 200)
  }
  assert.equal(await expiryOf(ta, deviceId), before)
})

test('50 concurrent beans-to-month spends never go negative, the ledger sums to the balance', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [deviceId] = await runningPhones(ta, buyer)
  const quote = await monthQuote(ta, buyer, deviceId)
  const before = await expiryOf(ta, deviceId)
  await grant(ta, buyer.userId, quote.beans * 7 + 3)
  const replies = await Promise.all(
    Array.from({ length: 50 }, () => timeToMonth(ta, buyer, deviceId, quote.beans)),
  )
  assert.equal(replies.filter((r) => r.code === 200).length, 7)
  assert.equal(replies.filter((r) => r.code === 1015).length, 43)
  const balance = await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db)
  assert.equal(balance, 3)
  const ledger = await ledgerOf(ta, buyer.userId)
  assert.equal(
    ledger.reduce((sum, row) => sum + row.change, 0),
    balance,
  )
  assert.ok(ledger.every((row) => row.balanceAfter >= 0))
  assert.equal(await expiryOf(ta, deviceId), before + 7 * 30 * DAY_MS)
})

async function topUp(ta: TestApp, company: Session, amount: number) {
  const order = await post<OrderInfo>(
    ta.app,
    '/order/agentBalanceRecharge',
    { amount, idempotencyKey: newKey() },
    company,
  )
  assert.equal(order.code, 200, order.msg)
  await payWithSandbox(ta, company, order.data.orderNo)
  return order.data.orderNo as string
}

async function accountBalance(ta: TestApp, session: Session) {
  const reply = await get<AccountBalance>(ta.app, '/wallet/accountBalance', session)
  assert.equal(reply.code, 200, reply.msg)
  return reply.data as { balance: number; enabled: boolean }
}

test('a company tops up its account balance once per paid order; others and bad amounts are refused', async (t) => {
  const ta = await commerceApp(t)
  const company = await newBuyer(ta, { company: true })
  const orderNo = await topUp(ta, company, 10_000)
  assert.equal((await orderInfo(ta, company, orderNo)).kind, 'balanceRecharge')
  await runJobs(ta)
  assert.deepEqual(await accountBalance(ta, company), { balance: 10_000, enabled: true })
  const person = await newBuyer(ta)
  const refused = await post<OrderInfo>(
    ta.app,
    '/order/agentBalanceRecharge',
    { amount: 10_000, idempotencyKey: newKey() },
    person,
  )
  assert.equal(refused.msg, '账户余额充值仅对企业用户开放，请先完成企业认证')
  assert.deepEqual(await accountBalance(ta, person), { balance: 0, enabled: false })
  for (const amount of [-100, 0, 99, 150.5, 100_000_001]) {
    const bad = await post<OrderInfo>(
      ta.app,
      '/order/agentBalanceRecharge',
      { amount, idempotencyKey: newKey() },
      company,
    )
    assert.notEqual(bad.code, 200, String(amount))
  }
  const rows = await ta.database.db.select().from(orders).where(eq(orders.userId, company.userId))
  assert.equal(rows.length, 1)
})

test('paying with the account balance debits it at once; short is 1025 and changes nothing', async (t) => {
  const ta = await commerceApp(t)
  const company = await newBuyer(ta, { company: true })
  await topUp(ta, company, 100)
  const { data: order } = await createCloudOrder(ta, company)
  assert.ok(order.amount > 100, 'the order costs more than the balance')
  const short = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 4 },
    company,
  )
  assert.equal(short.code, 1025)
  assert.equal((await accountBalance(ta, company)).balance, 100)
  assert.equal((await orderInfo(ta, company, order.orderNo)).status, 0)
  await topUp(ta, company, order.amount)
  const paid = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 4 },
    company,
  )
  assert.equal(paid.code, 200, paid.msg)
  assert.equal(paid.data.paid, true)
  assert.equal((await accountBalance(ta, company)).balance, 100)
  await runJobs(ta)
  assert.equal((await orderInfo(ta, company, order.orderNo)).status, 2)
  const ledger = await ta.database.db
    .select()
    .from(accountLedger)
    .where(eq(accountLedger.userId, company.userId))
  assert.equal(
    ledger.reduce((sum, row) => sum + row.change, 0),
    100,
  )
  const person = await newBuyer(ta)
  const { data: theirs } = await createCloudOrder(ta, person)
  const notCompany = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: theirs.orderNo, payMethod: 4 },
    person,
  )
  assert.equal(notCompany.msg, '账户余额支付仅对企业用户开放')
})

test('10 concurrent account-balance payments never take it below zero', async (t) => {
  const ta = await commerceApp(t)
  const company = await newBuyer(ta, { company: true })
  // the first order may carry a first-purchase price: leave it out so every order costs the same
  await createCloudOrder(ta, company, { goodId: GOODS.exclusiveB })
  const created = []
  for (let i = 0; i < 10; i++) {
    created.push((await createCloudOrder(ta, company, { goodId: GOODS.exclusiveB })).data)
  }
  const amount = created[0].amount
  assert.ok(created.every((order) => order.amount === amount))
  const orderNos = created.map((order) => order.orderNo as string)
  await topUp(ta, company, amount * 3 + 1)
  const replies = await Promise.all(
    orderNos.map((orderNo) =>
      post<CreatePaymentResult>(ta.app, '/pay/createPayment', { orderNo, payMethod: 4 }, company),
    ),
  )
  assert.equal(replies.filter((r) => r.code === 200).length, 3)
  assert.equal(replies.filter((r) => r.code === 1025).length, 7)
  assert.equal((await accountBalance(ta, company)).balance, 1)
})
