/**
 * Order states and which of them are final — apart from the rest of order-status.ts (labels, pay
 * methods, the countdown) because the paid-orders store in the app's first bundle needs only these.
 */
export const OrderStatus = {
  unpaid: 0,
  paid: 1,
  completed: 2,
  cancelled: 3,
  timedOut: 4,
  refunded: 5,
} as const
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus]

const FINAL_STATUSES: readonly number[] = [
  OrderStatus.completed,
  OrderStatus.cancelled,
  OrderStatus.timedOut,
  OrderStatus.refunded,
]

/** No further transition happens (paid is still being fulfilled). */
export function isFinal(status: number): boolean {
  return FINAL_STATUSES.includes(status)
}
