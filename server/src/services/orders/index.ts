/** What the layers above (routes, jobs, the console, the composition root) use of orders/. */
export { ActivationService } from './activation-service'
export { FULFIL_ORDER_JOB, FulfilmentService } from './fulfilment-service'
export type { OrderRow } from './order-insert'
export { refundPaidOrder } from './order-refund'
export { OrderService } from './order-service'
export { refuseWhilePlanOrderOpen } from './plan-orders'
