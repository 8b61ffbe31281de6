/** Payment calls (docs/cloud-phones.md "Payment"). */
import type {
  BeanBalance,
  CreatePaymentBody,
  CreatePaymentResult,
  SandboxAction,
} from '@/types/api'
import { client } from '@/runtime/request'
import { purchaseOutcome } from './order'

/** Starts paying an order (own, or by a shared link): a checkout address, or paid at once with beans. */
export const createPayment = async (body: CreatePaymentBody) =>
  purchaseOutcome(
    await client.postOutcome<CreatePaymentResult>('/pay/createPayment', body, {
      loading: '正在发起支付',
    }),
  )

/** The sandbox checkout's three buttons, for the mini-program's action sheet. */
export const sandboxPayAct = async (tradeNo: string, action: SandboxAction) =>
  (await client.post<unknown>('/sandbox/pay/act', { tradeNo, action })).data

/** Cloud beans I hold (1 bean pays 1 fen); shown beside the beans method, so no overlay. */
export const getBeanBalance = async () =>
  (await client.get<BeanBalance>('/pay/beanBalance', undefined, { loading: false })).data

export const payApi = { createPayment, sandboxPayAct, getBeanBalance }
export type PayApi = typeof payApi
