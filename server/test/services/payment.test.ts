import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { assertProductionSafe, loadConfig, SERVER_DEFAULTS } from '../../src/config'
import {
  beanLedger,
  devices,
  jobs,
  messages,
  paymentNotifications,
  payments,
} from '../../src/db/schema'
import {
  GOODS,
  commerceApp,
  createCloudOrder,
  newBuyer,
  newKey,
  orderInfo,
  paymentRow,
  payWithSandbox,
  priceOf,
  runJobs,
  runningPhones,
  sandboxProvider,
  startPayment,
} from '../helpers/commerce'
import { get, post, type Session } from '../helpers/test-app'
import type { TestApp } from '../helpers/test-app'
import type { OrderInfo } from '../../src/contract/order'
import type { BeanBalance, CreatePaymentResult, SandboxActResult } from '../../src/contract/payment'

const NOTIFY = '/vmcloud/api/pay/notify/sandbox'

function notify(ta: TestApp, body: string, signature: string) {
  return ta.app.inject({
    method: 'POST',
    url: NOTIFY,
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
    payload: body,
  })
}

test('the sandbox checkout page shows the order, the amount and the three choices', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const start = await startPayment(ta, buyer, order.orderNo)
  assert.equal(start.paid, false)
  assert.equal(start.checkoutUrl, `/vmcloud/api/sandbox/pay/checkout?tradeNo=${start.tradeNo}`)
  const page = await ta.app.inject({ method: 'GET', url: start.checkoutUrl! })
  assert.equal(page.statusCode, 200)
  assert.match(page.headers['content-type'] as string, /text\/html/)
  for (const text of [order.orderNo, '¥15.00', '支付宝', '确认支付', '取消支付', '模拟失败']) {
    assert.ok(page.body.includes(text), `page shows ${text}`)
  }
  const unknown = await ta.app.inject({
    method: 'GET',
    url: '/vmcloud/api/sandbox/pay/checkout?tradeNo=nope',
  })
  assert.equal(unknown.statusCode, 404)
  assert.ok(unknown.body.includes('交易不存在'))
})

test('paying on the checkout page redirects back, then the signed notification fulfils the order', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer, { quantity: 2 })
  const returnUrl = `/pages/pay/pay?orderNo=${order.orderNo}&from=checkout`
  const start = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 1, returnUrl },
    buyer,
  )
  const form = await ta.app.inject({
    method: 'POST',
    url: '/vmcloud/api/sandbox/pay/act',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `tradeNo=${start.data.tradeNo}&action=pay`,
  })
  assert.equal(form.statusCode, 303)
  assert.equal(form.headers.location, returnUrl)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 0, 'the notice comes later')
  await sandboxProvider(ta).outbox.settled()
  const paid = await orderInfo(ta, buyer, order.orderNo)
  assert.deepEqual([paid.status, paid.payMethod], [1, 1])
  await runJobs(ta)
  const done = await orderInfo(ta, buyer, order.orderNo)
  assert.equal(done.status, 2)
  assert.equal(done.deviceIds.length, 2)
  const twice = await ta.app.inject({
    method: 'POST',
    url: '/vmcloud/api/sandbox/pay/act',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `tradeNo=${start.data.tradeNo}&action=pay`,
  })
  assert.equal(twice.statusCode, 409)
  assert.ok(twice.body.includes('该笔交易已处理'))
})

test('a return address on another site is refused', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  for (const returnUrl of [
    'https://evil.example/pay',
    '//evil.example/pay',
    'javascript:alert(1)',
  ]) {
    const reply = await post<CreatePaymentResult>(
      ta.app,
      '/pay/createPayment',
      { orderNo: order.orderNo, payMethod: 1, returnUrl },
      buyer,
    )
    assert.deepEqual([reply.code, reply.msg], [1080, '返回地址须为本应用内的页面路径'], returnUrl)
  }
  const rows = await ta.database.db.select().from(payments)
  assert.equal(rows.length, 0)
})

test('a notification replayed 100 times fulfils the order once', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer, { quantity: 2 })
  const { tradeNo } = await startPayment(ta, buyer, order.orderNo)
  const { body, signature } = sandboxProvider(ta).notification(tradeNo, 'paid', order.amount)
  const replies = await Promise.all(Array.from({ length: 100 }, () => notify(ta, body, signature)))
  assert.ok(replies.every((r) => r.statusCode === 200))
  const outcomes = replies.map((r) => r.json().data.outcome)
  assert.equal(outcomes.filter((o) => o === 'paid').length, 1)
  assert.equal(outcomes.filter((o) => o === 'duplicate').length, 99)
  await runJobs(ta)
  await runJobs(ta)
  const phones = await ta.database.db.select().from(devices)
  assert.equal(phones.length, 2)
  const fulfilJobs = await ta.database.db.select().from(jobs).where(eq(jobs.kind, 'fulfil-order'))
  assert.equal(fulfilJobs.length, 1)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 2)
})

