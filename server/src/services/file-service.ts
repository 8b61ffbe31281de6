import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { and, asc, eq, gt, inArray, like, lt, sql } from 'drizzle-orm'
import { APK_QUOTA, APK_REFUSALS } from '#domain/apps'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../db/client'
import { apps, uploads, users } from '../db/schema'
import { BizError, tip } from '../domain/biz-error'
import { containsMarkup, MAX_UPLOAD_BYTES, sniffImageType } from '../domain/files'
import type { ServiceContext } from './context'

const DAY_MS = 86_400_000
const MB = 1024 * 1024

/**
 * What one user may upload in any 24 hours. The app uploads only avatars (a few a day at most), so
 * this stops a script filling the disk without ever stopping a person.
 */
export const UPLOAD_QUOTA = { files: 20, bytes: 20 * MB, windowMs: DAY_MS } as const

/**
 * A file nothing refers to this long after its upload is deleted. At least the quota's window, so the
 * rows the quota counts are never gone before it stops counting them.
 */
export const ORPHAN_AFTER_MS = DAY_MS

/** Orphans deleted per statement (a run goes on until none are left). */
const PURGE_BATCH = 500

const illegal = (msg: string) => new BizError(ResultCode.ILLEGAL_FILE, msg)

/**
 * Where each kind of upload lives. Images under /files/ are served as they are (FILES_DIR); APKs
 * under /private/ never are (PRIVATE_FILES_DIR, which nothing serves): only the server reads them.
 * Each kind's daily quota counts its own rows, so avatars and APKs never use each other's.
 */
const IMAGE_PREFIX = '/files/uploads/'
const APP_ICON_PREFIX = '/files/app-icons/'
const APK_PREFIX = '/private/apks/'

/**
 * Whether nothing refers to an upload. Every column that stores an upload path is named here and only
 * here, so the orphan purge can never take a file something shows: users.avatar, an app's APK and icon.
 * Two anti-joins that probe indexes for each candidate: ORed as two EXISTS the planner read the users
 * table whole, and an app's two columns as two NOT EXISTS it hashed the apps table whole; one NOT
 * EXISTS over both columns is a BitmapOr of their indexes (query-plans test).
 */
const unreferenced = (uploadPath: typeof uploads.path) =>
  sql`(not exists (select 1 from ${users} where ${users.avatar} = ${uploadPath})
    and not exists (select 1 from ${apps}
      where ${apps.apkPath} = ${uploadPath} or ${apps.iconPath} = ${uploadPath}))`

interface Quota {
  prefix: string
  files: number
  bytes: number
  windowMs: number
  filesFull: string
  bytesFull: string
}

const IMAGE_QUOTA: Quota = {
  prefix: IMAGE_PREFIX,
  ...UPLOAD_QUOTA,
  filesFull: '今日上传次数已达上限，请明天再试',
  bytesFull: `今日上传已超过${UPLOAD_QUOTA.bytes / MB}MB，请明天再试`,
}

const APK_UPLOAD_QUOTA: Quota = {
  prefix: APK_PREFIX,
  ...APK_QUOTA,
  filesFull: APK_REFUSALS.quotaFiles,
  bytesFull: APK_REFUSALS.quotaBytes,
}

/**
 * Holds the user's own upload at `publicPath` until the transaction ends, so the orphan purge cannot
 * delete it while a row comes to refer to it. False when it is not theirs or no longer kept.
 */
export async function holdOwnUpload(tx: Db, userId: number, publicPath: string) {
  const [row] = await tx
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.path, publicPath), eq(uploads.userId, userId)))
    .for('share')
  return row !== undefined
}

export class FileService {
  constructor(private readonly ctx: ServiceContext) {}

