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
} from '../../types/api'
import { ResultCode, resultMessages, type ApiEnvelope } from '@/domain/result-codes'
import { client, type RequestOptions } from './request'

/**
 * What a call that may answer with one of SPEC 8's soft codes resolves with: the data on success, else
 * the code and its message (the request layer resolves those bodies instead of rejecting).
 */
export type Outcome<T> = { ok: true; data: T } | { ok: false; code: number; msg: string }

/** Clear messages for the soft codes a purchase can meet. */
export const SOFT_CODE_MESSAGES: Record<number, string> = {
  [ResultCode.CLOUD_OUT_OF_STOCK]: '所选地区库存不足，请更换地区或减少购买数量',
  [ResultCode.INSUFFICIENT_ACCOUNT_BALANCE]: '账户余额不足，请更换支付方式',
  [ResultCode.OVER_CLOUD_SPACE]: resultMessages[ResultCode.OVER_CLOUD_SPACE],
}

export function toOutcome<T>(body: ApiEnvelope<T>): Outcome<T> {
  if (body.code === ResultCode.RESULT_OK) return { ok: true, data: body.data }
  return { ok: false, code: body.code, msg: SOFT_CODE_MESSAGES[body.code] ?? body.msg }
}

const create = async <T>(path: string, body: T) =>
  toOutcome(await client.post<OrderInfo>(path, body, { loading: '正在提交订单' }))

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
