import { eq, sql } from 'drizzle-orm'
import { AUTO_RENEW_REFUSALS } from '#domain/auto-renew'
import { DeviceStatus } from '#domain/device-lifecycle'
import { PayMethod } from '#domain/order-status'
import type { SetAutoRenewBody, SetAutoRenewResult } from '../../contract/auto-renew'
import { intArray } from '../../db/id-arrays'
import { deviceAutoRenew } from '../../db/schema'
import { tip } from '../../domain/biz-error'
import type { GoodsService } from '../catalogue/goods-service'
import type { ServiceContext } from '../context'
import type { DeviceLifecycleService } from '../devices/device-lifecycle'
import { isCompany } from '../orders/buyer-standing'

export const AUTO_RENEW_MISSING_CHOICE = '请选择自动续费的续费时长和支付方式'
export const AUTO_RENEW_NO_DURATION = '所选续费时长不适用于所选云手机'

/** Phones that can no longer be renewed at all, as their refusal says it: released, or never created. */
const ENDED_TEXT: Partial<Record<number, string>> = {
  [DeviceStatus.released]: '已释放',
  [DeviceStatus.failed]: '创建失败',
}

/**
 * The owner's 自动续费 settings: on (a duration of the phones' goods, paid from beans or the company
 * balance) or off, for any of their phones at once. Renewing is AutoRenewRun's (the job).
 */
export class AutoRenewService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly goods: GoodsService,
  ) {}

  /**
   * All the phones or none: someone else's phone is 1031 like an unknown one, a released phone, a
   * duration one of their goods does not sell, or the company balance for a personal user is refused
   * (1080) with nothing changed. Switching on again clears the last failure.
   */
  async set(userId: number, body: SetAutoRenewBody): Promise<SetAutoRenewResult> {
    const { db } = this.ctx
    const phones = await this.lifecycle.ownedDevices(db, userId, body.deviceIds)
    const ids = phones.map((phone) => phone.deviceId)
    if (!body.enabled) {
      await db
        .delete(deviceAutoRenew)
        .where(sql`${deviceAutoRenew.deviceId} = any(${intArray(ids)})`)
      return { updated: ids.length, autoRenew: null, daysBefore: this.daysBefore }
    }
    const { days, payMethod } = body
    if (days === undefined || payMethod === undefined) throw tip(AUTO_RENEW_MISSING_CHOICE)
    const ended = phones.find((phone) => ENDED_TEXT[phone.status])
    if (ended) throw tip(`云手机 ${ended.deviceId} ${ENDED_TEXT[ended.status]}，不能设置自动续费`)
    if (payMethod === PayMethod.accountBalance && !(await isCompany(db, userId))) {
      throw tip(AUTO_RENEW_REFUSALS.notCompany)
    }
    for (const goodId of new Set(phones.map((phone) => phone.goodId))) {
      if (!(await this.goods.priceFor(goodId, days, db))) throw tip(AUTO_RENEW_NO_DURATION)
    }
    const at = sql`${this.ctx.clock.now().toISOString()}::timestamptz`
    // one statement for any count (a studio's 10,000): the ids as one array parameter
    await db.execute(sql`
      insert into ${deviceAutoRenew} (device_id, user_id, days, pay_method, created_at, updated_at)
      select id, ${userId}, ${days}, ${payMethod}, ${at}, ${at} from unnest(${intArray(ids)}) as id
      on conflict (device_id) do update set
        user_id = excluded.user_id, days = excluded.days, pay_method = excluded.pay_method,
        failure = null, failed_at = null, failed_for_expire_at = null, retry_at = null,
        updated_at = excluded.updated_at`)
    return {
      updated: ids.length,
      autoRenew: { days, payMethod, failure: null },
      daysBefore: this.daysBefore,
    }
  }

  private get daysBefore() {
    return this.ctx.settings.autoRenewDaysBefore
  }

  /** One phone's row, as stored (tests and the console read it). */
  async row(deviceId: number) {
    const [row] = await this.ctx.db
      .select()
      .from(deviceAutoRenew)
      .where(eq(deviceAutoRenew.deviceId, deviceId))
    return row ?? null
  }
}
