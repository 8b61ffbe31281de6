import { eq, sql } from 'drizzle-orm'
import { durationLabel } from '#domain/catalogue'
import {
  acceptsCommands,
  canRenew,
  remainingMs,
  statusCommandRefusal,
} from '#domain/device-lifecycle'
import { BusinessType } from '#domain/enums'
import {
  DAY_MS,
  dailyPrice,
  orderTotal,
  renewalQuote,
  unitPrice,
  upgradeQuote,
  validateQuantity,
  videoUpgradeQuote,
  type PriceRow,
} from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import { users } from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import { BIG_USER_MAX_PER_ORDER, firstOrderOf, isCompany } from './buyer-standing'
import type { ServiceContext } from '../context'
import type { DeviceLifecycleService, OwnedDevice } from '../devices/device-lifecycle'
import type { GoodsRow, GoodsService } from '../catalogue/goods-service'
import { emptyDraft, type OrderDraft } from './order-draft'
import type { OrderItem } from './order-request'
import { refuseWhilePlanOrderOpen } from './plan-orders'
import { takeSeckillUnit } from './seckill-units'

/** How old a quote for remaining time may be and still be charged as shown. */
export const QUOTE_GRACE_MS = 10 * 60_000

const listPrice = (price: PriceRow) => Math.max(price.goodPrice, price.oldGoodPrice ?? 0)

/**
 * Prices every kind of order from the catalogue and the caller's phones, with the shared rules of
 * src/domain/pricing.ts. The quote endpoint and order creation both use it, so what the buyer was shown
 * is exactly what the order charges.
 */
