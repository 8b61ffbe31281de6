export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024

export type ImageExtension = 'png' | 'jpg' | 'gif' | 'webp'

/** Decide the image type from the file's first bytes; the declared mimetype and name are not trusted. */
export function sniffImageType(head: Buffer): ImageExtension | null {
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png'
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg'
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1'))) return 'gif'
  if (
    head.length >= 12 &&
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp'
  return null
}

const UPLOAD_PATH = /^\/files\/uploads\/[0-9a-f-]{36}\.(png|jpg|gif|webp)$/

/** Avatars must point at a file we stored; this keeps arbitrary URLs and path tricks out. */
export const isUploadPath = (value: string) => UPLOAD_PATH.test(value)