test('a notification with a bad signature, a changed body or a wrong amount is refused and changes nothing', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const { tradeNo } = await startPayment(ta, buyer, order.orderNo)
  const sandbox = sandboxProvider(ta)
  const good = sandbox.notification(tradeNo, 'paid', order.amount)
  const forged = await notify(ta, good.body, 'a'.repeat(64))
  assert.equal(forged.statusCode, 401)
  assert.equal(forged.json().msg, '签名校验失败')
  const altered = await notify(ta, good.body.replace('"paid"', '"failed"'), good.signature)
  assert.equal(altered.statusCode, 401)
  const unsigned = await ta.app.inject({
    method: 'POST',
    url: NOTIFY,
    headers: { 'content-type': 'application/json' },
    payload: good.body,
  })
  assert.equal(unsigned.statusCode, 401)
  const cheap = sandbox.notification(tradeNo, 'paid', 1)
  const wrongAmount = await notify(ta, cheap.body, cheap.signature)
  assert.equal(wrongAmount.statusCode, 400)
  const unknown = sandbox.notification('T-unknown', 'paid', order.amount)
  assert.equal((await notify(ta, unknown.body, unknown.signature)).statusCode, 404)
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 0)
  assert.equal((await paymentRow(ta, tradeNo)).status, 'pending')
  assert.equal((await ta.database.db.select().from(paymentNotifications)).length, 0)
})

test('cancelling or failing at checkout leaves the order payable with a new payment', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const cancelled = await payWithSandbox(ta, buyer, order.orderNo, 'cancel')
  assert.equal((await paymentRow(ta, cancelled)).status, 'cancelled')
  const failed = await payWithSandbox(ta, buyer, order.orderNo, 'fail')
  assert.equal((await paymentRow(ta, failed)).status, 'failed')
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 0)
  await payWithSandbox(ta, buyer, order.orderNo, 'pay')
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, 2)
  const again = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 1 },
    buyer,
  )
  assert.deepEqual([again.code, again.msg], [1080, '订单已支付，请勿重复支付'])
})

test('the mini-program pays through the same sandbox with a JSON action', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const start = await startPayment(ta, buyer, order.orderNo, 2)
  const acted = await post<SandboxActResult>(ta.app, '/sandbox/pay/act', {
    tradeNo: start.tradeNo,
    action: 'pay',
  })
  assert.equal(acted.code, 200)
  assert.equal(acted.data.returnUrl, `/pages/pay/pay?orderNo=${order.orderNo}`)
  const bad = await post<SandboxActResult>(ta.app, '/sandbox/pay/act', {
    tradeNo: start.tradeNo,
    action: 'steal',
  })
  assert.equal(bad.code, 400)
  await sandboxProvider(ta).outbox.settled()
  assert.equal((await orderInfo(ta, buyer, order.orderNo)).payMethod, 2)
})

test('someone else’s order cannot be paid by order number', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const stranger = await newBuyer(ta)
  const { data: order } = await createCloudOrder(ta, buyer)
  const reply = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: order.orderNo, payMethod: 1 },
    stranger,
  )
  assert.deepEqual([reply.code, reply.msg], [1080, '订单不存在'])
})

async function activationOrder(ta: TestApp, buyer: Session) {
  const reply = await post<OrderInfo>(
    ta.app,
    '/order/purchaseActivationCode',
    {
      goodId: GOODS.enjoyB,
      priceId: priceOf(GOODS.enjoyB, 1),
      quantity: 1,
      expectedAmount: 150,
      idempotencyKey: newKey(),
    },
    buyer,
  )
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.orderNo as string
}

