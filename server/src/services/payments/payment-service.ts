import { randomBytes } from 'node:crypto'
import { describeOrder, PayMethod } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import {
  PaymentProviderRefusal,
  type PaymentStart,
  type PayScene,
} from '../../adapters/payment/payment-provider'
import type { PaymentProviders } from '../../adapters/payment/payment-providers'
import { WechatAuthError } from '../../adapters/wechat/wechat-adapter'
import type { CreatePaymentBody, CreatePaymentResult } from '../../contract/payment'
import { payments } from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import type { BeanService } from '../wallet/bean-service'
import type { ServiceContext } from '../context'
import { isCompany } from '../orders/buyer-standing'
import type { OrderRow } from '../orders/order-insert'
import type { OrderReads } from '../orders/order-reads'
import { markPaid, payRefusal } from './payment-settlement'
import { debitAccount } from '../wallet/wallet-service'

/** Where the checkout page sends the buyer back: an app path only, never another site. */
export function safeReturnUrl(url: string | undefined, orderNo: string): string {
  if (!url) return `/pages/pay/pay?orderNo=${orderNo}`
  if (!/^\/(?![/\\])[^\s\\]*$/.test(url)) throw tip('返回地址须为本应用内的页面路径')
  return url
}

/**
 * WeChat Pay inside WeChat (JSAPI) needs the payer's openid in the app the scene pays through, when the
 * provider says so (needsPayerOpenId; the config's wechatPayCodeScenes tells the client). The client
 * sends a fresh code and the server exchanges it, so an openid is never taken from a client. A code
 * missing or refused is 1004 (微信账号为空, SPEC 8): the client gets a new code and asks again. A code
 * the provider does not need is ignored, never exchanged.
 */
export const WXCODE_MISSING_MESSAGE = '缺少微信授权，请重新进入页面后再支付'
export const WXCODE_REFUSED_MESSAGE = '微信授权已失效，请重新进入页面后再支付'

/** 31 characters: WeChat Pay's out_trade_no takes 6-32 (Alipay's 64); 88 random bits. */
const newTradeNo = () =>
  `T${Date.now().toString(36).toUpperCase()}${randomBytes(11).toString('hex')}`

/**
 * Paying orders: with beans or the account balance at once (settled here, in one transaction), or by
 * opening a trade with the pay method's provider. What the provider then says of the trade is
 * payment-settlement.ts's business (its notification) and payment-reconciliation.ts's (asking about it
 * when the notification is late).
 */
export class PaymentService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly providers: PaymentProviders,
    private readonly orders: OrderReads,
    private readonly beans: BeanService,
  ) {}

  /** `clientIp`: the buyer's IP as the server sees it (Fastify's request.ip, behind trustProxy). */
  async createPayment(
    userId: number,
    body: CreatePaymentBody,
    clientIp: string,
  ): Promise<CreatePaymentResult> {
    let order: OrderRow
    if (body.link) order = await this.orders.byLink(body.link, this.ctx.db)
    else if (body.orderNo) order = await this.orders.ownOrder(userId, body.orderNo, this.ctx.db)
    else throw tip('缺少参数 orderNo')
    const now = this.ctx.clock.now()
    const refusal = payRefusal(order, now.getTime())
    if (refusal) throw tip(refusal)
    if (order.kind === 'beanRecharge' && body.payMethod === PayMethod.beans) {
      throw tip('云豆充值请使用微信支付或支付宝')
    }
    if (body.payMethod === PayMethod.accountBalance) {
      if (order.kind === 'balanceRecharge') throw tip('账户余额充值请使用微信支付或支付宝')
      if (!(await isCompany(this.ctx.db, userId))) {
        throw tip('账户余额支付仅对企业用户开放')
      }
    }
    const returnUrl = safeReturnUrl(body.returnUrl, order.orderNo)
    const tradeNo = newTradeNo()
    const record = {
      tradeNo,
      orderId: order.id,
      payerId: userId,
      payMethod: body.payMethod,
      amount: order.amount,
      returnUrl,
      createdAt: now,
    }
    if (body.payMethod === PayMethod.beans || body.payMethod === PayMethod.accountBalance) {
      const method = body.payMethod
      await this.ctx.db.transaction(async (tx) => {
        const locked = (await this.orders.lock(tx, order.id))!
        const stillRefused = payRefusal(locked, now.getTime())
        if (stillRefused) throw tip(stillRefused)
        if (method === PayMethod.beans) {
          await this.beans.debit(tx, userId, locked.amount, {
            reason: 'order',
            orderId: locked.id,
            // what was bought: the row shows the order number beside it
            remark: describeOrder(await this.orders.info(locked, userId, tx)),
          })
        } else {
          await debitAccount(tx, now, userId, locked.amount, {
            reason: 'order',
            orderId: locked.id,
          })
        }
        const provider = method === PayMethod.beans ? 'beans' : 'accountBalance'
        await tx.insert(payments).values({ ...record, provider, status: 'paid', settledAt: now })
        await markPaid(tx, this.ctx.clock.now(), locked, userId, method)
      })
      return {
        tradeNo,
        orderNo: order.orderNo,
        payMethod: body.payMethod,
        checkoutUrl: null,
        wxPayParams: null,
        paid: true,
      }
    }
    const scene = body.scene ?? 'browser'
    const provider = this.providers.forMethod(body.payMethod)
    let start: PaymentStart
    try {
      start = await provider.createPayment({
        tradeNo,
        orderNo: order.orderNo,
        amount: order.amount,
        payMethod: body.payMethod,
        returnUrl,
        expiresAt: order.payDeadline,
        scene,
        openId: provider.needsPayerOpenId(body.payMethod, scene)
          ? await this.payerOpenId(scene, body.wxCode)
          : null,
        clientIp,
        description: `云手机订单 ${order.orderNo}`,
      })
    } catch (error) {
      // The provider's own refusal (Alipay inside WeChat, say) is said to the buyer as it is.
      if (error instanceof PaymentProviderRefusal) throw tip(error.message)
      throw error
    }
    await this.ctx.db.insert(payments).values({ ...record, provider: provider.name })
    return {
      tradeNo,
      orderNo: order.orderNo,
      payMethod: body.payMethod,
      checkoutUrl: start.checkoutUrl,
      wxPayParams: start.wxPayParams ?? null,
      paid: false,
    }
  }

  /** The payer's openid from the client's code (see WXCODE_MISSING_MESSAGE). */
  private async payerOpenId(scene: PayScene, wxCode: string | undefined) {
    if (!wxCode) throw new BizError(ResultCode.WECHAT_ACCOUNT_EMPTY, WXCODE_MISSING_MESSAGE)
    try {
      const identity =
        scene === 'miniProgram'
          ? await this.ctx.wechat.code2session(wxCode)
          : await this.ctx.wechat.oauthCode(wxCode)
      return identity.openid
    } catch (error) {
      if (!(error instanceof WechatAuthError)) throw error
      this.ctx.log.warn({ err: error.message, scene }, 'wechat code for payment rejected')
      throw new BizError(ResultCode.WECHAT_ACCOUNT_EMPTY, WXCODE_REFUSED_MESSAGE)
    }
  }
}
