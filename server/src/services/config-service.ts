import { asc, eq } from 'drizzle-orm'
import { PayMethod } from '#domain/order-status'
import type { CommonConfig, DeviceStatusEntry, DictEntry } from '../contract/config'
import { commonConfig, deviceStatuses, dictionaries } from '../db/schema'
import { DEFAULT_COMMON_CONFIG } from '../db/seed'
import type { ServiceContext } from './context'

/** Read-only reference data: common config, dictionaries, device status list. */
export class CommonConfigService {
  constructor(private readonly ctx: ServiceContext) {}

  async commonConfig(): Promise<CommonConfig> {
    const rows = await this.ctx.db.select().from(commonConfig)
    const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]))
    const pick = (key: keyof CommonConfig) => stored[key] ?? DEFAULT_COMMON_CONFIG[key]
    return {
      renewalReminderMsg: pick('renewalReminderMsg'),
      customerServicePhone: pick('customerServicePhone'),
      customerServiceHours: pick('customerServiceHours'),
      appVersion: pick('appVersion'),
      wechatPayCodeScenes: this.ctx.paymentProviders.payerOpenIdScenes(PayMethod.wechatPay),
    }
  }

  async dictionary(dictType: 'industry' | 'worktype'): Promise<DictEntry[]> {
    return this.ctx.db
      .select({
        id: dictionaries.id,
        name: dictionaries.name,
        value: dictionaries.value,
        parentId: dictionaries.parentId,
      })
      .from(dictionaries)
      .where(eq(dictionaries.dictType, dictType))
      .orderBy(asc(dictionaries.parentId), asc(dictionaries.sort), asc(dictionaries.id))
  }

  async deviceStatuses(): Promise<DeviceStatusEntry[]> {
    return this.ctx.db.select().from(deviceStatuses).orderBy(asc(deviceStatuses.status))
  }
}
