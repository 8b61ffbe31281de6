import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { OrderInfo } from '../../contract/order'
import type {
  CreateSpaceOrderBody,
  DeviceSpace,
  SpaceInfo,
  SpacePackages,
  SpaceTask,
  SpaceTaskKind,
} from '../../contract/space'
import type { Db } from '../../db/client'
import { devices, spaceTasks } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { ResultCode } from '#domain/result-codes'
import { normalisePage, toPaged, type PageRequest } from '../../domain/paging'
import type { ServiceContext } from '../context'
import type { OrderService } from '../orders/order-service'
import { packageOrder } from '../orders/order-request'
import { ownedDevice, toSpaceTask, type SpaceBackupService } from './space-backups'
import { SPACE_PACKAGES, spaceDraft } from './space-packages'
import { activeGrants, isStoredBackup, quotaOf, usedBytes } from './space-quota'
import type { SpaceTaskService } from './space-task-runner'

/**
 * Cloud space, as the space routes and the `space-task` job call it: a free quota per user plus bought
 * grants (space-quota.ts; packages and their orders in space-packages.ts), used by stored backups.
 * Reading it is here; starting and deleting backups and restores is SpaceBackupService (space-backups.ts);
 * the supplier work behind them is SpaceTaskService (space-task-runner.ts). Rules:
 * - a backup needs a running, idle phone; no failed backup of it may be kept (1032, delete it first);
 *   it starts only when the free space is at least the phone's latest backup (1026), and a finished
 *   backup that does not fit is discarded (1039);
 * - a restore writes one of the user's backups onto one of the user's phones, which the supplier shuts
 *   down for it: the phone must be running and idle (1033);
 * - a running backup cannot be deleted (1034), nor a backup being restored (1065).
 */
export class SpaceService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly orders: OrderService,
    private readonly backups: SpaceBackupService,
    private readonly runner: SpaceTaskService,
  ) {}

  /** The free 2 GB plus every grant not yet expired. */
  async quota(userId: number, db: Db): Promise<number> {
    return quotaOf(await activeGrants(db, userId, this.ctx.clock.now()))
  }

  packages(): SpacePackages {
    return { packages: [...SPACE_PACKAGES] }
  }

  /** /order/createOrder: an unpaid space order (business type 4); paying it grants the space once. */
  createSpaceOrder(userId: number, body: CreateSpaceOrderBody): Promise<OrderInfo> {
    const { detail, ...draft } = spaceDraft(body.packageId)
    return this.orders.place(packageOrder(userId, body, draft, { detail: { ...detail } }))
  }

  async info(userId: number): Promise<SpaceInfo> {
    const db = this.ctx.db
    const rows = await db
      .select({
        deviceId: spaceTasks.deviceId,
        deviceName: devices.name,
        usedBytes: sql<string>`sum(${spaceTasks.sizeBytes})`,
        backupCount: count(),
      })
      .from(spaceTasks)
      .innerJoin(devices, eq(devices.id, spaceTasks.deviceId))
      .where(and(eq(spaceTasks.userId, userId), isStoredBackup))
      .groupBy(spaceTasks.deviceId, devices.name)
    const phones = rows
      .map((row) => ({ ...row, usedBytes: Number(row.usedBytes) }))
      .sort((a, b) => b.usedBytes - a.usedBytes || a.deviceId - b.deviceId)
    const grants = await activeGrants(db, userId, this.ctx.clock.now())
    return {
      quotaBytes: quotaOf(grants),
      usedBytes: phones.reduce((sum, row) => sum + row.usedBytes, 0),
      grants,
      devices: phones,
    }
  }

  async deviceSpace(userId: number, deviceId: number): Promise<DeviceSpace> {
    const db = this.ctx.db
    const device = await ownedDevice(db, userId, deviceId)
    const rows = await db
      .select()
      .from(spaceTasks)
      .where(and(eq(spaceTasks.deviceId, deviceId), eq(spaceTasks.userId, userId)))
      .orderBy(desc(spaceTasks.id))
    const backups = rows.filter(
      (row) => row.kind === 'backup' && row.status !== 'running' && !row.deletedAt,
    )
    const running = rows.find((row) => row.status === 'running')
    const lastRestore = rows.find((row) => row.kind === 'restore' && row.status !== 'running')
    return {
      deviceId,
      deviceName: device.name,
      quotaBytes: await this.quota(userId, db),
      usedBytes: await usedBytes(db, userId),
      backups: backups.map(toSpaceTask),
      running: running ? toSpaceTask(running) : null,
      lastRestore: lastRestore ? toSpaceTask(lastRestore) : null,
    }
  }

  async task(userId: number, taskId: number): Promise<SpaceTask> {
    const [row] = await this.ctx.db
      .select()
      .from(spaceTasks)
      .where(and(eq(spaceTasks.id, taskId), eq(spaceTasks.userId, userId)))
    if (!row) throw new BizError(ResultCode.TASK_NOT_EXIST)
    return toSpaceTask(row)
  }

  async history(userId: number, request: PageRequest & { kind?: SpaceTaskKind }) {
    const { page, rows, offset } = normalisePage(request)
    const where = and(
      eq(spaceTasks.userId, userId),
      request.kind ? eq(spaceTasks.kind, request.kind) : undefined,
    )
    const [{ total }] = await this.ctx.db.select({ total: count() }).from(spaceTasks).where(where)
    const found = await this.ctx.db
      .select()
      .from(spaceTasks)
      .where(where)
      .orderBy(desc(spaceTasks.createdAt), desc(spaceTasks.id))
      .limit(rows)
      .offset(offset)
    return toPaged(found.map(toSpaceTask), page, rows, total)
  }

  // ---- backups and restores (space-backups.ts), and the job that runs them (space-task-runner.ts) ----

  backup(userId: number, deviceId: number): Promise<SpaceTask> {
    return this.backups.backup(userId, deviceId)
  }

  restore(userId: number, backupId: number, deviceId: number): Promise<SpaceTask> {
    return this.backups.restore(userId, backupId, deviceId)
  }

  deleteBackup(userId: number, backupId: number): Promise<void> {
    return this.backups.deleteBackup(userId, backupId)
  }

  /** One step of a running task (the `space-task` job). */
  advance(taskId: number): Promise<void | { rerunAt: Date }> {
    return this.runner.advance(taskId)
  }
}
