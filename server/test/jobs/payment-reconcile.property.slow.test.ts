/**
 * The reconciliation property of payment-reconcile.test.ts, in `npm run test:slow` (about 40 s): random
 * runs of payments, confirmations, lost notifications, time, jobs, time-outs and cancellations on one
 * order leave the provider holding its amount if it was delivered, else nothing.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { payments, refunds } from '../../src/db/schema'
import {
  act,
  heldApp,
  createCloudOrder,
  newBuyer,
  orderInfo,
  sandboxProvider,
  timeOutOrders,
} from '../helpers/commerce'
import { post } from '../helpers/test-app'
import type { OrderInfo } from '../../src/contract/order'
import type { CreatePaymentResult } from '../../src/contract/payment'

const MINUTE = 60_000

type Step =
  | { kind: 'startPayment' }
  | { kind: 'confirm'; trade: number; action: 'pay' | 'cancel' }
  | { kind: 'deliver' }
  | { kind: 'lose' }
  | { kind: 'advance'; ms: number }
  | { kind: 'jobs' }
  | { kind: 'timeout' }
  | { kind: 'cancelOrder' }

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'startPayment' as const }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('confirm' as const),
      trade: fc.nat(3),
      action: fc.constantFrom('pay' as const, 'pay' as const, 'cancel' as const),
    }),
    weight: 4,
  },
  { arbitrary: fc.constant({ kind: 'deliver' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'lose' as const }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.nat(6 * MINUTE) }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'jobs' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'timeout' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'cancelOrder' as const }), weight: 1 },
)

test('property: whatever happens to one order, the provider ends up holding its amount if it was delivered, else nothing', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
      await t.test(`run of ${steps.length} steps`, async (run) => {
        const ta = await heldApp(run)
        const buyer = await newBuyer(ta)
        const { data: order } = await createCloudOrder(ta, buyer)
        const sandbox = sandboxProvider(ta)
        const trades: string[] = []
        for (const s of steps) {
          switch (s.kind) {
            case 'startPayment': {
              const reply = await post<CreatePaymentResult>(
                ta.app,
                '/pay/createPayment',
                { orderNo: order.orderNo, payMethod: 1 },
                buyer,
              )
              assert.ok([200, 1080].includes(reply.code), reply.msg)
              if (reply.code === 200) trades.push(reply.data.tradeNo)
              break
            }
            case 'confirm': {
              if (trades.length === 0) break
              const reply = await act(ta, trades[s.trade % trades.length], s.action)
              assert.ok([200, 1080].includes(reply.code), reply.msg)
              break
            }
            case 'deliver':
              await sandbox.outbox.flush()
              break
            case 'lose':
              await sandbox.outbox.close()
              break
            case 'advance':
              ta.clock.advance(s.ms)
              break
            case 'jobs':
              await ta.app.jobs.runDue()
              break
            case 'timeout':
              await timeOutOrders(ta)
              break
            case 'cancelOrder':
              await post<OrderInfo>(ta.app, '/order/cancel', { orderNo: order.orderNo }, buyer)
              break
          }
        }
        // Then time passes with every notification either delivered or lost, and the jobs run.
        await ta.app.jobs.ensureRecurring()
        for (let i = 0; i < 12; i++) {
          await sandbox.outbox.flush()
          ta.clock.advance(2 * MINUTE)
          await ta.app.jobs.runDue()
        }
        await sandbox.outbox.flush()
        const info = await orderInfo(ta, buyer, order.orderNo)
        let held = 0
        for (const tradeNo of trades) held += await sandbox.heldFor(tradeNo)
        const delivered = info.status === 2
        assert.equal(held, delivered ? order.amount : 0, `order status ${info.status}`)
        const open = await ta.database.db.select().from(payments)
        for (const row of open) {
          assert.ok(!['pending', 'refunding'].includes(row.status), `payment left ${row.status}`)
        }
        const left = await ta.database.db.select().from(refunds)
        assert.ok(left.every((row) => row.status === 'succeeded'))
      })
    }),
    { numRuns: 20 },
  )
})
