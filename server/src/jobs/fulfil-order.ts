import type { Services } from '../services'
import { FULFIL_ORDER_JOB } from '../services/orders'
import type { JobDefinition } from './scheduler'

/** Delivers a paid order; queued in the transaction that marked it paid. Safe to run twice. */
export function fulfilOrderJob(services: Services): JobDefinition {
  return {
    kind: FULFIL_ORDER_JOB,
    maxAttempts: 10,
    async run(payload) {
      const orderId = Number(payload.orderId)
      if (!Number.isInteger(orderId))
        throw new Error(`bad fulfil-order payload ${JSON.stringify(payload)}`)
      await services.fulfilment.fulfil(orderId)
    },
  }
}
