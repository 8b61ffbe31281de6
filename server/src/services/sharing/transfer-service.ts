import { randomUUID } from 'node:crypto'
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { validateMobile } from '#domain/validators'
import { ResultCode } from '#domain/result-codes'
import type {
  TransferDevicesBody,
  TransferDirection,
  TransferRecord,
  TransferRefusal,
  TransferResult,
} from '../../contract/transfer'
import type { Db } from '../../db/client'
import { deviceGroups, deviceTransfers, devices, spaceTasks, users } from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import { maskPhone } from '#domain/formatters'
import { normalisePage, toPaged, type PageRequest } from '../../domain/paging'
import { openPlanOrders } from '../orders/plan-orders'
import type { ServiceContext } from '../context'
import type { GrantService } from './grant-service'
import { MAX_GROUPS } from '../devices/group-service'
import { refusal } from '../devices/device-view'
import { MessageKind, type MessageService } from '../engagement/message-service'
import type { SmsService } from '../accounts/sms-service'

export const BACKUP_RUNNING = '云手机正在备份或恢复数据，完成后才能转移'

type DeviceRow = typeof devices.$inferSelect

/**
 * Device/transfer (docs/cloud-phones.md "Transfer"): the owner moves phones to another account after
 * confirming with a code sent to the owner's own number. The phones keep their remaining time; each
 * goes into the receiver's group of the same name as its group (see moveGroups); their backups and
 * history move with them; the owner's control-page tokens stop working because they are checked against the owner.
 */
