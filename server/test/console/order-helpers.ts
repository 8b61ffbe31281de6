/** Helpers of the console's 订单与支付 tests (admin/orders*.test.ts): operators, paid orders. */
import assert from 'node:assert/strict'
import { eq, sql } from 'drizzle-orm'
import { PayMethod } from '#domain/order-status'
import { type OperatorRole } from '#domain/console/operator-roles'
import { type AdminOrderDetail } from '../../src/console/contract/orders'
import { orders, users } from '../../src/db/schema'
import { BEANS, COMPANY_ACCOUNT, credit } from '../../src/services/wallet/ledger'
import { adminCall, createOperator, signIn, type OperatorSession } from './helpers'
import { createCloudOrder, runJobs, runningPhones } from '../helpers/commerce'
import { post, type Session, type TestApp } from '../helpers/test-app'

export async function operatorAs(ta: TestApp, role: OperatorRole, name = `as-${role}`) {
  return signIn(ta, await createOperator(ta, name, role))
}

export const refund = (
  ta: TestApp,
  as: OperatorSession,
  orderId: number,
  reason = '用户投诉，协商退款',
) => adminCall<AdminOrderDetail>(ta, 'POST', `/orders/${orderId}/refund`, { as, body: { reason } })

export const detailOf = async (ta: TestApp, as: OperatorSession, orderId: number) => {
  const reply = await adminCall<AdminOrderDetail>(ta, 'GET', `/orders/${orderId}`, { as })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

export async function orderIdOf(ta: TestApp, orderNo: string) {
  const [row] = await ta.database.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.orderNo, orderNo))
  return row.id
}

/** A new-phone order paid through the sandbox provider and delivered: its id, number and phones. */
export async function paidPhoneOrder(ta: TestApp, buyer: Session) {
  const phones = await runningPhones(ta, buyer)
  const [row] = await ta.database.db
    .select()
    .from(orders)
    .where(sql`${orders.deviceIds} @> ${JSON.stringify(phones)}::jsonb`)
  return { id: row.id, orderNo: row.orderNo, amount: row.amount, phones }
}

/** A new-phone order paid with beans (3) or the account balance (4), delivered. */
export async function ledgerPaidOrder(ta: TestApp, buyer: Session, payMethod: 3 | 4) {
  const created = await createCloudOrder(ta, buyer)
  assert.equal(created.code, 200, created.msg)
  const amount = created.data.amount
  const book = payMethod === PayMethod.beans ? BEANS : COMPANY_ACCOUNT
  if (payMethod === PayMethod.accountBalance) {
    await ta.database.db.update(users).set({ userType: 2 }).where(eq(users.id, buyer.userId))
  }
  await ta.database.db.transaction((tx) =>
    credit(tx, book, buyer.userId, amount + 500, { reason: 'recharge' }, ta.clock.now()),
  )
  const paid = await post(
    ta.app,
    '/pay/createPayment',
    { orderNo: created.data.orderNo, payMethod },
    buyer,
  )
  assert.equal(paid.code, 200, paid.msg)
  await runJobs(ta)
  return { id: await orderIdOf(ta, created.data.orderNo), orderNo: created.data.orderNo, amount }
}
