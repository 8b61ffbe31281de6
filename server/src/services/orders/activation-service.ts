import { and, count, desc, eq } from 'drizzle-orm'
import { ACTIVATION_CODE_PATTERN, normaliseActivationCode } from '#domain/activation-codes'
import { durationLabel } from '#domain/catalogue'
import { canRenew, statusCommandRefusal } from '#domain/device-lifecycle'
import { DAY_MS } from '#domain/pricing'
import { ResultCode } from '#domain/result-codes'
import type { ActivateBody, ActivateResult, MyCode, MyCodesQuery } from '../../contract/activation'
import { ActivationCodeStatus, activationCodes, goods, orders } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { normalisePage, toPaged } from '../../domain/paging'
import type { ServiceContext } from '../context'
import type { DeviceLifecycleService } from '../devices/device-lifecycle'
import type { GoodsService } from '../catalogue/goods-service'
import { MessageKind, type MessageService } from '../engagement/message-service'
import { refuseWhilePlanOrderOpen } from './plan-orders'

export const CODE_USED = '激活码已被使用'
export const CODE_UNKNOWN = '激活码不存在'

const codeStatusText: Record<number, string> = { 0: '未使用', 1: '已使用' }

/** Activation codes: each one, once, makes a new phone or renews one of the user's phones. */
export class ActivationService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly goods: GoodsService,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly messages: MessageService,
  ) {}

  /**
   * The code is claimed with a conditional update, so of two concurrent activations exactly one wins;
   * everything after it (stock, the phone) is in the same transaction, so a failure leaves it unused.
   */
  async activate(userId: number, body: ActivateBody): Promise<ActivateResult> {
    const code = normaliseActivationCode(body.code)
    if (!ACTIVATION_CODE_PATTERN.test(code))
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, CODE_UNKNOWN)
    return this.ctx.db.transaction(async (tx) => {
      const now = this.ctx.clock.now()
      const [claimed] = await tx
        .update(activationCodes)
        .set({ status: ActivationCodeStatus.used, usedBy: userId, usedAt: now })
        .where(
          and(
            eq(activationCodes.code, code),
            eq(activationCodes.status, ActivationCodeStatus.unused),
          ),
        )
        .returning()
      if (!claimed) {
        const [exists] = await tx
          .select({ id: activationCodes.id })
          .from(activationCodes)
          .where(eq(activationCodes.code, code))
        throw new BizError(ResultCode.SHOW_ERROR_TIPS, exists ? CODE_USED : CODE_UNKNOWN)
      }
      const good = await this.goods.getGoods(claimed.goodId, tx)
      if (!good) throw new BizError(ResultCode.GOODS_NOT_EXIST)
      const lifecycle = this.lifecycle
      let result: ActivateResult
      if (body.renewDeviceId) {
        const [device] = await lifecycle.ownedDevices(tx, userId, [body.renewDeviceId])
        await refuseWhilePlanOrderOpen(tx, [device.deviceId])
        // A code carries plain time; the video edition's fee is paid with a renewal (续费) instead.
        if (device.videoEdition) {
          throw new BizError(ResultCode.SHOW_ERROR_TIPS, '视频定制版云手机请通过续费延长时长')
        }
        if (!canRenew(device.status)) {
          throw new BizError(
            ResultCode.SHOW_ERROR_TIPS,
            statusCommandRefusal(device.status) ?? '该云手机暂不能续费',
          )
        }
        if (device.goodId !== claimed.goodId) {
          throw new BizError(
            ResultCode.SHOW_ERROR_TIPS,
            `该激活码只能用于「${good.name}」配置的云手机`,
          )
        }
        const expireAt = Math.max(device.expireAt, now.getTime()) + claimed.goodTime * DAY_MS
        await lifecycle.extendDevices(tx, [{ deviceId: device.deviceId, newExpireAt: expireAt }])
        result = {
          kind: 'renew',
          deviceId: device.deviceId,
          goodId: good.id,
          goodTime: claimed.goodTime,
          expireAt,
        }
      } else {
        const zoneId = await this.goods.reserveAnyZone(tx, good.id)
        if (zoneId === null) {
          throw new BizError(
            ResultCode.CLOUD_OUT_OF_STOCK,
            `「${good.name}」暂时售罄，请稍后再试或用于续费`,
          )
        }
        const [deviceId] = await lifecycle.createDevicesForOrder(tx, {
          userId,
          orderId: claimed.orderId,
          goodId: good.id,
          zoneId,
          quantity: 1,
          days: claimed.goodTime,
        })
        await this.messages.sendMessage(
          userId,
          MessageKind.CREATE,
          '云手机创建中',
          `激活码已激活，您的「${good.name}」（${durationLabel(claimed.goodTime)}）正在创建，稍后即可在「我的云机」中使用。`,
          tx,
        )
        result = {
          kind: 'new',
          deviceId,
          goodId: good.id,
          goodTime: claimed.goodTime,
          expireAt: now.getTime() + claimed.goodTime * DAY_MS,
        }
      }
      await tx
        .update(activationCodes)
        .set({ deviceId: result.deviceId })
        .where(eq(activationCodes.id, claimed.id))
      return result
    })
  }

  /** Codes the user bought, newest first. */
  async myCodes(userId: number, query: MyCodesQuery) {
    const { page, rows, offset } = normalisePage(query)
    const where = and(
      eq(activationCodes.ownerId, userId),
      query.status === undefined ? undefined : eq(activationCodes.status, query.status),
    )
    const [{ total }] = await this.ctx.db
      .select({ total: count() })
      .from(activationCodes)
      .where(where)
    const found = await this.ctx.db
      .select({ code: activationCodes, goodsName: goods.name, orderNo: orders.orderNo })
      .from(activationCodes)
      .innerJoin(goods, eq(goods.id, activationCodes.goodId))
      .innerJoin(orders, eq(orders.id, activationCodes.orderId))
      .where(where)
      .orderBy(desc(activationCodes.createdAt), desc(activationCodes.id))
      .limit(rows)
      .offset(offset)
    const records: MyCode[] = found.map(({ code, goodsName, orderNo }) => ({
      code: code.code,
      goodId: code.goodId,
      goodsName,
      goodTime: code.goodTime,
      durationLabel: durationLabel(code.goodTime),
      status: code.status,
      statusText: codeStatusText[code.status] ?? '',
      usedAt: code.usedAt?.getTime() ?? null,
      deviceId: code.deviceId,
      orderNo,
      createdAt: code.createdAt.getTime(),
    }))
    return toPaged(records, page, rows, total)
  }
}
