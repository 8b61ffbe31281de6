import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm'
import {
  INSTALL_MAX_DEVICES,
  INSTALL_SKIPS,
  installProgressText,
  type InstallSkip,
  type InstallStatus,
} from '#domain/apps'
import { DeviceStatus } from '#domain/device-lifecycle'
import { grantAllows } from '#domain/grants'
import { ResultCode } from '#domain/result-codes'
import type {
  AppForInstall,
  InstalledApp,
  InstallTaskState,
} from '../../adapters/supplier/app-installer'
import { SUPPLIER_UNREACHABLE } from '../../adapters/supplier/supplier-adapter'
import { chunks } from '../../db/id-arrays'
import { appInstallResults, appInstalls, apps, deviceGroups, devices } from '../../db/schema'
import { BizError, tip } from '../../domain/biz-error'
import { enqueueJob } from '../../job-queue'
import type { ServiceContext } from '../context'
import type { DeviceAccessService } from '../devices/device-access'
import type { FileService } from '../file-service'
import type { AppLibraryService } from './app-library'
import { apkAbis } from './apk-reader'

export const APP_INSTALL_JOB = 'app-install'

/** How soon the job looks at installs in progress again. */
export const INSTALL_POLL_MS = 3_000

/** How long after its end 应用管理 still shows a batch when opened again. */
export const INSTALL_SHOWN_MS = 60 * 60_000

/** Why a phone's install failed on our side (its supplier's reasons come from the supplier). */
export const INSTALL_FAILURES = {
  noInstaller: '该云手机暂不支持安装应用',
  appRemoved: '应用已从应用库删除',
  unreachable: SUPPLIER_UNREACHABLE,
} as const

/** Which phones one batch install goes to: a list, a group of the user's, or all of them (全选). */
export type InstallSelection = { deviceIds: number[] } | { groupId: number } | { all: true }

export interface InstallProgress {
  installId: number
  appId: number | null
  appName: string
  packageName: string
  total: number
  done: number
  installed: number
  failed: number
  skipped: number
  finished: boolean
  /** 安装中 n/N, then what it came to. */
  text: string
}

export interface InstallResultItem {
  deviceId: number
  deviceName: string
  status: InstallStatus
  reason: string | null
}

const OPEN: InstallStatus[] = ['pending', 'installing']

/**
 * One app onto the phones a user picked, as one batch (docs/apps.md "Batch install"): each phone is
 * classified at once (skipped when it is not the user's, view-only, expired or not running), the rest
 * are sent to the supplier in its batch size by the app-install job, which then follows each phone's
 * task until every phone has its result.
 */
