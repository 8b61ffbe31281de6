/** Order calls (docs/cloud-phones.md "Calls": /order/*). */
import type {
  CancelOrderBody,
  CreateBigUserLinkOrderBody,
  CreateCloudOrderBody,
  CreateRenewOrderBody,
  CreateUpOrDownOrderBody,
  CreateVideoOrderBody,
  OrderInfo,
  OrderInfoQuery,
  PurchaseActivationCodeBody,
} from '@/types/api'
import { ResultCode, resultMessages } from '@/domain/result-codes'
import { client } from '@/runtime/request'
import type { Outcome, RequestOptions } from '@/runtime/request-types'

export type { Outcome } from '@/runtime/request-types'

/** Clear messages for the soft codes a purchase can meet. */
export const SOFT_CODE_MESSAGES: Record<number, string> = {
  [ResultCode.CLOUD_OUT_OF_STOCK]: '所选地区库存不足，请更换地区或减少购买数量',
  [ResultCode.INSUFFICIENT_ACCOUNT_BALANCE]: '账户余额不足，请更换支付方式',
  [ResultCode.OVER_CLOUD_SPACE]: resultMessages[ResultCode.OVER_CLOUD_SPACE],
}

/** A purchase's refusal in the buyer's words (the server's own message for other codes). */
export function purchaseOutcome<T>(outcome: Outcome<T>): Outcome<T> {
  if (outcome.ok) return outcome
  return { ...outcome, msg: SOFT_CODE_MESSAGES[outcome.code] ?? outcome.msg }
}

const create = async <T>(path: string, body: T) =>
  purchaseOutcome(await client.postOutcome<OrderInfo>(path, body, { loading: '正在提交订单' }))

export const createCloudOrder = (body: CreateCloudOrderBody) =>
  create('/order/createCloudOrder', body)

export const createBigUserLinkOrder = (body: CreateBigUserLinkOrderBody) =>
  create('/order/createBigUserLinkOrder', body)

export const createRenewOrder = (body: CreateRenewOrderBody) =>
  create('/order/createRenewOrder', body)

export const createUpOrDownOrder = (body: CreateUpOrDownOrderBody) =>
  create('/order/createUpOrDownOrder', body)

export const createVideoOrder = (body: CreateVideoOrderBody) =>
  create('/order/createVideoOrder', body)

export const purchaseActivationCode = (body: PurchaseActivationCodeBody) =>
  create('/order/purchaseActivationCode', body)

/** By orderNo, or by the token of a shared payment link. */
export const getOrderInfo = async (
  query: OrderInfoQuery,
  options?: Pick<RequestOptions, 'loading'>,
) => (await client.get<OrderInfo>('/order/getOrderInfo', query, options)).data

export const cancelOrder = async (body: CancelOrderBody) =>
  (await client.post<OrderInfo>('/order/cancel', body)).data

export const orderApi = {
  createCloudOrder,
  createBigUserLinkOrder,
  createRenewOrder,
  createUpOrDownOrder,
  createVideoOrder,
  purchaseActivationCode,
  getOrderInfo,
  cancelOrder,
}
export type OrderApi = typeof orderApi
