import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { ResultCode } from '../../../src/domain/result-codes'
import { BizError } from '../domain/biz-error'
import { MAX_UPLOAD_BYTES, sniffImageType } from '../domain/files'
import type { ServiceContext } from './context'

export class FileService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Stores an image under FILES_DIR/uploads; the type comes from the bytes, not the client's claim. */
  async saveImage(content: Buffer | null): Promise<{ path: string }> {
    if (!content || content.length === 0) throw new BizError(ResultCode.FILE_EMPTY)
    if (content.length > MAX_UPLOAD_BYTES)
      throw new BizError(ResultCode.ILLEGAL_FILE, '图片不能超过2MB')
    const extension = sniffImageType(content.subarray(0, 16))
    if (!extension) throw new BizError(ResultCode.ILLEGAL_FILE, '仅支持 PNG、JPG、GIF、WEBP 图片')
    const name = `${randomUUID()}.${extension}`
    const dir = path.join(this.ctx.settings.filesDir, 'uploads')
    await fs.mkdir(dir, { recursive: true })
    await fs.writeFile(path.join(dir, name), content, { flag: 'wx' })
    return { path: `/files/uploads/${name}` }
  }
}