export class AppInstallService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly library: AppLibraryService,
    private readonly access: DeviceAccessService,
    private readonly files: FileService,
  ) {}

  /** The phone ids a selection names (deduplicated, at most INSTALL_MAX_DEVICES). */
  private async selected(userId: number, selection: InstallSelection): Promise<number[]> {
    if ('deviceIds' in selection) {
      const ids = [...new Set(selection.deviceIds)]
      if (ids.length === 0) throw tip('请选择云手机')
      return ids
    }
    if ('groupId' in selection) {
      const [group] = await this.ctx.db
        .select({ id: deviceGroups.id })
        .from(deviceGroups)
        .where(and(eq(deviceGroups.id, selection.groupId), eq(deviceGroups.userId, userId)))
      if (!group) throw tip('分组不存在')
      const rows = await this.ctx.db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.groupId, group.id), ne(devices.status, DeviceStatus.released)))
        .orderBy(asc(devices.id))
      if (rows.length === 0) throw tip('该分组没有云手机')
      return rows.map((row) => row.id)
    }
    const granted = [...(await this.access.grantedTo(userId)).keys()]
    const rows = await this.ctx.db
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          or(eq(devices.userId, userId), inArray(devices.id, [...granted, 0])),
          ne(devices.status, DeviceStatus.released),
        ),
      )
      .orderBy(asc(devices.id))
    if (rows.length === 0) throw tip('请选择云手机')
    return rows.map((row) => row.id)
  }

  /**
   * Each phone's start: pending, or skipped with why. An id that is no phone at all is left out (a
   * result names a phone); someone else's phone is skipped as not yours.
   */
  private async classify(userId: number, ids: number[]) {
    const grants = await this.access.grantedTo(userId)
    const now = this.ctx.clock.now()
    const found = new Map<number, typeof devices.$inferSelect>()
    for (const part of chunks(ids)) {
      const rows = await this.ctx.db.select().from(devices).where(inArray(devices.id, part))
      for (const row of rows) found.set(row.id, row)
    }
    return ids
      .filter((deviceId) => found.has(deviceId))
      .map((deviceId): { deviceId: number; skip: InstallSkip | null } => {
        const device = found.get(deviceId)!
        const grant = grants.get(deviceId)
        if (device.userId !== userId && !grant) return { deviceId, skip: 'notYours' }
        if (device.status === DeviceStatus.released) return { deviceId, skip: 'notYours' }
        if (device.userId !== userId && grant && !grantAllows(grant.permission, 'control')) {
          return { deviceId, skip: 'viewOnly' }
        }
        if (device.status === DeviceStatus.expired || device.expireAt <= now) {
          return { deviceId, skip: 'expired' }
        }
        if (device.status !== DeviceStatus.running || !device.supplierInstanceId) {
          return { deviceId, skip: 'offline' }
        }
        return { deviceId, skip: null }
      })
  }

  /** Starts one batch install; the phones' results follow (progress, results). */
  async start(userId: number, appId: number, selection: InstallSelection) {
    const app = await this.library.usable(userId, appId)
    const ids = await this.selected(userId, selection)
    if (ids.length > INSTALL_MAX_DEVICES) throw tip(`一次最多安装${INSTALL_MAX_DEVICES}台`)
    const classified = await this.classify(userId, ids)
    if (classified.length === 0) throw tip('请选择云手机')
    const now = this.ctx.clock.now()
    const installId = await this.ctx.db.transaction(async (tx) => {
      const [install] = await tx
        .insert(appInstalls)
        .values({
          userId,
          appId: app.id,
          appName: app.name,
          packageName: app.packageName,
          total: classified.length,
          createdAt: now,
          finishedAt: classified.every((c) => c.skip) ? now : null,
        })
        .returning({ id: appInstalls.id })
      for (const part of chunks(classified)) {
        await tx.insert(appInstallResults).values(
          part.map(({ deviceId, skip }) => ({
            installId: install.id,
            deviceId,
            status: (skip ? 'skipped' : 'pending') as InstallStatus,
            reason: skip ? INSTALL_SKIPS[skip] : null,
            updatedAt: now,
          })),
        )
      }
      if (classified.some((c) => !c.skip)) {
        await enqueueJob(tx, now, APP_INSTALL_JOB, { installId: install.id })
      }
      return install.id
    })
    return this.progress(userId, installId)
  }

  private async install(userId: number, installId: number) {
    const [install] = await this.ctx.db
      .select()
      .from(appInstalls)
      .where(and(eq(appInstalls.id, installId), eq(appInstalls.userId, userId)))
    if (!install) throw new BizError(ResultCode.TASK_NOT_EXIST, '安装任务不存在')
    return install
  }

  /** Where a batch install is: 安装中 n/N and the counts. */
  async progress(userId: number, installId: number): Promise<InstallProgress> {
    const install = await this.install(userId, installId)
    const rows = await this.ctx.db
      .select({ status: appInstallResults.status, n: count() })
      .from(appInstallResults)
      .where(eq(appInstallResults.installId, installId))
      .groupBy(appInstallResults.status)
    const by = (status: InstallStatus) => rows.find((row) => row.status === status)?.n ?? 0
    const counts = {
      total: install.total,
      installed: by('installed'),
      failed: by('failed'),
      skipped: by('skipped'),
    }
    const done = counts.installed + counts.failed + counts.skipped
    return {
      installId,
      appId: install.appId,
      appName: install.appName,
      packageName: install.packageName,
      ...counts,
      done,
      finished: install.finishedAt !== null,
      text: installProgressText({ ...counts, done }),
    }
  }

  /**
   * The user's newest batch while it runs and for an hour after it ended, else null: what 应用管理
   * shows when it is opened (again) while a batch it started, here or on another device, is going.
   */
  async latest(userId: number): Promise<InstallProgress | null> {
    const [newest] = await this.ctx.db
      .select({ id: appInstalls.id, finishedAt: appInstalls.finishedAt })
      .from(appInstalls)
      .where(eq(appInstalls.userId, userId))
      .orderBy(desc(appInstalls.id))
      .limit(1)
    if (!newest) return null
    const ended = newest.finishedAt?.getTime()
    if (ended !== undefined && this.ctx.clock.now().getTime() - ended > INSTALL_SHOWN_MS)
      return null
    return this.progress(userId, newest.id)
  }

  /** Each phone's result, failed and skipped first, a page at a time. */
  async results(userId: number, installId: number, page: number, rows: number) {
    await this.install(userId, installId)
    const where = eq(appInstallResults.installId, installId)
    const [{ total }] = await this.ctx.db
      .select({ total: count() })
      .from(appInstallResults)
      .where(where)
    const records = await this.ctx.db
      .select({
        deviceId: appInstallResults.deviceId,
        deviceName: devices.name,
        status: appInstallResults.status,
        reason: appInstallResults.reason,
      })
      .from(appInstallResults)
      .innerJoin(devices, eq(devices.id, appInstallResults.deviceId))
      .where(where)
      .orderBy(
        sql`case ${appInstallResults.status} when 'failed' then 0 when 'skipped' then 1 when 'installing' then 2 when 'pending' then 3 else 4 end`,
        asc(appInstallResults.deviceId),
      )
      .limit(rows)
      .offset((page - 1) * rows)
    // a phone the user may no longer see (transferred, grant ended) keeps its result, not its name
    return {
      records: records as InstallResultItem[],
      page,
      total,
      totalPage: Math.max(1, Math.ceil(total / rows)),
    }
  }

  private async finishOpen(installId: number, reason: string) {
    const now = this.ctx.clock.now()
    await this.ctx.db
      .update(appInstallResults)
      .set({ status: 'failed', reason, updatedAt: now })
      .where(
        and(eq(appInstallResults.installId, installId), inArray(appInstallResults.status, OPEN)),
      )
  }

  /** Sets each listed phone's status, reason and task in one statement per chunk. */
  private async setResults(
    installId: number,
    updates: {
      deviceId: number
      status: InstallStatus
      reason: string | null
      task: string | null
    }[],
  ) {
    const now = this.ctx.clock.now()
    for (const part of chunks(updates, 1000)) {
      const values = sql.join(
        part.map(
          (u) =>
            sql`(${u.deviceId}::integer, ${u.status}::text, ${u.reason}::text, ${u.task}::text)`,
        ),
        sql`, `,
      )
      await this.ctx.db.execute(sql`
        update ${appInstallResults} as r
        set status = v.status, reason = v.reason, supplier_task = v.task, updated_at = ${now}
        from (values ${values}) as v(device_id, status, reason, task)
        where r.install_id = ${installId} and r.device_id = v.device_id
          and r.status in ('pending', 'installing')`)
    }
  }

  /**
   * The app-install job's work: sends the pending phones to the supplier in its batch size, asks after
   * the ones installing, and asks to run again until none is open. A phone that stopped running
   * before it was sent is refused by the supplier like any other.
   */
  async advance(installId: number): Promise<void | { rerunAt: Date }> {
    const [install] = await this.ctx.db
      .select()
      .from(appInstalls)
      .where(and(eq(appInstalls.id, installId), isNull(appInstalls.finishedAt)))
    if (!install) return
    const installer = this.ctx.supplier.apps
    const [app] = install.appId
      ? await this.ctx.db.select().from(apps).where(eq(apps.id, install.appId))
      : []
    if (!installer || !app) {
      await this.finishOpen(
        installId,
        app ? INSTALL_FAILURES.noInstaller : INSTALL_FAILURES.appRemoved,
      )
      return this.finishIfDone(installId)
    }
    const open = await this.ctx.db
      .select({
        deviceId: appInstallResults.deviceId,
        status: appInstallResults.status,
        task: appInstallResults.supplierTask,
        instanceId: devices.supplierInstanceId,
      })
      .from(appInstallResults)
      .innerJoin(devices, eq(devices.id, appInstallResults.deviceId))
      .where(
        and(eq(appInstallResults.installId, installId), inArray(appInstallResults.status, OPEN)),
      )
    const pending = open.filter((row) => row.status === 'pending')
    if (pending.length > 0) {
      const content = await this.files.readApk(app.apkPath)
      const forInstall: AppForInstall = {
        appId: app.id,
        packageName: app.packageName,
        name: app.name,
        versionCode: app.versionCode,
        versionName: app.versionName,
        abis: await apkAbis(content),
        read: async () => content,
      }
      for (const batch of chunks(pending, installer.batchSize)) {
        const sendable = batch.filter((row) => row.instanceId)
        let answers = new Map<string, { ok: true; task: string } | { ok: false; reason: string }>()
        try {
          answers = await installer.install(
            sendable.map((row) => row.instanceId!),
            forInstall,
          )
        } catch (error) {
          this.ctx.log.error(
            { err: error, installId, phones: sendable.length },
            'app install failed',
          )
        }
        await this.setResults(
          installId,
          batch.map((row) => {
            const answer = row.instanceId ? answers.get(row.instanceId) : undefined
            if (!answer) {
              return {
                deviceId: row.deviceId,
                status: 'failed' as const,
                reason: INSTALL_FAILURES.unreachable,
                task: null,
              }
            }
            return answer.ok
              ? {
                  deviceId: row.deviceId,
                  status: 'installing' as const,
                  reason: null,
                  task: answer.task,
                }
              : {
                  deviceId: row.deviceId,
                  status: 'failed' as const,
                  reason: answer.reason,
                  task: null,
                }
          }),
        )
      }
    }
    const installing = open.filter(
      (row) => row.status === 'installing' && row.task && row.instanceId,
    )
    for (const batch of chunks(installing, 1000)) {
      let states = new Map<string, InstallTaskState>()
      try {
        states = await installer.taskStates(
          batch.map((row) => ({ instanceId: row.instanceId!, task: row.task! })),
        )
      } catch (error) {
        this.ctx.log.error({ err: error, installId }, 'app install state failed')
        continue // asked again on the next run
      }
      await this.setResults(
        installId,
        batch.flatMap((row) => {
          const state = states.get(row.task!)
          if (!state || state.status === 'installing') return []
          return [
            {
              deviceId: row.deviceId,
              status: state.status,
              reason: state.status === 'failed' ? state.reason : null,
              task: row.task,
            },
          ]
        }),
      )
    }
    return this.finishIfDone(installId)
  }

  private async finishIfDone(installId: number): Promise<void | { rerunAt: Date }> {
    const [{ left }] = await this.ctx.db
      .select({ left: count() })
      .from(appInstallResults)
      .where(
        and(eq(appInstallResults.installId, installId), inArray(appInstallResults.status, OPEN)),
      )
    const now = this.ctx.clock.now()
    if (left > 0) return { rerunAt: new Date(now.getTime() + INSTALL_POLL_MS) }
    await this.ctx.db
      .update(appInstalls)
      .set({ finishedAt: now })
      .where(and(eq(appInstalls.id, installId), isNull(appInstalls.finishedAt)))
  }

  /** A phone the user may control, with its supplier instance (1031 or the page's words otherwise). */
  private async controlled(userId: number, deviceId: number) {
    const { row } = await this.access.accessible(userId, deviceId, 'control')
    const device = row.device
    if (device.status !== DeviceStatus.running || !device.supplierInstanceId) {
      throw tip(INSTALL_SKIPS.offline)
    }
    const installer = this.ctx.supplier.apps
    if (!installer) throw tip(INSTALL_FAILURES.noInstaller)
    return { instanceId: device.supplierInstanceId, installer }
  }

  /** The apps on one phone now (as its supplier says), named from the library where it knows them. */
  async installed(userId: number, deviceId: number): Promise<InstalledApp[]> {
    const { instanceId, installer } = await this.controlled(userId, deviceId)
    let list: InstalledApp[]
    try {
      list = await installer.installed(instanceId)
    } catch (error) {
      this.ctx.log.error({ err: error, deviceId }, 'installed apps failed')
      throw tip(SUPPLIER_UNREACHABLE)
    }
    const known = await this.library.list(userId)
    const names = new Map(
      [...known.mine, ...known.catalogue].map((app) => [app.packageName, app] as const),
    )
    return list.map((app) => {
      const mine = names.get(app.packageName)
      return mine && app.name === app.packageName
        ? { ...app, name: mine.name, versionName: app.versionName ?? mine.versionName }
        : app
    })
  }

  /** Opens an installed app on the phone (LaunchApp). */
  async launch(userId: number, deviceId: number, packageName: string) {
    const { instanceId, installer } = await this.controlled(userId, deviceId)
    try {
      await installer.launch(instanceId, packageName)
    } catch (error) {
      throw tip(error instanceof Error && error.message ? error.message : SUPPLIER_UNREACHABLE)
    }
  }
}
