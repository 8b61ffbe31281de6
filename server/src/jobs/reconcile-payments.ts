import type { Services } from '../services'
import { SEND_REFUND_JOB } from '../services/payments'
import type { JobDefinition } from './scheduler'

export const RECONCILE_PAYMENTS_JOB = 'reconcile-payments'

/**
 * Every minute: what the providers know and we may not. Each pending trade is asked of the provider
 * that opened it (payments.provider; a paid one is settled as its notification would be, one whose
 * order can no longer be paid is closed there), and each refund not yet final is sent again to, or
 * asked of, the provider that took the money.
 */
export function reconcilePaymentsJob(services: Services): JobDefinition {
  return {
    kind: RECONCILE_PAYMENTS_JOB,
    everyMs: 60_000,
    async run(_payload, now) {
      const trades = await services.paymentReconciliation.reconcile(now)
      const refunds = await services.refunds.reconcile(now)
      if (trades + refunds > 0) {
        services.ctx.log.info({ trades, refunds }, 'payments reconciled with the providers')
      }
    },
  }
}

/** Sends one refund to the provider; queued in the transaction that decided it. Safe to run twice. */
export function sendRefundJob(services: Services): JobDefinition {
  return {
    kind: SEND_REFUND_JOB,
    maxAttempts: 10,
    async run(payload) {
      const refundId = Number(payload.refundId)
      if (!Number.isInteger(refundId)) {
        throw new Error(`bad send-refund payload ${JSON.stringify(payload)}`)
      }
      await services.refunds.advance(refundId)
    },
  }
}
