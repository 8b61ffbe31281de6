/**
 * The console's 订单与支付 routes: each role on each route; search by every key and filter (and
 * that the lookups read an index); an order's payments and refunds; the finance refund of a paid order —
 * provider money back through the provider, beans and balance to their ledgers, the phones released, the
 * user's order 已退款 — each refusal, two refunds at once making one, the CSV export
 * (BOM, 元, formula-safe cells, audited). The money invariant and the 100k-order export are in
 * orders.slow.test.ts (`npm run test:slow`).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq, sql } from 'drizzle-orm'
import { OrderStatus, PayMethod } from '#domain/order-status'
import { OPERATOR_ROLES, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type { AuditPage } from '../../src/console/contract'
import type { AdminDeviceDetail } from '../../src/console/contract/devices'
import { ORDER_COUNT_CAP, type AdminOrderPage } from '../../src/console/contract/orders'
import type { OrderInfo } from '../../src/contract/order'
import type { BeanLedgerEntry } from '../../src/contract/wallet'
import {
  accountLedger,
  beanLedger,
  devices,
  deviceTransfers,
  orders,
  refunds,
  users,
} from '../../src/db/schema'
import { csvCell, orderFilter } from '../../src/console/services/orders'
import { BEANS, COMPANY_ACCOUNT, balanceOf } from '../../src/services/wallet/ledger'
import { adminCall } from './helpers'
import {
  commerceApp,
  createCloudOrder,
  GOODS,
  newBuyer,
  newKey,
  orderInfo,
  payWithSandbox,
  priceOf,
  runJobs,
  sandboxProvider,
  stockOf,
  ZONES,
} from '../helpers/commerce'
import { get, post } from '../helpers/test-app'
import {
  operatorAs,
  refund,
  detailOf,
  orderIdOf,
  paidPhoneOrder,
  ledgerPaidOrder,
} from './order-helpers'

const EVERYONE: OperatorRole[] = [...OPERATOR_ROLES]

test('each role on each 订单 route: admitted where the table says, refused with 4003 elsewhere', async (t) => {
  const ta = await commerceApp(t)
  const buyer = await newBuyer(ta)
  const created = await createCloudOrder(ta, buyer)
  const orderId = await orderIdOf(ta, created.data.orderNo)
  const routes: { method: 'GET' | 'POST'; url: string; allowed: OperatorRole[]; ok: number }[] = [
    { method: 'GET', url: '/orders', allowed: EVERYONE, ok: 200 },
    { method: 'GET', url: `/orders/${orderId}`, allowed: EVERYONE, ok: 200 },
    { method: 'GET', url: '/orders.csv', allowed: ['admin', 'finance'], ok: 200 },
    // admitted, and refused for what the order is (unpaid), never forbidden
    {
      method: 'POST',
      url: `/orders/${orderId}/refund`,
      allowed: ['finance'],
      ok: OperatorCode.ORDER_NOT_PAID,
    },
  ]
  const problems: string[] = []
  for (const role of OPERATOR_ROLES) {
    const as = await operatorAs(ta, role)
    for (const route of routes) {
      const response = await ta.app.inject({
        method: route.method,
        url: `/vmcloud/admin/api${route.url}`,
        headers: {
          cookie: `vmcloud_admin_session=${as.cookie}`,
          'x-csrf-token': as.csrfToken,
        },
        payload: route.method === 'POST' ? { reason: '核实' } : undefined,
      })
      const code = response.headers['content-type']?.toString().startsWith('text/csv')
        ? response.statusCode
        : (response.json() as { code: number }).code
      const expected = route.allowed.includes(role) ? route.ok : OperatorCode.FORBIDDEN
      if (code !== expected) problems.push(`${role} ${route.method} ${route.url} → ${code}`)
    }
  }
  assert.deepEqual(problems, [])
  // no session, and a user's token, are refused too
  const anonymous = await adminCall(ta, 'GET', '/orders')
  assert.equal(anonymous.code, OperatorCode.NOT_SIGNED_IN)
  const asUser = await adminCall(ta, 'GET', '/orders', {
    headers: { authorization: buyer.token, token: buyer.token },
  })
  assert.equal(asUser.code, OperatorCode.NOT_SIGNED_IN)
})

test('search by order number, order id, user id and number; filters by status, pay method, kind and date; newest first', async (t) => {
  const ta = await commerceApp(t)
  const support = await operatorAs(ta, 'support')
  const alice = await newBuyer(ta)
  const bob = await newBuyer(ta)
  const [aliceMobile] = await ta.database.db
    .select({ mobile: users.mobilePhone })
    .from(users)
    .where(eq(users.id, alice.userId))
  const first = await createCloudOrder(ta, alice)
  ta.clock.advance(60_000)
  const paid = await ledgerPaidOrder(ta, alice, PayMethod.beans)
  ta.clock.advance(60_000)
  const bobs = await createCloudOrder(ta, bob)
  const search = async (query: Record<string, string>) => {
    const reply = await adminCall<AdminOrderPage>(ta, 'GET', '/orders', { as: support, query })
    assert.equal(reply.code, 200, reply.msg)
    return reply.data.records.map((row) => row.orderNo)
  }
  assert.deepEqual(await search({}), [bobs.data.orderNo, paid.orderNo, first.data.orderNo])
  assert.deepEqual(await search({ q: first.data.orderNo.toLowerCase() }), [first.data.orderNo])
  // digits are an order id or a user id (small test ids can be both)
  assert.ok((await search({ q: String(paid.id) })).includes(paid.orderNo))
  const byBob = await search({ q: String(bob.userId) })
  assert.ok(byBob.includes(bobs.data.orderNo) && !byBob.includes(first.data.orderNo))
  assert.deepEqual(await search({ q: aliceMobile.mobile! }), [paid.orderNo, first.data.orderNo])
  assert.deepEqual(await search({ q: 'no such thing' }), [])
  assert.deepEqual(await search({ status: String(OrderStatus.completed) }), [paid.orderNo])
  assert.deepEqual(await search({ payMethod: String(PayMethod.beans) }), [paid.orderNo])
  assert.deepEqual(await search({ kind: 'renew' }), [])
  const [{ createdAt: paidAt }] = await ta.database.db
    .select({ createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.id, paid.id))
  assert.deepEqual(
    await search({
      from: String(paidAt.getTime()),
      to: String(paidAt.getTime() + 1),
    }),
    [paid.orderNo],
  )
  const page = await adminCall<AdminOrderPage>(ta, 'GET', '/orders', {
    as: support,
    query: { rows: '2', page: '2' },
  })
  assert.deepEqual(
    [page.data.total, page.data.totalPage, page.data.records.length, page.data.capped],
    [3, 2, 1, false],
  )
  const row = (
    await adminCall<AdminOrderPage>(ta, 'GET', '/orders', {
      as: support,
      query: { q: paid.orderNo },
    })
  ).data.records[0]
  assert.equal(row.userMobile, aliceMobile.mobile, 'operators see the full number')
  assert.equal(row.status, OrderStatus.completed)
  const invalid = await adminCall(ta, 'GET', '/orders', { as: support, query: { kind: 'x' } })
  assert.notEqual(invalid.code, 200)
})

test('the list counts at most ORDER_COUNT_CAP matching orders, and says when there are more', async (t) => {
  const ta = await commerceApp(t)
  const support = await operatorAs(ta, 'support')
  const buyer = await newBuyer(ta)
  // cancelled bean recharges: no stock, no unpaid units, nothing else to keep
  await ta.database.db.execute(sql`
    insert into orders (order_no, user_id, business_type, kind, status, amount, original_amount,
      quantity, pay_deadline, idempotency_key, created_at)
    select 'CAP' || i, ${buyer.userId}, 3, 'beanRecharge', ${OrderStatus.cancelled}, 100, 100, 1,
      now(), 'cap-' || i, now()
    from generate_series(1, ${ORDER_COUNT_CAP + 1}) i`)
  const list = async (query: Record<string, string>) => {
    const reply = await adminCall<AdminOrderPage>(ta, 'GET', '/orders', { as: support, query })
    assert.equal(reply.code, 200, reply.msg)
    return reply.data
  }
  const all = await list({ rows: '20' })
  assert.deepEqual(
    [all.total, all.totalPage, all.capped, all.records.length],
    [ORDER_COUNT_CAP, ORDER_COUNT_CAP / 20, true, 20],
  )
  const one = await list({ q: 'CAP42' })
  assert.deepEqual([one.total, one.capped, one.records[0]?.orderNo], [1, false, 'CAP42'])
  const none = await list({ status: String(OrderStatus.paid) })
  assert.deepEqual([none.total, none.capped], [0, false])
})

test('the search keys and the newest-first list read an index, never every order', async (t) => {
  const ta = await commerceApp(t)
  const db = ta.database.db
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ q: 'CP2026112712000012345678' }, /orders_order_no_key/],
    [{ q: '42' }, /orders_pkey/],
    [{ q: '13811112222' }, /users_mobile_phone_key/],
    [{ from: 0, to: 1_800_000_000_000 }, /orders_created_idx/],
  ]
  for (const [filter, index] of cases) {
    const query = db
      .select({ id: orders.id })
      .from(orders)
      .where(orderFilter(filter))
      .orderBy(sql`${orders.createdAt} desc, ${orders.id} desc`)
      .limit(20)
      .toSQL()
    const plan = await db.transaction(async (tx) => {
      // on a nearly empty table a scan is cheapest; forbid it to see whether an index can answer
      await tx.execute(sql`set local enable_seqscan = off`)
      const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
        const value = query.params[Number(n) - 1]
        if (typeof value === 'number') return String(value)
        return `'${String(value)}'`
      })
      const result = (await tx.execute(sql.raw(`explain ${text}`))) as unknown as {
        rows: Record<string, unknown>[]
      }
      return result.rows.map((row) => Object.values(row)[0]).join('\n')
    })
    assert.doesNotMatch(plan, /Seq Scan on orders/, `${JSON.stringify(filter)}:\n${plan}`)
    assert.match(plan, index, plan)
  }
})

test('a finance refund of a sandbox-paid phone order: money back through the provider, phones released, 已退款 for the user, audited', async (t) => {
  const ta = await commerceApp(t)
  const finance = await operatorAs(ta, 'finance')
  const admin = await operatorAs(ta, 'admin')
  const buyer = await newBuyer(ta)
  const order = await paidPhoneOrder(ta, buyer)
  const stockBefore = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)

  const before = await detailOf(ta, finance, order.id)
  assert.equal(before.refundRefusal, null)
  assert.equal(before.payments.length, 1)
  const [payment] = before.payments
  assert.deepEqual(
    [payment.provider, payment.status, payment.amount],
    ['sandbox', 'paid', order.amount],
  )
  assert.deepEqual(
    before.phones.map((phone) => [phone.id, phone.status]),
    order.phones.map((id) => [id, 1]),
  )

  const blank = await refund(ta, finance, order.id, '   ')
  assert.notEqual(blank.code, 200, 'a reason is required')
  const done = await refund(ta, finance, order.id, '  云机无法使用，全额退款  ')
  assert.equal(done.code, 200, done.msg)
  assert.equal(done.data.order.status, OrderStatus.refunded)
  assert.equal(done.data.order.refundReason, '云机无法使用，全额退款')
  assert.deepEqual(
    done.data.refunds.map((r) => [r.status, r.amount, r.provider, r.paymentId]),
    [['requested', order.amount, 'sandbox', payment.id]],
  )
  assert.equal(done.data.refundRefusal, '订单正在退款中')
  assert.deepEqual(
    done.data.phones.map((phone) => phone.status),
    order.phones.map(() => 3),
    'the phones it made are released',
  )
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), stockBefore + 1)

  // the send-refund job and the provider's notification finish it
  const sandbox = sandboxProvider(ta)
  await ta.app.jobs.runDue()
  await sandbox.outbox.flush()
  const after = await detailOf(ta, finance, order.id)
  assert.deepEqual([after.refunds[0].status, after.payments[0].status], ['succeeded', 'refunded'])
  assert.equal(await sandbox.heldFor(payment.tradeNo), 0, 'the provider holds none of it')
  assert.equal(after.refundRefusal, '订单已退款')

  // the user's H5 order and message
  const info = await orderInfo(ta, buyer, order.orderNo)
  assert.deepEqual([info.status, info.statusText], [5, '已退款'])
  const list = await get<{ records: OrderInfo[] }>(ta.app, '/order/list', buyer, {
    page: '1',
    rows: '10',
  })
  assert.equal(list.data.records.find((r) => r.orderNo === order.orderNo)?.statusText, '已退款')
  const phone = await get(ta.app, '/device/getDeviceInfo', buyer, { id: String(order.phones[0]) })
  assert.notEqual(phone.code, 200, 'the released phone is gone from the user')

  // refunding again is refused
  const again = await refund(ta, finance, order.id)
  assert.deepEqual([again.code, again.msg], [OperatorCode.ORDER_ALREADY_REFUNDED, '订单已退款'])

  const audit = await adminCall<AuditPage>(ta, 'GET', '/audit', {
    as: admin,
    query: { targetType: 'order', targetId: String(order.id) },
  })
  assert.equal(audit.data.records.length, 1, 'refusals write no audit row')
  const [row] = audit.data.records
  assert.equal(row.action, 'order.refund')
  assert.equal(row.operatorId, finance.session.operator.id)
  assert.deepEqual(row.before, {
    status: OrderStatus.completed,
    amount: order.amount,
    payMethod: PayMethod.alipay,
  })
  assert.deepEqual(row.after, {
    status: OrderStatus.refunded,
    reason: '云机无法使用，全额退款',
    releasedPhones: order.phones,
  })
  // the log names the order by its number and the released phones by theirs, in the same read
  assert.equal(row.targetName, order.orderNo)
  assert.equal(row.targetMobile, null)
  assert.deepEqual(
    row.refNames,
    Object.fromEntries(before.phones.map((phone) => [`device:${phone.id}`, phone.name])),
  )
})

test('an order names its user, payer, goods and the phones’ owners; a phone names its order and transfers', async (t) => {
  const ta = await commerceApp(t)
  const finance = await operatorAs(ta, 'finance')
  const buyer = await newBuyer(ta)
  const order = await paidPhoneOrder(ta, buyer)
  await ta.database.db.update(users).set({ name: '王小明' }).where(eq(users.id, buyer.userId))
  const [user] = await ta.database.db.select().from(users).where(eq(users.id, buyer.userId))

  const detail = await detailOf(ta, finance, order.id)
  assert.deepEqual(
    [detail.order.userMobile, detail.order.userName, detail.order.buyerId, detail.order.buyerName],
    [user.mobilePhone, '王小明', null, null],
  )
  assert.ok(detail.order.goodsName, 'the goods by name')
  assert.deepEqual(
    detail.payments.map((p) => [p.payerId, p.payerMobile, p.payerName]),
    [[buyer.userId, user.mobilePhone, '王小明']],
  )
  assert.deepEqual(
    detail.phones.map((p) => [p.userId, p.userMobile, p.userName]),
    order.phones.map(() => [buyer.userId, user.mobilePhone, '王小明']),
  )
  const list = await adminCall<AdminOrderPage>(ta, 'GET', '/orders', {
    as: finance,
    query: { q: order.orderNo },
  })
  assert.equal(list.data.records[0].userName, '王小明')

  // the phone's page names the order by its number, and a transfer's two users by theirs
  const other = await newBuyer(ta)
  await ta.database.db.insert(deviceTransfers).values({
    batchId: 'names-test',
    fromUserId: buyer.userId,
    toUserId: other.userId,
    deviceId: order.phones[0],
    deviceName: detail.phones[0].name,
    expireAt: new Date(detail.phones[0].expireAt),
    createdAt: ta.clock.now(),
  })
  const phone = await adminCall<AdminDeviceDetail>(ta, 'GET', `/devices/${order.phones[0]}`, {
    as: finance,
  })
  assert.deepEqual(
    [phone.data.device.orderId, phone.data.device.orderNo],
    [order.id, order.orderNo],
  )
  assert.equal(phone.data.device.userName, '王小明')
  const [moved] = phone.data.transfers
  assert.deepEqual(
    [moved.fromMobile, moved.fromName, moved.toUserId],
    [user.mobilePhone, '王小明', other.userId],
  )
  assert.match(moved.toMobile ?? '', /^1\d{10}$/)
})

test('beans and the account balance go back to their ledgers as 退款 rows the user sees', async (t) => {
  const ta = await commerceApp(t)
  const finance = await operatorAs(ta, 'finance')
  for (const method of [PayMethod.beans, PayMethod.accountBalance] as const) {
    const buyer = await newBuyer(ta)
    const book = method === PayMethod.beans ? BEANS : COMPANY_ACCOUNT
    const order = await ledgerPaidOrder(ta, buyer, method)
    const balanceBefore = await balanceOf(ta.database.db, book, buyer.userId)
    const done = await refund(ta, finance, order.id)
    assert.equal(done.code, 200, done.msg)
    assert.deepEqual(done.data.refunds, [], 'no provider refund for ledger money')
    assert.equal(done.data.payments[0].status, 'refunded')
    assert.equal(await balanceOf(ta.database.db, book, buyer.userId), balanceBefore + order.amount)
    const ledger = method === PayMethod.beans ? beanLedger : accountLedger
    const rows = await ta.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, buyer.userId), eq(ledger.orderId, order.id)))
    assert.deepEqual(
      rows.map((row) => [row.reason, row.change]),
      [
        ['order', -order.amount],
        ['refund', order.amount],
      ],
    )
    if (method === PayMethod.beans) {
      const seen = await get<{ records: BeanLedgerEntry[] }>(ta.app, '/wallet/beanLedger', buyer, {
        page: '1',
        rows: '10',
      })
      const entry = seen.data.records.find((r) => r.reason === 'refund')
      assert.ok(entry, JSON.stringify(seen.data))
      assert.deepEqual([entry.change, entry.orderNo], [order.amount, order.orderNo])
    }
    assert.equal((await orderInfo(ta, buyer, order.orderNo)).status, OrderStatus.refunded)
  }
})

test('refusals: no such order, unpaid, cancelled, a delivered renewal, phones expired or moved, refunding', async (t) => {
  const ta = await commerceApp(t)
  const finance = await operatorAs(ta, 'finance')
  const refused = async (orderId: number, code: number, msg: string) => {
    const reply = await refund(ta, finance, orderId)
    assert.deepEqual([reply.code, reply.msg], [code, msg])
  }
  await refused(999_999, OperatorCode.ORDER_NOT_FOUND, '订单不存在')
  const buyer = await newBuyer(ta)
  const unpaid = await createCloudOrder(ta, buyer)
  await refused(await orderIdOf(ta, unpaid.data.orderNo), 4041, '订单未支付，无需退款')
  await post(ta.app, '/order/cancel', { orderNo: unpaid.data.orderNo }, buyer)
  await refused(await orderIdOf(ta, unpaid.data.orderNo), 4041, '订单未支付，无需退款')

  // a renewal's time is the user's the moment it lands: refused, and so then is the phone's own order
  const order = await paidPhoneOrder(ta, buyer)
  const renewal = await post<OrderInfo>(
    ta.app,
    '/order/createRenewOrder',
    {
      deviceIds: order.phones,
      priceId: priceOf(GOODS.enjoyB, 30),
      expectedAmount: 2990,
      idempotencyKey: newKey(),
    },
    buyer,
  )
  assert.equal(renewal.code, 200, renewal.msg)
  await payWithSandbox(ta, buyer, renewal.data.orderNo)
  assert.equal((await orderInfo(ta, buyer, renewal.data.orderNo)).status, OrderStatus.completed)
  await refused(await orderIdOf(ta, renewal.data.orderNo), 4044, '该类订单交付后无法收回，不能退款')
  await refused(order.id, 4045, '该订单的云手机已到期、释放、转移或续费，无法退款')

  // expired, or given to another user
  const other = await newBuyer(ta)
  for (const change of [{ status: 2 }, { userId: other.userId }]) {
    const next = await paidPhoneOrder(ta, buyer)
    await ta.database.db.update(devices).set(change).where(eq(devices.id, next.phones[0]))
    await refused(next.id, 4045, '该订单的云手机已到期、释放、转移或续费，无法退款')
    const shown = await detailOf(ta, finance, next.id)
    assert.equal(shown.refundRefusal, '该订单的云手机已到期、释放、转移或续费，无法退款')
  }

  // paid, not yet delivered: refundable (nothing to take back), the reserved stock back
  const waiting = await createCloudOrder(ta, buyer)
  const stockBefore = await stockOf(ta, GOODS.enjoyB, ZONES.shanghai)
  const { tradeNo } = (
    await post<{ tradeNo: string }>(
      ta.app,
      '/pay/createPayment',
      { orderNo: waiting.data.orderNo, payMethod: 1 },
      buyer,
    )
  ).data
  await post(ta.app, '/sandbox/pay/act', { tradeNo, action: 'pay' })
  await sandboxProvider(ta).outbox.settled()
  const waitingId = await orderIdOf(ta, waiting.data.orderNo)
  assert.equal((await detailOf(ta, finance, waitingId)).order.status, OrderStatus.paid)
  assert.equal((await refund(ta, finance, waitingId)).code, 200)
  assert.equal(await stockOf(ta, GOODS.enjoyB, ZONES.shanghai), stockBefore + 1)
  await refused(waitingId, 4043, '订单正在退款中')
  await runJobs(ta) // the fulfilment job finds it refunded and delivers nothing
  const [row] = await ta.database.db.select().from(orders).where(eq(orders.id, waitingId))
  assert.deepEqual([row.status, row.deviceIds], [OrderStatus.refunded, []])
})

test('two finance operators refunding one order at once make one refund', async (t) => {
  const ta = await commerceApp(t)
  const first = await operatorAs(ta, 'finance', 'finance-a')
  const second = await operatorAs(ta, 'finance', 'finance-b')
  const buyer = await newBuyer(ta)
  for (const pay of ['provider', 'beans'] as const) {
    const order =
      pay === 'provider'
        ? await paidPhoneOrder(ta, buyer)
        : await ledgerPaidOrder(ta, buyer, PayMethod.beans)
    const replies = await Promise.all([
      refund(ta, first, order.id),
      refund(ta, second, order.id),
      refund(ta, first, order.id),
    ])
    const codes = replies.map((reply) => reply.code).sort()
    assert.equal(codes.filter((code) => code === 200).length, 1, codes.join())
    assert.ok(
      codes.every((code) => [200, 4042, 4043].includes(code)),
      codes.join(),
    )
    const made = await ta.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))
    const credits = await ta.database.db
      .select()
      .from(beanLedger)
      .where(and(eq(beanLedger.orderId, order.id), eq(beanLedger.reason, 'refund')))
    assert.equal(made.length + credits.length, 1, `${pay}: money goes back once`)
  }
})

test('CSV cells: formula starts get a leading quote mark, quotes and commas are quoted', () => {
  assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`)
  assert.equal(csvCell('+1'), "'+1")
  assert.equal(csvCell('-2'), "'-2")
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)")
  assert.equal(csvCell('\tx'), "'\tx")
  assert.equal(csvCell('a,b'), '"a,b"')
  assert.equal(csvCell('line\nbreak'), '"line\nbreak"')
  assert.equal(csvCell('购买云手机'), '购买云手机')
  assert.equal(csvCell(12), '12')
  assert.equal(csvCell(null), '')
})

test('the CSV export: BOM, Chinese headers, amounts in 元, the filters, audited with its filter', async (t) => {
  const ta = await commerceApp(t)
  const finance = await operatorAs(ta, 'finance')
  const admin = await operatorAs(ta, 'admin')
  const buyer = await newBuyer(ta)
  const paid = await ledgerPaidOrder(ta, buyer, PayMethod.beans)
  await createCloudOrder(ta, buyer)
  const response = await ta.app.inject({
    method: 'GET',
    url: '/vmcloud/admin/api/orders.csv',
    query: { status: String(OrderStatus.completed) },
    headers: { cookie: `vmcloud_admin_session=${finance.cookie}` },
  })
  assert.equal(response.statusCode, 200)
  assert.match(String(response.headers['content-type']), /^text\/csv; charset=utf-8/)
  assert.match(
    String(response.headers['content-disposition']),
    /attachment; filename="orders-\d{8}\.csv"/,
  )
  const body = response.body
  assert.ok(body.startsWith('\uFEFF订单ID,订单号,用户ID,用户手机号,类型,状态,支付方式,金额(元)'))
  const lines = body.slice(1).trimEnd().split('\r\n')
  assert.equal(lines.length, 2, 'the header and the one completed order')
  const cells = lines[1].split(',')
  assert.deepEqual(
    [cells[0], cells[1], cells[4], cells[5], cells[6], cells[7]],
    [String(paid.id), paid.orderNo, '购买云手机', '已完成', '云豆', (paid.amount / 100).toFixed(2)],
  )
  assert.match(cells[10], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  const audit = await adminCall<AuditPage>(ta, 'GET', '/audit', {
    as: admin,
    query: { action: 'order.export' },
  })
  assert.equal(audit.data.records.length, 1)
  assert.deepEqual(
    [audit.data.records[0].operatorId, audit.data.records[0].after],
    [finance.session.operator.id, { filter: { status: OrderStatus.completed } }],
  )
})
