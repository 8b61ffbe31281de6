/** What the layers above (routes, jobs, the console, the composition root) use of payments/. */
export { PaymentReconciliationService } from './payment-reconciliation'
export { PaymentService } from './payment-service'
export { PaymentSettlementService } from './payment-settlement'
export { RefundService, SEND_REFUND_JOB } from './refund-service'
