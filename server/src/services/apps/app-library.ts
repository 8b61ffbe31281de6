import { createHash } from 'node:crypto'
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm'
import { APK_REFUSALS } from '#domain/apps'
import { ResultCode } from '#domain/result-codes'
import { apps } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import type { ServiceContext } from '../context'
import type { FileService } from '../file-service'
import { ApkRefused, readApk } from './apk-reader'

/** An app of the library as the pages and the console see it. */
export interface AppItem {
  appId: number
  name: string
  packageName: string
  versionName: string
  versionCode: number
  sizeBytes: number
  /** The launcher icon read from the APK, served at /files/; null when it had none we could read. */
  iconUrl: string | null
  /** 'mine': the user's own upload; 'catalogue': kept by the operators. */
  source: 'mine' | 'catalogue'
  hidden: boolean
  createdAt: string
}

type AppRow = typeof apps.$inferSelect

export const toAppItem = (row: AppRow): AppItem => ({
  appId: row.id,
  name: row.name,
  packageName: row.packageName,
  versionName: row.versionName,
  versionCode: row.versionCode,
  sizeBytes: row.sizeBytes,
  iconUrl: row.iconPath,
  source: row.ownerId === null ? 'catalogue' : 'mine',
  hidden: row.hidden,
  createdAt: row.createdAt.toISOString(),
})

/** The refusal of an upload that is not an APK, named in `data.refusal` beside its words. */
function refusalError(error: ApkRefused) {
  const code = error.refusal === 'empty' ? ResultCode.FILE_EMPTY : ResultCode.ILLEGAL_FILE
  return new BizError(code, APK_REFUSALS[error.refusal], { refusal: error.refusal })
}

const notFound = () => new BizError(ResultCode.APP_DOES_NOT_EXIST)

/**
 * The app library: APKs users upload and the operators' catalogue. An APK is read (apk-reader.ts)
 * before anything is stored, then kept through the file service (private, counted, purged once no
 * app refers to it).
 */
export class AppLibraryService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly files: FileService,
  ) {}

  /**
   * Takes an APK in for `ownerId` (null: the operators' catalogue). The same bytes a second time are
   * the app already there, stored and counted once.
   */
  async upload(ownerId: number | null, content: Buffer | null): Promise<AppItem> {
    let info
    try {
      info = await readApk(content ?? Buffer.alloc(0))
    } catch (error) {
      if (error instanceof ApkRefused) throw refusalError(error)
      throw error
    }
    const bytes = content as Buffer
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    const existing = await this.bySha(ownerId, sha256)
    if (existing) return toAppItem(existing)
    const apk = await this.files.saveApk(ownerId, bytes)
    const icon = info.icon
      ? await this.files.saveAppIcon(ownerId, info.icon.bytes, info.icon.extension)
      : null
    const [row] = await this.ctx.db
      .insert(apps)
      .values({
        ownerId,
        packageName: info.packageName,
        name: info.name,
        versionName: info.versionName,
        versionCode: info.versionCode,
        sizeBytes: bytes.length,
        sha256,
        apkPath: apk.path,
        iconPath: icon?.path ?? null,
        createdAt: this.ctx.clock.now(),
      })
      .onConflictDoNothing()
      .returning()
    // a second upload of the same bytes that won the race: its row stands, this one's files are orphans
    return toAppItem(row ?? ((await this.bySha(ownerId, sha256)) as AppRow))
  }

  private async bySha(ownerId: number | null, sha256: string) {
    const [row] = await this.ctx.db
      .select()
      .from(apps)
      .where(
        and(
          ownerId === null ? isNull(apps.ownerId) : eq(apps.ownerId, ownerId),
          eq(apps.sha256, sha256),
        ),
      )
    return row
  }

  /** The user's own apps (newest first) and the catalogue's visible ones (by name). */
  async list(userId: number): Promise<{ mine: AppItem[]; catalogue: AppItem[] }> {
    const mine = await this.ctx.db
      .select()
      .from(apps)
      .where(eq(apps.ownerId, userId))
      .orderBy(desc(apps.createdAt), desc(apps.id))
    const catalogue = await this.catalogue(false)
    return { mine: mine.map(toAppItem), catalogue }
  }

  /** The catalogue, hidden entries too when asked (the console). */
  async catalogue(withHidden: boolean): Promise<AppItem[]> {
    const rows = await this.ctx.db
      .select()
      .from(apps)
      .where(withHidden ? isNull(apps.ownerId) : and(isNull(apps.ownerId), eq(apps.hidden, false)))
      .orderBy(asc(apps.name), asc(apps.id))
    return rows.map(toAppItem)
  }

  /**
   * An app the user may install: their own, or a visible catalogue entry. 1090 for anything else
   * (another user's app is as unknown as one that never was).
   */
  async usable(userId: number, appId: number): Promise<AppRow> {
    const [row] = await this.ctx.db
      .select()
      .from(apps)
      .where(
        and(
          eq(apps.id, appId),
          sql`(${apps.ownerId} = ${userId} or (${apps.ownerId} is null and not ${apps.hidden}))`,
        ),
      )
    if (!row) throw notFound()
    return row
  }

  /**
   * Where an app's APK is kept, for a supplier's download route that checked its own signature first
   * (ACEP's UploadApp); null for an app that is gone.
   */
  async apkOf(appId: number): Promise<string | null> {
    const [row] = await this.ctx.db
      .select({ apkPath: apps.apkPath })
      .from(apps)
      .where(eq(apps.id, appId))
    return row?.apkPath ?? null
  }

  /** Removes one of the user's own apps; its files go with the next orphan purge. */
  async remove(userId: number, appId: number): Promise<void> {
    const gone = await this.ctx.db
      .delete(apps)
      .where(and(eq(apps.id, appId), eq(apps.ownerId, userId)))
      .returning({ id: apps.id })
    if (gone.length === 0) throw notFound()
  }

  /** Hides a catalogue entry from users (or shows it again); installs made from it keep its name. */
  async setHidden(appId: number, hidden: boolean): Promise<AppItem> {
    const [row] = await this.ctx.db
      .update(apps)
      .set({ hidden })
      .where(and(eq(apps.id, appId), isNull(apps.ownerId)))
      .returning()
    if (!row) throw notFound()
    return toAppItem(row)
  }
}
