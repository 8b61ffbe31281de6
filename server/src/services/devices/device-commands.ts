import { and, eq, inArray, or, sql } from 'drizzle-orm'
import { validateBatchSelection, type CommandResult } from '#domain/batch-results'
import { DeviceStatus, statusCommandRefusal } from '#domain/device-lifecycle'
import { DeviceCommand } from '#domain/enums'
import { grantAllows } from '#domain/grants'
import { ResultCode } from '#domain/result-codes'
import { validatePackageName } from '#domain/validators'
import { SUPPLIER_UNREACHABLE, type CommandOutcome } from '../../adapters/supplier/supplier-adapter'
import type { DeviceCommandBody, DeviceCover } from '../../contract/device'
import { devices } from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import type { DeviceAccessService } from './device-access'
import { refusal, type DeviceRow } from './device-view'
import { deviceNotFound, type DeviceLifecycleService } from './device-lifecycle'
import type { ScreenAccessService } from './screen-access'

/** The arguments a command needs, checked before any phone is touched. */
function checkCommandArgs(body: { command: string; url?: string; packageName?: string }) {
  if (body.command === DeviceCommand.OpenUrl) {
    let ok = false
    try {
      const url = new URL(body.url?.trim() ?? '')
      ok = url.protocol === 'http:' || url.protocol === 'https:'
    } catch {
      ok = false
    }
    if (!ok) throw tip('请输入以 http:// 或 https:// 开头的网址')
    return { command: body.command, url: body.url!.trim() }
  }
  if (body.command === DeviceCommand.Uninstall) {
    const packageName = body.packageName?.trim() ?? ''
    const problem = validatePackageName(packageName)
    if (problem) throw tip(problem)
    return { command: body.command, packageName }
  }
  return { command: body.command as DeviceCommand }
}

/**
 * Commands sent straight to the supplier (reboot, open a URL, uninstall an app, ...) on one phone or a
 * batch, and a fresh screen image. The owner or a grantee with control permission may send them.
 */
export class DeviceCommandService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly lifecycle: DeviceLifecycleService,
    private readonly access: DeviceAccessService,
    private readonly screens: ScreenAccessService,
  ) {}

  /** One command on one phone; a refusal or a supplier failure is an error with its reason. */
  async command(userId: number, body: DeviceCommandBody): Promise<CommandResult> {
    const request = checkCommandArgs(body)
    const { row } = await this.access.accessible(userId, body.deviceId, 'control')
    const [{ refusal, ...result }] = await this.run([row.device], request)
    if (refusal === 'appNotFound') throw new BizError(ResultCode.APP_DOES_NOT_EXIST, result.msg)
    if (!result.ok) throw tip(result.msg)
    return result
  }

  /** The same command on up to 500 phones, one result each (missing or others' phones fail alone). */
  async batchCommand(
    userId: number,
    body: { deviceIds: number[]; command: string; url?: string; packageName?: string },
  ): Promise<CommandResult[]> {
    const problem = validateBatchSelection(body.deviceIds)
    if (problem) throw tip(problem)
    const request = checkCommandArgs(body)
    const ids = [...new Set(body.deviceIds)]
    const controlled = [...(await this.access.grantedTo(userId))]
      .filter(([, grant]) => grantAllows(grant.permission, 'control'))
      .map(([deviceId]) => deviceId)
    const rows = await this.ctx.db
      .select()
      .from(devices)
      .where(
        and(
          inArray(devices.id, ids),
          or(eq(devices.userId, userId), inArray(devices.id, [...controlled, 0])),
        ),
      )
    // a batch answers each phone's refusal as its text
    const results = new Map(
      (await this.run(rows, request)).map(({ refusal: _, ...result }) => [result.deviceId, result]),
    )
    return ids.map(
      (id) => results.get(id) ?? { deviceId: id, ok: false, msg: deviceNotFound().message },
    )
  }

  /**
   * Refuses the phones that cannot take a command now (not ready, expired, busy…) itself, sends the
   * command to all the others in one supplier call (commandMany: the supplier batches them its own way),
   * then records what it did for all of them at once: rebooting phones (with their sync jobs) in one
   * transaction, a fresh screen time otherwise. One result per row, in the rows' order.
   */
  private async run(
    rows: DeviceRow[],
    request: ReturnType<typeof checkCommandArgs>,
  ): Promise<(CommandResult & Pick<CommandOutcome, 'refusal'>)[]> {
    const refused = new Map<number, string>()
    const asked: string[] = []
    for (const device of rows) {
      const why = refusal(device)
      if (why || !device.supplierInstanceId)
        refused.set(device.id, why ?? '云手机未就绪，请稍后再试')
      else asked.push(device.supplierInstanceId)
    }
    let outcomes = new Map<string, CommandOutcome>()
    if (asked.length > 0) {
      try {
        outcomes = await this.ctx.supplier.commandMany(asked, request)
      } catch (error) {
        this.ctx.log.error({ err: error, phones: asked.length }, 'supplier command failed')
      }
    }
    const logged = new Set<unknown>()
    const results = rows.map((device): CommandResult & Pick<CommandOutcome, 'refusal'> => {
      const why = refused.get(device.id)
      if (why) return { deviceId: device.id, ok: false, msg: why }
      const { error, ...outcome } = outcomes.get(device.supplierInstanceId!) ?? {
        ok: false,
        msg: SUPPLIER_UNREACHABLE,
      }
      // a refused batch fails many phones for one reason: logged once
      if (error !== undefined && !logged.has(error)) {
        logged.add(error)
        this.ctx.log.error({ err: error, deviceId: device.id }, 'supplier command failed')
      }
      return { deviceId: device.id, ...outcome }
    })
    const done = results.filter((r) => r.ok).map((r) => r.deviceId)
    if (done.length === 0) return results
    if (request.command === DeviceCommand.Reboot) {
      await this.ctx.db.transaction(async (tx) => {
        const rebooting = await tx
          .update(devices)
          .set({ status: DeviceStatus.rebooting, opSeq: sql`${devices.opSeq} + 1` })
          .where(and(inArray(devices.id, done), eq(devices.status, DeviceStatus.running)))
          .returning({ deviceId: devices.id, opSeq: devices.opSeq })
        await this.lifecycle.enqueueSyncs(tx, rebooting)
      })
    } else {
      await this.ctx.db
        .update(devices)
        .set({ coverUpdatedAt: this.ctx.clock.now() })
        .where(inArray(devices.id, done))
    }
    return results
  }

  /** GetVmCover: a fresh screen image of a running (or rebooting) phone. */
  async cover(userId: number, deviceId: number): Promise<DeviceCover> {
    const { device } = (await this.access.accessible(userId, deviceId, 'view')).row
    // A rebooting phone has a screen too (its boot screen); other states have none.
    const why =
      device.status === DeviceStatus.rebooting ? null : statusCommandRefusal(device.status)
    if (why || !device.supplierInstanceId) throw tip(why ?? '云手机未就绪，请稍后再试')
    const passes = await this.screens.passes(userId)
    const cover = await this.ctx.supplier.cover(
      device.supplierInstanceId,
      passes.query(device.supplierInstanceId, device.id),
    )
    await this.ctx.db
      .update(devices)
      .set({ coverUpdatedAt: cover.updatedAt })
      .where(eq(devices.id, deviceId))
    return { url: cover.url, updatedAt: cover.updatedAt.getTime() }
  }
}