  private fileOf(publicPath: string) {
    if (publicPath.startsWith('/private/')) {
      return path.join(this.ctx.settings.privateFilesDir, publicPath.slice('/private/'.length))
    }
    return path.join(this.ctx.settings.filesDir, publicPath.replace(/^\/files\//, ''))
  }

  /**
   * Stores an image under FILES_DIR/uploads, named by us with the extension of the type its bytes
   * are (the client's name and type are never used), after the user's daily quota has room for it.
   * An image header with markup behind it is refused.
   */
  async saveImage(userId: number, content: Buffer | null): Promise<{ path: string }> {
    if (!content || content.length === 0) throw new BizError(ResultCode.FILE_EMPTY)
    if (content.length > MAX_UPLOAD_BYTES) throw illegal('图片不能超过2MB')
    const extension = sniffImageType(content.subarray(0, 16))
    if (!extension) throw illegal('仅支持 PNG、JPG、GIF、WEBP 图片')
    if (containsMarkup(content)) throw illegal('图片文件不合法，请重新选择')
    const publicPath = `${IMAGE_PREFIX}${randomUUID()}.${extension}`
    await this.store(userId, publicPath, content, IMAGE_QUOTA)
    return { path: publicPath }
  }

  /**
   * Stores an APK (already read by apps/apk-reader.ts) under PRIVATE_FILES_DIR, never served, after
   * the user's daily APK quota has room for it (an operator's catalogue APK, userId null, has none).
   * A virus scan, where one is run, goes here: before the row and file are written, refusing with
   * ILLEGAL_FILE (docs/apps.md, "Virus scan").
   */
  async saveApk(userId: number | null, content: Buffer): Promise<{ path: string }> {
    const privatePath = `${APK_PREFIX}${randomUUID()}.apk`
    await this.store(userId, privatePath, content, APK_UPLOAD_QUOTA)
    return { path: privatePath }
  }

  /** Stores an app's launcher icon (taken out of its APK, whose quota it came under), served at /files/. */
  async saveAppIcon(userId: number | null, content: Buffer, extension: string) {
    const publicPath = `${APP_ICON_PREFIX}${randomUUID()}.${extension}`
    await this.store(userId, publicPath, content, null)
    return { path: publicPath }
  }

  /** The bytes of a stored APK, for a supplier that is handed the file. */
  async readApk(privatePath: string): Promise<Buffer> {
    if (!privatePath.startsWith(APK_PREFIX)) throw new Error(`not an APK path: ${privatePath}`)
    return fs.readFile(this.fileOf(privatePath))
  }

  /** The row first: a file on disk is never without the row that gets it cleaned up. */
  private async store(
    userId: number | null,
    storedPath: string,
    content: Buffer,
    quota: Quota | null,
  ) {
    await this.record(userId, storedPath, content.length, quota)
    const file = this.fileOf(storedPath)
    try {
      await fs.mkdir(path.dirname(file), { recursive: true })
      await fs.writeFile(file, content, { flag: 'wx' })
    } catch (error) {
      await this.ctx.db.delete(uploads).where(eq(uploads.path, storedPath))
      throw error
    }
  }

  /**
   * Counts the upload against the user's quota of its kind and records it, one user's uploads at a
   * time. An upload without quota (an app icon, an operator's catalogue APK) is only recorded.
   */
  private async record(
    userId: number | null,
    publicPath: string,
    sizeBytes: number,
    quota: Quota | null,
  ) {
    const now = this.ctx.clock.now()
    if (userId === null || quota === null) {
      await this.ctx.db
        .insert(uploads)
        .values({ userId, path: publicPath, sizeBytes, createdAt: now })
      return
    }
    await this.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('uploads'), ${userId})`)
      const [used] = await tx
        .select({
          files: sql<number>`count(*)`.mapWith(Number),
          bytes: sql<number>`coalesce(sum(${uploads.sizeBytes}), 0)`.mapWith(Number),
        })
        .from(uploads)
        .where(
          and(
            eq(uploads.userId, userId),
            like(uploads.path, `${quota.prefix}%`),
            gt(uploads.createdAt, new Date(now.getTime() - quota.windowMs)),
          ),
        )
      if (used.files >= quota.files) throw tip(quota.filesFull)
      if (used.bytes + sizeBytes > quota.bytes) throw tip(quota.bytesFull)
      await tx.insert(uploads).values({ userId, path: publicPath, sizeBytes, createdAt: now })
    })
  }

  /**
   * Deletes uploads older than ORPHAN_AFTER_MS that nothing refers to: their rows, then their files.
   * The candidates are locked first and the references read in a later statement, so an avatar set
   * meanwhile (which holds its upload, holdOwnUpload) is either seen or waited for. A file whose row is
   * gone but whose unlink was cut short stays on disk: never a row without its file being referred to.
   */
  async purgeOrphans(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - ORPHAN_AFTER_MS)
    let purged = 0
    let after = 0 // ids go up with time: each batch starts after the last one (referenced ones stay)
    for (;;) {
      const paths = await this.ctx.db.transaction(async (tx) => {
        const old = await tx
          .select({ id: uploads.id })
          .from(uploads)
          .where(and(lt(uploads.createdAt, cutoff), gt(uploads.id, after)))
          .orderBy(asc(uploads.id))
          .limit(PURGE_BATCH)
          .for('update', { skipLocked: true })
        if (old.length === 0) return null
        const gone = await tx
          .delete(uploads)
          .where(
            and(
              inArray(
                uploads.id,
                old.map((row) => row.id),
              ),
              unreferenced(uploads.path),
            ),
          )
          .returning({ path: uploads.path })
        return {
          paths: gone.map((row) => row.path),
          last: old[old.length - 1].id,
          full: old.length === PURGE_BATCH,
        }
      })
      if (!paths) return purged
      for (const publicPath of paths.paths) {
        await fs.rm(this.fileOf(publicPath), { force: true })
      }
      purged += paths.paths.length
      if (!paths.full) return purged
      after = paths.last
    }
  }
}
