import { and, eq } from 'drizzle-orm'
import { DeviceStatus, statusCommandRefusal } from '#domain/device-lifecycle'
import { canDo, isDevicePermission, type DeviceAction } from '#domain/device-permissions'
import { grantAllows } from '#domain/grants'
import type { Device } from '../../contract/device'
import type { Db } from '../../db/client'
import { devices } from '../../db/schema'
import { tip } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import { refusal, selectDevices, shownGrant } from './device-view'
import { deviceNotFound } from './device-lifecycle'
import type { GrantService } from '../sharing/grant-service'

/** A grantee with view permission asking to control the phone. */
export const VIEW_ONLY = '该云手机仅授权您查看，无法操作'

/**
 * Which phone a caller may see, control or change: its owner, or someone it is authorised to now.
 * Every device call starts here; someone else's phone is refused like an unknown one (1031), so its
 * existence is not revealed.
 */
export class DeviceAccessService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly grants: GrantService,
  ) {}

  /** The user's phone, or 1031 (also for someone else's phone). */
  async owned(userId: number, deviceId: number, db: Db) {
    const [row] = await selectDevices(db).where(
      and(eq(devices.id, deviceId), eq(devices.userId, userId)),
    )
    if (!row) throw deviceNotFound()
    return row
  }

  /** The user's phone unless released (云手机已释放). */
  async live(userId: number, deviceId: number, db: Db) {
    const row = await this.owned(userId, deviceId, db)
    if (row.device.status === DeviceStatus.released) {
      throw tip(statusCommandRefusal(DeviceStatus.released)!)
    }
    return row
  }

  /** What is authorised to the user now, by phone (the grant as a Device shows it). */
  async grantedTo(userId: number): Promise<Map<number, NonNullable<Device['grant']>>> {
    const rows = await this.grants.grantsTo(userId, this.ctx.db)
    return new Map(rows.map((g) => [g.deviceId, shownGrant(g)]))
  }

  /**
   * The phone if it is the user's, or authorised to the user now with at least `need`; released or
   * neither: the same refusal as an unknown phone. Returns the grant (null for the owner).
   */
  async accessible(userId: number, deviceId: number, need: 'view' | 'control') {
    const [row] = await selectDevices(this.ctx.db).where(eq(devices.id, deviceId))
    if (!row) throw deviceNotFound()
    if (row.device.userId === userId)
      return { row: await this.live(userId, deviceId, this.ctx.db), grant: null }
    const grant = (await this.grantedTo(userId)).get(deviceId)
    if (!grant || row.device.status === DeviceStatus.released) throw deviceNotFound()
    if (!grantAllows(grant.permission, need)) throw tip(VIEW_ONLY)
    return { row, grant }
  }

  /** The user's phone, which must offer `action` now (status, busy, goods permissions). */
  async ready(userId: number, deviceId: number, action: DeviceAction, notAllowed: string) {
    const row = await this.live(userId, deviceId, this.ctx.db)
    const d = row.device
    const why = action === 'replace' && d.status === DeviceStatus.failed ? null : refusal(d) // a failed phone is replaced
    if (why) throw tip(why)
    const input = {
      status: d.status,
      permissions: row.permissions.filter(isDevicePermission),
      videoEdition: d.videoEdition,
    }
    if (!canDo(input, action)) throw tip(notAllowed)
    return row
  }
}