export class TransferService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly sms: SmsService,
    private readonly messages: MessageService,
    private readonly grants: GrantService,
  ) {}

  async transfer(userId: number, body: TransferDevicesBody): Promise<TransferResult> {
    const mobileProblem = validateMobile(body.mobilePhone)
    if (mobileProblem) throw tip(mobileProblem)
    const deviceIds = [...new Set(body.deviceIds)]
    const db = this.ctx.db
    const [sender] = await db.select().from(users).where(eq(users.id, userId))
    if (!sender?.mobilePhone) throw tip('请先绑定手机号')
    if (!sender.passwordHash) throw new BizError(ResultCode.MUST_SET_PASSWORD)
    const [receiver] = await db
      .select()
      .from(users)
      .where(eq(users.mobilePhone, body.mobilePhone.trim()))
    if (!receiver || receiver.deletedAt) throw tip('该手机号尚未注册云手机账号')
    if (receiver.id === userId) throw tip('不能转移给自己')
    if (receiver.frozen) throw tip('对方账号已被冻结，无法接收')

    // Refusals first, so a phone that cannot move does not use up the code.
    await this.checkTransferable(db, userId, deviceIds)
    await this.sms.consume(sender.mobilePhone, 'transfer', body.smsCode)

    const batchId = randomUUID()
    const now = this.ctx.clock.now()
    const moved = await db.transaction(async (tx) => {
      // Locked and checked again: a phone taken by a concurrent transfer or operation stays put.
      const phones = await this.checkTransferable(tx, userId, deviceIds, true)
      await tx
        .update(devices)
        .set({ userId: receiver.id, groupId: null })
        .where(and(inArray(devices.id, deviceIds), eq(devices.userId, userId)))
      await this.moveGroups(tx, receiver.id, phones)
      await tx
        .update(spaceTasks)
        .set({ userId: receiver.id })
        .where(inArray(spaceTasks.deviceId, deviceIds))
      await this.grants.revokeForDevices(tx, deviceIds)
      await tx.insert(deviceTransfers).values(
        phones.map((phone) => ({
          batchId,
          fromUserId: userId,
          toUserId: receiver.id,
          deviceId: phone.id,
          deviceName: phone.name,
          expireAt: phone.expireAt,
          createdAt: now,
        })),
      )
      const names = phones.map((phone) => phone.name).join('、')
      await this.messages.sendMessage(
        userId,
        MessageKind.TRANSFER,
        '云手机已转出',
        `您的${phones.length}台云手机（${names}）已转移至账号 ${maskPhone(receiver.mobilePhone ?? '')}，剩余时长随云手机一并转移。`,
        tx,
      )
      await this.messages.sendMessage(
        receiver.id,
        MessageKind.TRANSFER,
        '云手机已转入',
        `账号 ${maskPhone(sender.mobilePhone ?? '')} 向您转移了${phones.length}台云手机（${names}），剩余时长、分组和备份一并转入。`,
        tx,
      )
      return phones.length
    })
    return { batchId, count: moved, toMobile: maskPhone(receiver.mobilePhone ?? '') }
  }

  /**
   * The phones' groups come along by name: each phone goes into the receiver's group of the same name,
   * made when the receiver has none (and still has room for one); otherwise it lands in 未分组.
   */
  private async moveGroups(tx: Db, receiverId: number, phones: DeviceRow[]) {
    const groupIds = [
      ...new Set(phones.map((p) => p.groupId).filter((id): id is number => id !== null)),
    ]
    if (groupIds.length === 0) return
    const senderGroups = await tx
      .select({ id: deviceGroups.id, name: deviceGroups.name })
      .from(deviceGroups)
      .where(inArray(deviceGroups.id, groupIds))
    for (const group of senderGroups) {
      const target = await this.receiverGroup(tx, receiverId, group.name)
      if (target === null) continue
      const ids = phones.filter((p) => p.groupId === group.id).map((p) => p.id)
      await tx.update(devices).set({ groupId: target }).where(inArray(devices.id, ids))
    }
  }

  private async receiverGroup(tx: Db, userId: number, name: string): Promise<number | null> {
    const mine = eq(deviceGroups.userId, userId)
    const [found] = await tx
      .select({ id: deviceGroups.id })
      .from(deviceGroups)
      .where(and(mine, eq(deviceGroups.name, name)))
    if (found) return found.id
    const [{ n, maxSort }] = await tx
      .select({ n: count(), maxSort: sql<number>`coalesce(max(${deviceGroups.sort}), 0)` })
      .from(deviceGroups)
      .where(mine)
    if (n >= MAX_GROUPS) return null
    const [made] = await tx
      .insert(deviceGroups)
      .values({ userId, name, sort: Number(maxSort) + 1, createdAt: this.ctx.clock.now() })
      .returning({ id: deviceGroups.id })
    return made.id
  }

  /**
   * The phones, all the caller's and all able to move now; otherwise CAN_NOT_DO_TRANSFER (1330) with
   * every phone that cannot and why. `lock` takes the rows for the transaction that moves them.
   */
  private async checkTransferable(
    db: Db,
    userId: number,
    deviceIds: number[],
    lock = false,
  ): Promise<DeviceRow[]> {
    const query = db
      .select()
      .from(devices)
      .where(and(inArray(devices.id, deviceIds), eq(devices.userId, userId)))
    const phones = lock ? await query.for('update') : await query
    if (phones.length !== deviceIds.length) throw tip('云手机不存在或不属于您的账号')
    const backingUp = await db
      .selectDistinct({ deviceId: spaceTasks.deviceId })
      .from(spaceTasks)
      .where(and(inArray(spaceTasks.deviceId, deviceIds), eq(spaceTasks.status, 'running')))
    const busy = new Set(backingUp.map((row) => row.deviceId))
    // A renewal or change priced for this owner's plan would otherwise be paid for the next owner's.
    const unpaid = await openPlanOrders(db, deviceIds)
    const refused: TransferRefusal['devices'] = []
    for (const phone of phones) {
      const order = unpaid.get(phone.id)
      const reason =
        refusal(phone) ??
        (busy.has(phone.id)
          ? BACKUP_RUNNING
          : order
            ? `有${order.paid ? '正在生效' : '待支付'}的订单 ${order.orderNo}`
            : null)
      if (reason) refused.push({ deviceId: phone.id, name: phone.name, reason })
    }
    if (refused.length > 0) {
      const data: TransferRefusal = { devices: refused }
      throw new BizError(
        ResultCode.CAN_NOT_DO_TRANSFER,
        `${refused.length}台云手机暂不能转移：${refused[0].name}${refused[0].reason}`,
        data,
      )
    }
    return phones
  }

  /** Sent (`out`) or received (`in`) phones, newest first. */
  async list(userId: number, direction: TransferDirection, request: PageRequest) {
    const { page, rows, offset } = normalisePage(request)
    const mine =
      direction === 'out'
        ? eq(deviceTransfers.fromUserId, userId)
        : eq(deviceTransfers.toUserId, userId)
    const other = direction === 'out' ? deviceTransfers.toUserId : deviceTransfers.fromUserId
    const [{ total }] = await this.ctx.db
      .select({ total: count() })
      .from(deviceTransfers)
      .where(mine)
    const found = await this.ctx.db
      .select({ transfer: deviceTransfers, otherMobile: users.mobilePhone })
      .from(deviceTransfers)
      .innerJoin(users, eq(users.id, other))
      .where(mine)
      .orderBy(desc(deviceTransfers.createdAt), desc(deviceTransfers.id))
      .limit(rows)
      .offset(offset)
    const records: TransferRecord[] = found.map(({ transfer, otherMobile }) => ({
      id: transfer.id,
      batchId: transfer.batchId,
      deviceId: transfer.deviceId,
      deviceName: transfer.deviceName,
      expireAt: transfer.expireAt.getTime(),
      otherMobile: maskPhone(otherMobile ?? ''),
      createdAt: transfer.createdAt.getTime(),
    }))
    return toPaged(records, page, rows, total)
  }
}
