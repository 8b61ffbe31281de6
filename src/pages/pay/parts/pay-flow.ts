/** Pay page rules: which methods a runtime offers, and what each order state tells the buyer. */
import type { OrderInfo } from '@/types/api'
import type { RouteName } from '@/constants/routes'
import { WechatPayResult } from '@/domain/enums'
import { isFinal, OrderStatus, PayMethod, payMethodLabels } from '@/domain/order-status'

/**
 * H5: Alipay, WeChat Pay and beans; inside WeChat (the mini-program, and H5 in WeChat's browser):
 * WeChat Pay and beans, as WeChat opens no Alipay page; company users also their account balance. A
 * recharge is never paid with what it recharges (nor a top-up with beans).
 */
export function payMethodsFor(
  runtime: 'applet' | 'h5',
  kind?: OrderInfo['kind'],
  company = false,
  inWeChat = runtime === 'applet',
): { value: PayMethod; label: string }[] {
  const methods: PayMethod[] = inWeChat
    ? [PayMethod.wechatPay, PayMethod.beans]
    : [PayMethod.alipay, PayMethod.wechatPay, PayMethod.beans]
  if (company) methods.push(PayMethod.accountBalance)
  const topUp = kind === 'beanRecharge' || kind === 'balanceRecharge'
  return methods
    .filter((value) => !topUp || value === PayMethod.alipay || value === PayMethod.wechatPay)
    .map((value) => ({ value, label: payMethodLabels[value] }))
}

/** What the buyer is told after a WeChat payment ends (SPEC wechat payment results); ok: nothing. */
export const WECHAT_PAY_MESSAGES: Record<WechatPayResult, string> = {
  ok: '',
  cancel: '支付已取消',
  fail: '支付失败，请重试',
}

/** A code from WeChat's authorisation that this browser did not ask for, or could not read. */
export const WECHAT_REAUTHORISE = '微信授权已失效，请重新点击立即支付'

/** Back from the checkout page: the provider's notification normally lands within this time. */
export const CONFIRM_WINDOW_MS = 8000

/** The page waits for the server's word on a payment: since when, and whether WeChat's sheet said ok. */
export interface Confirming {
  since: number
  wechatOk: boolean
}

/**
 * While the order is still unpaid. After WeChat's ok the money has left the buyer: the page waits for
 * the server for as long as it takes and asks not to pay twice (a late notification, or
 * reconciliation, settles it). Back from a checkout page the buyer may not have paid at all.
 */
export function confirmHint(confirming: Confirming, now: number): string {
  if (confirming.wechatOk) return '微信支付已完成，正在确认支付结果，请勿重复支付'
  return now - confirming.since < CONFIRM_WINDOW_MS
    ? '如已完成支付，请稍候，正在确认支付结果…'
    : '支付未完成，可重新选择支付方式支付'
}

/** The sandbox checkout's choices, as the mini-program's action sheet offers them. */
export const SANDBOX_ACTIONS = [
  { name: '确认支付', action: 'pay', result: WechatPayResult.ok },
  { name: '取消支付', action: 'cancel', result: WechatPayResult.cancel },
  { name: '模拟失败', action: 'fail', result: WechatPayResult.fail },
] as const

export type StageTone = 'waiting' | 'progress' | 'success' | 'closed'

export interface OrderStage {
  tone: StageTone
  title: string
  text: string
}

const DONE: Record<OrderInfo['kind'], string> = {
  new: '云手机已开通，正在创建中，通常几秒后即可使用',
  renew: '续费成功，新的到期时间已生效',
  upgrade: '配置变更成功',
  video: '已升级为视频定制版',
  activationCode: '激活码已生成，可复制后自用或赠送他人',
  beanRecharge: '充值成功，云豆已到账',
  timeToMonth: '转包月成功，新的到期时间已生效',
  balanceRecharge: '充值成功，账户余额已到账',
  cloudSpace: '购买成功，云空间容量已增加',
}

const FULFILLING: Record<OrderInfo['kind'], string> = {
  new: '支付成功，云手机创建中…',
  renew: '支付成功，正在续费…',
  upgrade: '支付成功，正在变更配置…',
  video: '支付成功，正在升级视频定制版…',
  activationCode: '支付成功，正在生成激活码…',
  beanRecharge: '支付成功，云豆到账中…',
  timeToMonth: '正在转包月…',
  balanceRecharge: '支付成功，账户余额到账中…',
  cloudSpace: '支付成功，云空间扩容中…',
}

export function orderStage(
  order: Pick<OrderInfo, 'status' | 'kind'> & Partial<Pick<OrderInfo, 'progress'>>,
): OrderStage {
  switch (order.status) {
    case OrderStatus.unpaid:
      return {
        tone: 'waiting',
        title: '待支付',
        text: '请在倒计时结束前完成支付，超时订单将自动取消',
      }
    case OrderStatus.paid:
      return {
        tone: 'progress',
        title: '支付成功',
        text: order.progress ? renewingText(order.progress) : FULFILLING[order.kind],
      }
    case OrderStatus.completed:
      // a renewal is done once every phone has its new expiry at the supplier (OrderInfo.progress)
      return order.progress && !progressDone(order)
        ? { tone: 'progress', title: '支付成功', text: renewingText(order.progress) }
        : { tone: 'success', title: '支付成功', text: DONE[order.kind] }
    case OrderStatus.cancelled:
      return { tone: 'closed', title: '订单已取消', text: '订单已取消，如需购买请重新下单' }
    case OrderStatus.timedOut:
      return { tone: 'closed', title: '订单已超时', text: '未在规定时间内完成支付，订单已关闭' }
    default:
      return { tone: 'closed', title: '订单已退款', text: '订单已关闭，已支付的款项将原路退回' }
  }
}

/** 续费中 n/N: how many of a renewal's phones already have their new expiry. */
export const renewingText = ({ done, total }: { done: number; total: number }) =>
  `续费中 ${done}/${total}`

const progressDone = (order: Partial<Pick<OrderInfo, 'progress'>>) =>
  !order.progress || order.progress.done >= order.progress.total

/**
 * The order will not change any more: a final state, and for a renewal every phone renewed (a
 * completed renewal of a studio keeps being followed while its phones are renewed one by one).
 */
export const orderSettled = (
  order: Pick<OrderInfo, 'status'> & Partial<Pick<OrderInfo, 'progress'>>,
) => isFinal(order.status) && (order.status !== OrderStatus.completed || progressDone(order))

/**
 * Where a paid order's result leads: to what was bought (phones → 我的云机, beans and the account
 * balance → 我的云豆, space → 云空间); those pages follow the order until it is delivered. Activation
 * codes show on the pay page itself.
 */
export const ORDER_NEXT: Record<
  Exclude<OrderInfo['kind'], 'activationCode'>,
  { label: string; route: RouteName }
> = {
  new: { label: '查看我的云机', route: 'home' },
  renew: { label: '查看续费的云机', route: 'home' },
  upgrade: { label: '查看我的云机', route: 'home' },
  video: { label: '查看我的云机', route: 'home' },
  timeToMonth: { label: '查看我的云机', route: 'home' },
  beanRecharge: { label: '查看我的云豆', route: 'recharge' },
  balanceRecharge: { label: '查看账户余额', route: 'recharge' },
  cloudSpace: { label: '查看云空间', route: 'space' },
}