export class OrderPricing {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly goods: GoodsService,
    private readonly lifecycle: DeviceLifecycleService,
    /** A buyer whose first-order standing is known (read under their row lock, order-transaction.ts). */
    private readonly buyer: { userId: number; firstOrder: boolean } | null = null,
  ) {}

  // at and forBuyer are value-like copies: the same collaborators (built once in services/index.ts)
  // with another clock or a known buyer, made per order and dropped with it.

  /** The same pricing as of another moment (for a quote the buyer saw a little earlier). */
  at(time: number): OrderPricing {
    const clock = { now: () => new Date(time) }
    return new OrderPricing({ ...this.ctx, clock }, this.goods, this.lifecycle, this.buyer)
  }

  /** The same pricing for a buyer whose first-order standing was just read. */
  forBuyer(userId: number, firstOrder: boolean): OrderPricing {
    return new OrderPricing(this.ctx, this.goods, this.lifecycle, { userId, firstOrder })
  }

  private now() {
    return this.ctx.clock.now().getTime()
  }

  /**
   * What the order costs: the item priced by its kind, and a recent quote of remaining time honoured
   * (an upgrade's or the video edition's price falls a little every minute: a quote shown up to
   * QUOTE_GRACE_MS ago, between the price now and the price then, is charged as shown instead of being
   * refused with 1023).
   */
  async priceOrder(db: Db, userId: number, item: OrderItem, expected: number): Promise<OrderDraft> {
    const draft = await this.price(db, userId, item)
    const timePriced = draft.kind === 'upgrade' || draft.kind === 'video'
    if (
      !timePriced ||
      draft.amount === 0 ||
      !Number.isInteger(expected) ||
      expected <= draft.amount
    ) {
      return draft
    }
    const earlier = await this.at(this.now() - QUOTE_GRACE_MS).price(db, userId, item)
    if (expected > earlier.amount) return draft
    const lines = draft.lines.map((line) => ({ ...line, unitPrice: expected, amount: expected }))
    return { ...draft, amount: expected, originalAmount: expected, lines }
  }

  /** The item priced by its kind, as an order of it would be now. */
  async price(db: Db, userId: number, item: OrderItem): Promise<OrderDraft> {
    switch (item.kind) {
      case 'new':
        if (item.bigUser && !(await isCompany(db, userId))) {
          throw new BizError(
            ResultCode.SHOW_ERROR_TIPS,
            '大客户采购仅对企业用户开放，请先完成企业认证',
          )
        }
        return this.newPhones(db, userId, item, { bigUser: item.bigUser })
      case 'renew':
        return this.renewal(db, userId, item)
      case 'upgrade':
        return this.upgrade(db, userId, item)
      case 'video':
        return this.video(db, userId, item)
      case 'activationCode':
        return this.activationCodes(db, item)
      case 'seckill':
        return takeSeckillUnit(db, this.goods, this.ctx.clock, userId, item)
      case 'package':
        if (item.companyOnly !== null && !(await isCompany(db, userId))) {
          throw tip(item.companyOnly)
        }
        return item.draft
    }
  }

  /** A user's first cloud-phone order (firstOrderOf). */
  async isFirstOrder(db: Db, userId: number | null): Promise<boolean> {
    if (userId == null) return true
    if (this.buyer?.userId === userId) return this.buyer.firstOrder
    const [row] = await preparedOn(db, 'first_order_of_user', (db) =>
      db
        .select({ firstOrder: firstOrderOf(db, sql.placeholder('userId')) })
        .from(users)
        .where(eq(users.id, sql.placeholder('userId'))),
    ).execute({ userId })
    return row?.firstOrder ?? true
  }

  private checkQuantity(quantity: number, max: number) {
    const problem = validateQuantity(quantity, max)
    if (problem) throw new BizError(ResultCode.GOODS_QUANTITY_OVER_LIMIT, problem)
  }

  /** Units of one goods at one duration: the part new-phone orders and activation codes share. */
  private async purchase(
    db: Db,
    kind: 'new' | 'activationCode',
    input: { goodId: number; priceId: number; quantity: number },
    options: { minLimit: number; isFirstOrder: boolean },
  ): Promise<OrderDraft> {
    const good = await this.goods.requireGoods(input.goodId, db)
    const price = await this.goods.requirePrice(input.priceId, good.id, db)
    this.checkQuantity(input.quantity, Math.max(good.maxPerOrder, options.minLimit))
    const quote = orderTotal(price, input.quantity, {
      isFirstOrder: options.isFirstOrder,
      now: this.now(),
    })
    const businessType =
      kind === 'new' ? BusinessType.cloudMachine : BusinessType.activationCodeMall
    return {
      ...emptyDraft(kind, businessType),
      amount: quote.total,
      originalAmount: quote.originalAmount,
      quantity: input.quantity,
      goodId: good.id,
      priceId: price.priceId,
      goodTime: price.goodTime,
      lines: quote.lines,
    }
  }

  async newPhones(
    db: Db,
    userId: number | null,
    input: { goodId: number; priceId: number; quantity: number; zoneId?: number },
    options: { bigUser?: boolean } = {},
  ): Promise<OrderDraft> {
    // First-purchase eligibility is the creator's, also for a link order someone else pays.
    const draft = await this.purchase(db, 'new', input, {
      minLimit: options.bigUser ? BIG_USER_MAX_PER_ORDER : 0,
      isFirstOrder: await this.isFirstOrder(db, userId),
    })
    if (input.zoneId === undefined) return draft
    if (!(await this.goods.getZoneOnSale(input.zoneId, db))) throw tip('所选地区不存在')
    return {
      ...draft,
      zoneId: input.zoneId,
      reserve: { goodId: draft.goodId!, zoneId: input.zoneId, quantity: input.quantity },
    }
  }

  activationCodes(db: Db, input: { goodId: number; priceId: number; quantity: number }) {
    return this.purchase(db, 'activationCode', input, { minLimit: 0, isFirstOrder: false })
  }

  /**
   * Renewal by one duration. Phones of different goods are each priced by their own goods' row of that
   * duration; aligning expiries needs one goods (its pro-rata rate decides the extra time's price).
   */
  async renewal(
    db: Db,
    userId: number,
    input: { deviceIds: number[]; priceId: number; alignToLatest: boolean },
  ): Promise<OrderDraft> {
    const now = this.now()
    const devices = await this.lifecycle.ownedDevices(db, userId, input.deviceIds)
    await refuseWhilePlanOrderOpen(
      db,
      devices.map((d) => d.deviceId),
    )
    for (const device of devices) {
      if (!canRenew(device.status)) {
        throw tip(
          `云手机 ${device.deviceId}：${statusCommandRefusal(device.status) ?? '暂不能续费'}`,
        )
      }
    }
    const chosen = await this.goods.priceById(input.priceId, db)
    if (!chosen) throw new BizError(ResultCode.PRICE_INCONSISTENT, '所选续费时长不存在')
    const byGoods = new Map<number, OwnedDevice[]>()
    for (const device of devices) {
      const group = byGoods.get(device.goodId)
      if (group) group.push(device)
      else byGoods.set(device.goodId, [device])
    }
    if (input.alignToLatest && byGoods.size > 1) {
      throw new BizError(
        ResultCode.PRICE_INCONSISTENT,
        '不同配置的云手机不能对齐到期时间，请分开续费',
      )
    }
    const draft: OrderDraft = {
      ...emptyDraft('renew', BusinessType.cloudMachine),
      quantity: devices.length,
      priceId: chosen.priceId,
      goodTime: chosen.goodTime,
      deviceIds: devices.map((d) => d.deviceId),
    }
    for (const [goodId, group] of byGoods) {
      const price =
        goodId === chosen.goodId ? chosen : await this.goods.priceFor(goodId, chosen.goodTime, db)
      if (!price) {
        throw new BizError(ResultCode.PRICE_INCONSISTENT, '所选续费时长不适用于所选云手机')
      }
      const good = (await this.goods.getGoods(goodId, db)) as GoodsRow
      const quote = renewalQuote(group, price, { alignToLatest: input.alignToLatest, now })
      const period = unitPrice(price, { firstPurchaseEligible: false, now })
      const extra = quote.total - period * group.length
      draft.lines.push({
        label: `${good.name} 续费${durationLabel(price.goodTime)}`,
        unitPrice: period,
        quantity: group.length,
        amount: period * group.length,
      })
      if (extra > 0) {
        draft.lines.push({ label: '对齐到期时间', unitPrice: extra, quantity: 1, amount: extra })
      }
      draft.amount += quote.total
      draft.originalAmount += listPrice(price) * group.length + extra
      draft.goodId ??= goodId
      // The video edition is part of the plan: its fee is charged for every day a renewal adds.
      let videoFees = 0
      let videoPhones = 0
      const byId = new Map(group.map((d) => [d.deviceId, d]))
      for (const line of quote.lines) {
        const device = byId.get(line.deviceId) as OwnedDevice
        const addMs = line.newExpireAt - Math.max(device.expireAt, now)
        const videoFee = device.videoEdition ? videoUpgradeQuote(good.videoDailyFee ?? 0, addMs) : 0
        videoFees += videoFee
        if (videoFee > 0) videoPhones++
        draft.renewals.push({ ...line, amount: line.amount + videoFee, addMs })
      }
      if (videoFees > 0) {
        draft.lines.push({
          label: `视频定制版 续${durationLabel(price.goodTime)}`,
          unitPrice: Math.round(videoFees / videoPhones),
          quantity: videoPhones,
          amount: videoFees,
        })
        draft.amount += videoFees
        draft.originalAmount += videoFees
      }
    }
    return draft
  }

  private async changeableDevice(
    db: Db,
    userId: number,
    deviceId: number,
    permission: string,
    refusal: string,
  ) {
    const [device] = await this.lifecycle.ownedDevices(db, userId, [deviceId])
    await refuseWhilePlanOrderOpen(db, [deviceId])
    if (!acceptsCommands(device.status)) {
      throw tip(statusCommandRefusal(device.status) ?? '云手机当前状态不能变更')
    }
    const from = await this.goods.getGoods(device.goodId, db)
    if (!from) throw new BizError(ResultCode.GOODS_NOT_EXIST)
    if (!from.permissions.includes(permission)) throw tip(refusal)
    return { device, from }
  }

  /** Up- or downgrade for the remaining time, at the goods' monthly daily rates. */
  async upgrade(
    db: Db,
    userId: number,
    input: { deviceId: number; toGoodId: number },
  ): Promise<OrderDraft> {
    const now = this.now()
    const { device, from } = await this.changeableDevice(
      db,
      userId,
      input.deviceId,
      'upOrDownConfig',
      '该云手机不支持升降配',
    )
    const to = await this.goods.requireGoods(input.toGoodId, db)
    if (to.id === from.id) throw tip('已是该配置，无需变更')
    if (to.androidVersion !== from.androidVersion) throw tip('只能变更为相同安卓版本的配置')
    if (device.videoEdition && to.videoDailyFee == null) {
      throw tip('目标配置不支持视频定制版，请选择其他配置')
    }
    // A video-edition phone's daily rate includes its video fee, on both sides of the change.
    const videoFee = (good: GoodsRow) => (device.videoEdition ? (good.videoDailyFee ?? 0) : 0)
    const fromDaily = dailyPrice(await this.goods.referencePrice(from.id, db)) + videoFee(from)
    const toDaily = dailyPrice(await this.goods.referencePrice(to.id, db)) + videoFee(to)
    const remaining = remainingMs(device.expireAt, now)
    const quote = upgradeQuote(fromDaily, toDaily, remaining)
    return {
      ...emptyDraft('upgrade', BusinessType.cloudMachineUpgrade),
      amount: quote.amount,
      originalAmount: quote.amount,
      goodId: to.id,
      zoneId: device.zoneId,
      deviceIds: [device.deviceId],
      lines: [
        {
          label: `${from.name} → ${to.name}（剩余${Math.ceil(remaining / DAY_MS)}天）`,
          unitPrice: quote.amount,
          quantity: 1,
          amount: quote.amount,
        },
      ],
      reserve: { goodId: to.id, zoneId: device.zoneId, quantity: 1 },
      upgrade: {
        fromGoodId: from.id,
        direction: quote.direction,
        newExpireAt: now + quote.newRemainingMs,
      },
    }
  }

  async video(db: Db, userId: number, input: { deviceId: number }): Promise<OrderDraft> {
    const { device, from } = await this.changeableDevice(
      db,
      userId,
      input.deviceId,
      'videoChangeOpType',
      '该云手机不支持升级视频定制版',
    )
    if (device.videoEdition) throw tip('该云手机已是视频定制版')
    if (from.videoDailyFee == null) throw tip('该配置暂不支持视频定制版')
    const amount = videoUpgradeQuote(from.videoDailyFee, remainingMs(device.expireAt, this.now()))
    return {
      ...emptyDraft('video', BusinessType.cloudMachineUpgrade),
      amount,
      originalAmount: amount,
      goodId: from.id,
      zoneId: device.zoneId,
      deviceIds: [device.deviceId],
      lines: [{ label: '升级视频定制版', unitPrice: amount, quantity: 1, amount }],
    }
  }
}
