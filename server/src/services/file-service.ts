import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import type { Db } from '../db/client'
import { uploads, users } from '../db/schema'
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
 * Whether an upload is referred to. Every column that stores an upload path is named here and only
 * here, so the orphan purge can never take a file something shows: today only users.avatar.
 */
const referenced = (uploadPath: typeof uploads.path) =>
  sql`exists (select 1 from ${users} where ${users.avatar} = ${uploadPath})`

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
    const publicPath = `/files/uploads/${randomUUID()}.${extension}`
    // The row first: a file on disk is never without the row that gets it cleaned up.
    await this.record(userId, publicPath, content.length)
    const file = this.fileOf(publicPath)
    try {
      await fs.mkdir(path.dirname(file), { recursive: true })
      await fs.writeFile(file, content, { flag: 'wx' })
    } catch (error) {
      await this.ctx.db.delete(uploads).where(eq(uploads.path, publicPath))
      throw error
    }
    return { path: publicPath }
  }

  /** Counts the upload against the user's quota and records it, one user's uploads at a time. */
  private async record(userId: number, publicPath: string, sizeBytes: number) {
    const now = this.ctx.clock.now()
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
            gt(uploads.createdAt, new Date(now.getTime() - UPLOAD_QUOTA.windowMs)),
          ),
        )
      if (used.files >= UPLOAD_QUOTA.files) throw tip('今日上传次数已达上限，请明天再试')
      if (used.bytes + sizeBytes > UPLOAD_QUOTA.bytes) {
        throw tip(`今日上传已超过${UPLOAD_QUOTA.bytes / MB}MB，请明天再试`)
      }
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
              sql`not ${referenced(uploads.path)}`,
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
