import { and, asc, count, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm'
import { validateBatchSelection } from '#domain/batch-results'
import { DeviceStatus } from '#domain/device-lifecycle'
import { validateGroupName } from '#domain/validators'
import type { DeviceGroup, GroupList } from '../../contract/group'
import type { Db } from '../../db/client'
import { deviceGroups, devices } from '../../db/schema'
import { tip } from '../../domain/biz-error'
import { isUniqueViolation, type ServiceContext } from '../context'
import { checkName } from './device-operations'
import type { DeviceLifecycleService } from './device-lifecycle'

export const MAX_GROUPS = 100

const nameTaken = () => tip('分组名称已存在')
const groupMissing = () => tip('分组不存在')
const notReleased = ne(devices.status, DeviceStatus.released)

/** A user's device groups (names unique per user, 1–20 characters) and moving phones between them. */
export class GroupService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly lifecycle: DeviceLifecycleService,
  ) {}

  /** Groups matching `where`, each with its count of phones that are not released. */
  private withCounts(where: SQL) {
    return this.ctx.db
      .select({
        groupId: deviceGroups.id,
        name: deviceGroups.name,
        sort: deviceGroups.sort,
        deviceCount: count(devices.id),
      })
      .from(deviceGroups)
      .leftJoin(devices, and(eq(devices.groupId, deviceGroups.id), notReleased))
      .where(where)
      .groupBy(deviceGroups.id)
      .orderBy(asc(deviceGroups.sort), asc(deviceGroups.id))
  }

  async list(userId: number): Promise<GroupList> {
    const groups = await this.withCounts(eq(deviceGroups.userId, userId))
    const [{ ungroupedCount }] = await this.ctx.db
      .select({ ungroupedCount: count() })
      .from(devices)
      .where(and(eq(devices.userId, userId), notReleased, isNull(devices.groupId)))
    const totalCount = ungroupedCount + groups.reduce((sum, g) => sum + g.deviceCount, 0)
    return { groups, ungroupedCount, totalCount }
  }

  private async owned(userId: number, groupId: number) {
    const [group] = await this.ctx.db
      .select()
      .from(deviceGroups)
      .where(and(eq(deviceGroups.id, groupId), eq(deviceGroups.userId, userId)))
    if (!group) throw groupMissing()
    return group
  }

  private async view(groupId: number): Promise<DeviceGroup> {
    const [group] = await this.withCounts(eq(deviceGroups.id, groupId))
    return group
  }

  /** A new group, last in the order; with `deviceIds` it takes those phones in the same transaction. */
  async create(userId: number, rawName: string, deviceIds?: number[]): Promise<DeviceGroup> {
    const name = checkName(rawName, validateGroupName)
    const problem = deviceIds && validateBatchSelection(deviceIds)
    if (problem) throw tip(problem)
    try {
      const groupId = await this.ctx.db.transaction(async (tx) => {
        const [{ n, maxSort }] = await tx
          .select({ n: count(), maxSort: sql<number>`coalesce(max(${deviceGroups.sort}), 0)` })
          .from(deviceGroups)
          .where(eq(deviceGroups.userId, userId))
        if (n >= MAX_GROUPS) throw tip(`最多创建${MAX_GROUPS}个分组`)
        const [group] = await tx
          .insert(deviceGroups)
          .values({ userId, name, sort: Number(maxSort) + 1, createdAt: this.ctx.clock.now() })
          .returning({ id: deviceGroups.id })
        if (deviceIds) await this.moveInto(tx, userId, deviceIds, group.id)
        return group.id
      })
      return this.view(groupId)
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken()
      throw error
    }
  }

  async rename(userId: number, groupId: number, rawName: string): Promise<DeviceGroup> {
    const name = checkName(rawName, validateGroupName)
    await this.owned(userId, groupId)
    try {
      await this.ctx.db.update(deviceGroups).set({ name }).where(eq(deviceGroups.id, groupId))
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken()
      throw error
    }
    return this.view(groupId)
  }

  /** Deletes the group; its phones become 未分组. */
  async delete(userId: number, groupId: number) {
    await this.owned(userId, groupId)
    return this.ctx.db.transaction(async (tx) => {
      const moved = await tx
        .update(devices)
        .set({ groupId: null })
        .where(and(eq(devices.userId, userId), eq(devices.groupId, groupId)))
        .returning({ id: devices.id })
      await tx.delete(deviceGroups).where(eq(deviceGroups.id, groupId))
      return { movedDevices: moved.length }
    })
  }

  /** Sets the order: `groupIds` must be exactly the user's groups, first to last. */
  async sort(userId: number, groupIds: number[]) {
    const mine = await this.ctx.db
      .select({ id: deviceGroups.id })
      .from(deviceGroups)
      .where(eq(deviceGroups.userId, userId))
    const unique = new Set(groupIds)
    if (
      unique.size !== groupIds.length ||
      unique.size !== mine.length ||
      mine.some((g) => !unique.has(g.id))
    ) {
      throw tip('分组列表已变化，请刷新后重试')
    }
    await this.ctx.db.transaction(async (tx) => {
      for (const [i, id] of groupIds.entries()) {
        await tx
          .update(deviceGroups)
          .set({ sort: i + 1 })
          .where(eq(deviceGroups.id, id))
      }
    })
    return this.list(userId)
  }

  /** Moves the user's phones into a group of theirs, or to 未分组 with groupId 0. */
  async moveDevices(userId: number, deviceIds: number[], groupId: number) {
    const problem = validateBatchSelection(deviceIds)
    if (problem) throw tip(problem)
    if (groupId !== 0) await this.owned(userId, groupId)
    return { moved: await this.moveInto(this.ctx.db, userId, deviceIds, groupId) }
  }

  /** Moves the user's phones (none released) to `groupId` (0: 未分组); how many moved. */
  private async moveInto(db: Db, userId: number, deviceIds: number[], groupId: number) {
    const phones = await this.lifecycle.ownedDevices(db, userId, deviceIds)
    if (phones.some((d) => d.status === DeviceStatus.released)) throw tip('云手机已释放')
    const moved = await db
      .update(devices)
      .set({ groupId: groupId === 0 ? null : groupId })
      .where(
        and(
          eq(devices.userId, userId),
          inArray(
            devices.id,
            phones.map((d) => d.deviceId),
          ),
        ),
      )
      .returning({ id: devices.id })
    return moved.length
  }
}
