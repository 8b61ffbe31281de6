import { OrderStatus } from '#domain/order-status'
import type { Services } from '../services'
import type { JobDefinition } from './scheduler'

export const TIMEOUT_ORDERS_JOB = 'timeout-orders'

/** Every 30 s: unpaid orders past their deadline become 已超时 and give their stock back. */
export function timeoutOrdersJob(services: Services): JobDefinition {
  return {
    kind: TIMEOUT_ORDERS_JOB,
    everyMs: 30_000,
    async run(_payload, now) {
      let closed = 0
      for (const orderId of await services.orders.overdue(now)) {
        if (await services.orders.close(orderId, OrderStatus.timedOut)) closed++
      }
      if (closed > 0) services.ctx.log.info({ closed }, 'timed out unpaid orders')
    },
  }
}
