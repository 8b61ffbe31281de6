/**
 * The console's 自动续费: a phone's setting (its page) and the phones whose last try failed (the list
 * on 云手机). Read only: operators see what the job did and why; the owner switches it.
 */
import { and, count, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type {
  AdminAutoRenewPage,
  AdminAutoRenewRow,
  AdminDeviceAutoRenew,
  AutoRenewFailureQuery,
} from '../contract/auto-renew'
import { deviceAutoRenew, devices, orders, users } from '../../db/schema'
import { normalisePage, toPaged } from '../../domain/paging'
import type { ServiceContext } from '../../services/context'

const ms = (date: Date | null) => date?.getTime() ?? null

const columns = {
  setting: deviceAutoRenew,
  deviceName: devices.name,
  deviceStatus: devices.status,
  deviceOwner: devices.userId,
  expireAt: devices.expireAt,
  userName: users.name,
  mobile: users.mobilePhone,
  lastOrderNo: orders.orderNo,
}

/** The failure is the current cycle's only while it was for the phone's expiry as it is now. */
const currentFailure = sql`${deviceAutoRenew.failedForExpireAt} = ${devices.expireAt}`

type Found = {
  setting: typeof deviceAutoRenew.$inferSelect
  deviceName: string
  deviceStatus: number
  deviceOwner: number
  expireAt: Date
  userName: string
  mobile: string | null
  lastOrderNo: string | null
}

function row(found: Found): AdminAutoRenewRow {
  const { setting } = found
  const current = setting.failedForExpireAt?.getTime() === found.expireAt.getTime()
  return {
    deviceId: setting.deviceId,
    deviceName: found.deviceName,
    deviceStatus: found.deviceStatus,
    expireAt: found.expireAt.getTime(),
    userId: setting.userId,
    userName: found.userName,
    mobile: found.mobile,
    days: setting.days,
    payMethod: setting.payMethod,
    failure: current ? setting.failure : null,
    failedAt: current ? ms(setting.failedAt) : null,
    renewedAt: ms(setting.renewedAt),
    lastOrderId: setting.lastOrderId,
    lastOrderNo: found.lastOrderNo,
    stale: setting.userId !== found.deviceOwner,
  }
}

export class AdminAutoRenewService {
  constructor(private readonly ctx: ServiceContext) {}

  private select() {
    return this.ctx.db
      .select(columns)
      .from(deviceAutoRenew)
      .innerJoin(devices, eq(devices.id, deviceAutoRenew.deviceId))
      .innerJoin(users, eq(users.id, deviceAutoRenew.userId))
      .leftJoin(orders, eq(orders.id, deviceAutoRenew.lastOrderId))
  }

  async ofDevice(deviceId: number): Promise<AdminDeviceAutoRenew> {
    const [found] = await this.select().where(eq(deviceAutoRenew.deviceId, deviceId))
    return found ? row(found) : null
  }

  /** Newest failure first, read from the partial index of failed rows (device_auto_renew_failed_idx). */
  async failures(query: AutoRenewFailureQuery): Promise<AdminAutoRenewPage> {
    const { page, rows, offset } = normalisePage({ page: query.page, rows: query.rows ?? 20 })
    const where = and(isNotNull(deviceAutoRenew.failure), currentFailure)
    const [found, [{ total }]] = await Promise.all([
      this.select()
        .where(where)
        .orderBy(desc(deviceAutoRenew.failedAt), desc(deviceAutoRenew.deviceId))
        .limit(rows)
        .offset(offset),
      this.ctx.db
        .select({ total: count() })
        .from(deviceAutoRenew)
        .innerJoin(devices, eq(devices.id, deviceAutoRenew.deviceId))
        .where(where),
    ])
    return toPaged(found.map(row), page, rows, total)
  }
}
