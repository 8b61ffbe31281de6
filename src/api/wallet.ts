/** Cloud beans (docs/api.md "Cloud beans"): packages, recharge orders, the ledger, beans to a month. */
import type {
  AccountBalance,
  AgentBalanceRechargeBody,
  BeanLedgerEntry,
  CreateRechargeOrderBody,
  CreateTimeToMonthOrderBody,
  OrderInfo,
  RechargePackages,
  TimeToMonthQuote,
  TimeToMonthResult,
} from '@/types/api'
import { client } from '@/runtime/request'

export const getRechargePackages = async () =>
  (await client.get<RechargePackages>('/wallet/rechargePackages')).data

/** An unpaid recharge order, paid on pay/pay. */
export const createRechargeOrder = async (body: CreateRechargeOrderBody) =>
  (await client.post<OrderInfo>('/order/createRechargeOrder', body, { loading: '正在提交订单' }))
    .data

/** Newest first; `range` is [start, end) in epoch ms. */
export const listBeanLedger = (
  page: number,
  rows?: number,
  range?: { start: number; end: number },
) =>
  client.fetchPage<BeanLedgerEntry>({
    url: '/wallet/beanLedger',
    page,
    rows,
    params: range ? { startTime: range.start, endTime: range.end } : {},
  })

export const getTimeToMonthQuote = async (deviceId: number) =>
  (await client.get<TimeToMonthQuote>('/wallet/timeToMonthQuote', { deviceId })).data

/** Rejects with ApiError 1015 when beans are short. */
export const createTimeToMonthOrder = async (body: CreateTimeToMonthOrderBody) =>
  (
    await client.post<TimeToMonthResult>('/order/createTimeToMonthOrder', body, {
      loading: '正在转包月',
    })
  ).data

/** A company's account balance in fen (`enabled` only for company users). */
export const getAccountBalance = async () =>
  (await client.get<AccountBalance>('/wallet/accountBalance', undefined, { loading: false })).data

/** An unpaid account-balance top-up (company users), paid on pay/pay. */
export const agentBalanceRecharge = async (body: AgentBalanceRechargeBody) =>
  (await client.post<OrderInfo>('/order/agentBalanceRecharge', body, { loading: '正在提交订单' }))
    .data

export const walletApi = {
  getAccountBalance,
  agentBalanceRecharge,
  getRechargePackages,
  createRechargeOrder,
  listBeanLedger,
  getTimeToMonthQuote,
  createTimeToMonthOrder,
}
export type WalletApi = typeof walletApi
