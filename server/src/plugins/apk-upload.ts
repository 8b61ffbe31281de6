import type { FastifyRequest } from 'fastify'
import { APK_MAX_BYTES, APK_REFUSALS } from '#domain/apps'
import { ResultCode } from '#domain/result-codes'
import { BizError } from '../domain/biz-error'

/**
 * The APK of a multipart upload's `file` field, for a user's 应用管理 and the console's 应用库 alike:
 * refused as `empty` without one, and as `tooLarge` past APK_MAX_BYTES (the stream is cut there, never
 * buffered past it). What the bytes are is the APK reader's to decide (services/apps/apk-reader.ts).
 */
export async function readApkUpload(request: FastifyRequest): Promise<Buffer> {
  const empty = () => new BizError(ResultCode.FILE_EMPTY, APK_REFUSALS.empty, { refusal: 'empty' })
  if (!request.isMultipart()) throw empty()
  const part = await request.file({
    limits: { fileSize: APK_MAX_BYTES, files: 1 },
    throwFileSizeLimit: false,
  })
  if (!part || part.fieldname !== 'file') throw empty()
  const content = await part.toBuffer()
  if (part.file.truncated) {
    throw new BizError(ResultCode.ILLEGAL_FILE, APK_REFUSALS.tooLarge, { refusal: 'tooLarge' })
  }
  return content
}
