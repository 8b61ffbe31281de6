import { randomInt } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { durationLabel } from '#domain/catalogue'
import { OrderStatus } from '#domain/order-status'
import { ACTIVATION_CODE_ALPHABET, ACTIVATION_CODE_LENGTH } from '#domain/activation-codes'
import type { Db } from '../../db/client'
import { activationCodes, goods, orders } from '../../db/schema'
import { isBizError } from '../../domain/biz-error'
import { enqueueJob } from '../../job-queue'
import type { BeanService } from '../wallet/bean-service'
import type { ServiceContext } from '../context'
import type { DeviceLifecycleService } from '../devices/device-lifecycle'
import type { GoodsService } from '../catalogue/goods-service'
import { MessageKind, type MessageService } from '../engagement/message-service'
import type { OrderDraft } from './order-draft'
import type { OrderRow } from './order-insert'
import { isPlanOrderKind, requirePlansUnchanged, type PlanVersions } from './plan-orders'
import { refundPaidOrder } from './order-refund'
import { grantSpace } from '../space/space-quota'
import { creditAccount, creditRecharge } from '../wallet/wallet-service'

export const FULFIL_ORDER_JOB = 'fulfil-order'

export function newActivationCode(): string {
  let code = ''
  for (let i = 0; i < ACTIVATION_CODE_LENGTH; i++) {
    code += ACTIVATION_CODE_ALPHABET[randomInt(ACTIVATION_CODE_ALPHABET.length)]
  }
  return code
}

/** Queues fulfilment in the caller's transaction, so a paid order always gets (exactly) one job. */
export function enqueueFulfilment(tx: Db, now: Date, orderId: number) {
  return enqueueJob(
    tx,
    now,
    FULFIL_ORDER_JOB,
    { orderId },
    { uniqueKey: `fulfil-order:${orderId}` },
  )
}

/**
 * Delivers a paid order: new phones, extended expiries, a changed configuration, the video edition or
 * activation codes. Runs as a job; the order row is locked and must still be paid, so a job run twice
 * (a retry, a crash after commit) delivers once.
 */
