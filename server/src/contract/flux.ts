import { Type, type Static } from '@sinclair/typebox'
import { OrderKind } from './order'

/** An order of the caller's that is paid and not yet delivered: what it changes is on its way. */
export const PaidOrder = Type.Object({
  orderNo: Type.String(),
  kind: OrderKind,
  quantity: Type.Integer(),
})
export type PaidOrder = Static<typeof PaidOrder>

/**
 * What of the caller's is in flux — changing by itself, without the caller doing anything — and the
 * versions of their phone list and balances. A page showing server state polls this while something
 * it shows is in flux and reads its own data again when the part it shows changed
 * (docs/cloud-phones.md, "Screens follow the server").
 */
export const UserFlux = Type.Object({
  /** Raised by every change of the caller's phone list (fleet_versions); 0 before the first. */
  fleetVersion: Type.Integer(),
  /**
   * Raised by every change of the caller's cloud beans or company account balance (each balance row's
   * `version`); 0 before the first.
   */
  walletVersion: Type.Integer(),
  /** Oldest first. */
  paidOrders: Type.Array(PaidOrder),
  /** The caller's own phones creating, rebooting or busy with an operation. */
  busyPhones: Type.Integer(),
  /** The caller's running backups and restores, by task id. */
  runningTasks: Type.Array(Type.Integer()),
})
export type UserFlux = Static<typeof UserFlux>
