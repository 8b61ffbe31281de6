/**
 * 自动续费 rules shared by the client and the server (docs/orders.md "Auto-renewal"): what pays for it,
 * how its state reads on a phone card, and the refusals the job records.
 */
import { PayMethod } from './order-status'

/** What an auto-renewal is paid from: never a payment provider (no 委托代扣 contract). */
export const AUTO_RENEW_PAY_METHODS = [PayMethod.beans, PayMethod.accountBalance] as const
export type AutoRenewPayMethod = (typeof AUTO_RENEW_PAY_METHODS)[number]

export const isAutoRenewPayMethod = (method: number): method is AutoRenewPayMethod =>
  (AUTO_RENEW_PAY_METHODS as readonly number[]).includes(method)

export const autoRenewPayLabels: Record<AutoRenewPayMethod, string> = {
  [PayMethod.beans]: '云豆',
  [PayMethod.accountBalance]: '企业账户余额',
}

/** A phone's setting as the API returns it (Device.autoRenew); null when it is off. */
export interface AutoRenewState {
  /** The duration each renewal adds, in days (a price row's goodTime). */
  days: number
  payMethod: AutoRenewPayMethod
  /** Why the last attempt failed, for the phone's current expiry; null when none failed. */
  failure: string | null
}

/** The short balance's refusal, as recorded and as the owner's message says it. */
export const shortBalanceRefusal = (method: AutoRenewPayMethod) =>
  method === PayMethod.beans ? '云豆余额不足' : '企业账户余额不足'

export const AUTO_RENEW_REFUSALS = {
  frozen: '账号已冻结',
  notCompany: '账户余额支付仅对企业用户开放',
  noSuchDuration: '该配置已无所选续费时长，请重新设置自动续费',
} as const

/** The card's one line: 自动续费 (and its failure when the last attempt failed). */
export const autoRenewCardText = (state: AutoRenewState) =>
  state.failure ? `自动续费失败：${state.failure}` : '自动续费'