export class FulfilmentService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly goods: GoodsService,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly messages: MessageService,
    private readonly beans: BeanService,
  ) {}

  /**
   * true when this call delivered the order. When delivery is refused for a business reason (the phone
   * was released before a renewal was paid, the goods vanished), nothing of it stays (a savepoint) and
   * the order is refunded instead of being retried forever.
   */
  async fulfil(orderId: number): Promise<boolean> {
    return this.ctx.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
      if (!order || order.status !== OrderStatus.paid) return false
      let deviceIds: number[] | null
      try {
        deviceIds = await tx.transaction((savepoint) => this.deliver(savepoint, order))
      } catch (error) {
        if (!isBizError(error)) throw error
        await this.refund(tx, order, error.message)
        return false
      }
      await tx
        .update(orders)
        .set({
          status: OrderStatus.completed,
          completedAt: this.ctx.clock.now(),
          deviceIds: deviceIds ?? order.deviceIds,
        })
        .where(eq(orders.id, orderId))
      return true
    })
  }

  private async deliver(tx: Db, order: OrderRow): Promise<number[] | null> {
    const owner = order.buyerId ?? order.userId
    const now = this.ctx.clock.now().getTime()
    const lifecycle = this.lifecycle
    // Priced against the phones' plans when made: delivered only onto those plans, else refunded.
    // (Orders made before migration 0016 carry no versions.)
    const planVersions = (order.detail as { planVersions?: PlanVersions }).planVersions
    if (isPlanOrderKind(order.kind) && planVersions) await requirePlansUnchanged(tx, planVersions)
    switch (order.kind) {
      case 'new': {
        const ids = await lifecycle.createDevicesForOrder(tx, {
          userId: owner,
          orderId: order.id,
          goodId: order.goodId!,
          zoneId: order.zoneId!,
          quantity: order.quantity,
          days: order.goodTime!,
        })
        const [good] = await tx.select().from(goods).where(eq(goods.id, order.goodId!))
        await this.messages.sendMessage(
          owner,
          MessageKind.CREATE,
          '云手机创建中',
          `您购买的${order.quantity}台「${good.name}」（${durationLabel(order.goodTime!)}）已支付成功，正在为您创建，稍后即可在「我的云机」中使用。订单号 ${order.orderNo}`,
          tx,
        )
        return ids
      }
      case 'renew': {
        // Extend by the time bought from the phone's expiry as it is now (another renewal may have
        // been paid in between), never from the expiry seen when the order was priced.
        const renewals = (order.detail as Pick<OrderDraft, 'renewals'>).renewals
        const current = new Map(
          (
            await lifecycle.ownedDevices(
              tx,
              order.userId,
              renewals.map((line) => line.deviceId),
            )
          ).map((device) => [device.deviceId, device]),
        )
        // Set-based: a few statements whatever the count, so a 10,000-phone studio's
        // renewal holds its phones' locks for well under a second per thousand.
        await lifecycle.extendDevices(
          tx,
          renewals.map((line) => ({
            deviceId: line.deviceId,
            newExpireAt: Math.max(current.get(line.deviceId)!.expireAt, now) + line.addMs,
          })),
          { orderId: order.id },
        )
        return null
      }
      case 'upgrade': {
        const upgrade = (order.detail as Pick<OrderDraft, 'upgrade'>).upgrade!
        const [device] = await lifecycle.ownedDevices(tx, order.userId, order.deviceIds)
        await lifecycle.applyConfigChange(tx, {
          deviceId: device.deviceId,
          toGoodId: order.goodId!,
          newExpireAt: device.expireAt,
        })
        // The reserved unit of the new configuration is now in use; the old one is free again.
        await this.goods.returnStock(tx, upgrade.fromGoodId, device.zoneId, 1)
        return null
      }
      case 'video':
        await lifecycle.applyVideoEdition(tx, order.deviceIds[0])
        return null
      case 'activationCode':
        await this.generateCodes(tx, order, owner)
        return null
      case 'beanRecharge':
        await creditRecharge(this.beans, tx, order)
        return null
      case 'balanceRecharge':
        await creditAccount(tx, this.ctx.clock.now(), owner, order.amount, {
          reason: 'recharge',
          orderId: order.id,
        })
        return null
      case 'cloudSpace':
        await grantSpace(tx, this.ctx.clock.now(), order)
        return null
      case 'timeToMonth':
        // Settled when created (beans and the new expiry in one transaction); never queued.
        return null
    }
  }

  /** Money back (refundPaidOrder), and the stock markPaid took over from the reservation. */
  private async refund(tx: Db, order: OrderRow, reason: string) {
    await refundPaidOrder(
      tx,
      { now: this.ctx.clock.now(), beans: this.beans, messages: this.messages },
      order,
      reason,
      `订单 ${order.orderNo} 未能完成（${reason}），已为您原路退款。`,
    )
    if (order.reservedGoodId && order.reservedZoneId) {
      // What markPaid took over from the reservation was never delivered.
      const units = order.kind === 'new' ? order.quantity : 1
      await this.goods.returnStock(tx, order.reservedGoodId, order.reservedZoneId, units)
    }
    this.ctx.log.warn({ orderId: order.id, reason }, 'order refunded: delivery refused')
  }

  private async generateCodes(tx: Db, order: OrderRow, ownerId: number) {
    const createdAt = this.ctx.clock.now()
    let made = 0
    while (made < order.quantity) {
      const batch = Array.from({ length: order.quantity - made }, () => ({
        code: newActivationCode(),
        orderId: order.id,
        ownerId,
        goodId: order.goodId!,
        goodTime: order.goodTime!,
        createdAt,
      }))
      // A clash with an existing code (31^16 makes it vanishingly rare) is skipped and drawn again.
      const inserted = await tx
        .insert(activationCodes)
        .values(batch)
        .onConflictDoNothing()
        .returning({ id: activationCodes.id })
      made += inserted.length
    }
  }
}
