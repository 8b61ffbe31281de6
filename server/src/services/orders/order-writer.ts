import type { OrderRow } from './order-insert'
import type { OrderRequest } from './order-request'

/**
 * Where an order is priced, its coupon checked and its row written. Two implementations: one statement
 * for a plain new-phone order (order-at-once.ts, tried first) and the transaction for every order
 * (order-transaction.ts); services/index.ts chains them.
 */
export interface OrderWriter {
  /** The order the request made (or the one its idempotency key made before). */
  write(request: OrderRequest): Promise<OrderRow>
}