test('paying with beans debits, writes the ledger and pays in one go; short is 1015 and changes nothing', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const orderNo = await activationOrder(ta, buyer)
  const short = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo, payMethod: 3 },
    buyer,
  )
  assert.deepEqual([short.code, short.msg], [1015, '云豆数量不足'])
  assert.equal((await orderInfo(ta, buyer, orderNo)).status, 0)
  await ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, buyer.userId, 200, { reason: 'grant' }),
  )
  const paid = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo, payMethod: 3 },
    buyer,
  )
  assert.equal(paid.code, 200, paid.msg)
  assert.deepEqual([paid.data.paid, paid.data.checkoutUrl], [true, null])
  assert.equal((await orderInfo(ta, buyer, orderNo)).status, 1)
  const balance = await get<BeanBalance>(ta.app, '/pay/beanBalance', buyer)
  assert.equal(balance.data.balance, 50)
  const ledger = await ta.database.db
    .select()
    .from(beanLedger)
    .where(eq(beanLedger.userId, buyer.userId))
  assert.deepEqual(
    ledger.map((row) => [row.change, row.balanceAfter, row.reason]),
    [
      [200, 200, 'grant'],
      [-150, 50, 'order'],
    ],
  )
  // the row says what was bought; the order number is shown beside it, not repeated in the text
  assert.match(ledger[1].remark, /^购买激活码 \S/)
  assert.ok(!ledger[1].remark.includes(orderNo))
  await runJobs(ta)
  assert.equal((await orderInfo(ta, buyer, orderNo)).codes.length, 1)
})

test('100 concurrent bean payments never take the balance below zero and the ledger sums to it', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const orderNos: string[] = []
  for (let i = 0; i < 100; i++) orderNos.push(await activationOrder(ta, buyer))
  await ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, buyer.userId, 150 * 20 + 100, { reason: 'grant' }),
  )
  const replies = await Promise.all(
    orderNos.map((orderNo) =>
      post<CreatePaymentResult>(ta.app, '/pay/createPayment', { orderNo, payMethod: 3 }, buyer),
    ),
  )
  assert.equal(replies.filter((r) => r.code === 200).length, 20)
  assert.equal(replies.filter((r) => r.code === 1015).length, 80)
  const balance = await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db)
  assert.equal(balance, 100)
  const ledger = await ta.database.db
    .select()
    .from(beanLedger)
    .where(eq(beanLedger.userId, buyer.userId))
  assert.equal(
    ledger.reduce((sum, row) => sum + row.change, 0),
    balance,
  )
})

test('production refuses the default sandbox payment secret', () => {
  const sandboxes = {
    ALLOW_SANDBOX_SMS: '1',
    ALLOW_SANDBOX_WECHAT: '1',
    ALLOW_SANDBOX_PAYMENT: '1',
    ALLOW_SANDBOX_SUPPLIER: '1',
    BENEFIT_PEPPER: 'a-pepper-of-our-own',
    DATABASE_URL: 'postgres://cloudphone@db.internal/cloudphone',
  }
  const production = loadConfig({ NODE_ENV: 'production', ...sandboxes })
  assert.equal(production.sandboxPaySecret, SERVER_DEFAULTS.sandboxPaySecret)
  assert.throws(() => assertProductionSafe(production), /SANDBOX_PAY_SECRET/)
  const ownSecret = loadConfig({
    NODE_ENV: 'production',
    ...sandboxes,
    SANDBOX_PAY_SECRET: 'a-long-secret-of-our-own',
  })
  assert.doesNotThrow(() => assertProductionSafe(ownSecret))
})

test('a paid order that can no longer be delivered is refunded, beans back to the ledger', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const [phone] = await runningPhones(ta, buyer)
  const priceId = priceOf(GOODS.enjoyB, 30)
  const created = await post<OrderInfo>(
    ta.app,
    '/order/createRenewOrder',
    { deviceIds: [phone], priceId, expectedAmount: 2990, idempotencyKey: newKey() },
    buyer,
  )
  assert.equal(created.code, 200, created.msg)
  await ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, buyer.userId, 2990, { reason: 'grant' }),
  )
  const paid = await post<CreatePaymentResult>(
    ta.app,
    '/pay/createPayment',
    { orderNo: created.data.orderNo, payMethod: 3 },
    buyer,
  )
  assert.equal(paid.code, 200, paid.msg)
  // Released between payment and delivery (the expiry job ran first).
  await ta.database.db.update(devices).set({ status: 3 }).where(eq(devices.id, phone))
  await runJobs(ta)
  const order = await orderInfo(ta, buyer, created.data.orderNo)
  assert.deepEqual([order.status, order.statusText], [5, '已退款'])
  assert.equal(await ta.app.services.beans.balance(buyer.userId, ta.app.services.ctx.db), 2990)
  const ledger = await ta.database.db
    .select()
    .from(beanLedger)
    .where(eq(beanLedger.userId, buyer.userId))
  assert.deepEqual(
    ledger.map((row) => [row.change, row.reason]),
    [
      [2990, 'grant'],
      [-2990, 'order'],
      [2990, 'refund'],
    ],
  )
  const notes = await ta.database.db
    .select()
    .from(messages)
    .where(eq(messages.userId, buyer.userId))
  assert.ok(notes.some((m) => m.title === '订单已退款'))
})
