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

/**
 * How much of an upload is searched for markup. Browsers decide whether bytes are HTML from the first
 * 1,445 (WHATWG MIME sniffing), so a file that passes here cannot be sniffed into a page. Compressed
 * image data looks random: searching a whole 2 MB photo would refuse about one in 300 real photos by
 * chance (`<svg` is only four bytes), the first 8 KB about one in 60,000.
 */
export const MARKUP_SCAN_BYTES = 8 * 1024

const MARKUP = /<(?:!doctype|\?xml|html|head|body|script|svg|iframe|object|embed)/i

/**
 * Whether the start of a file holds HTML, SVG or XML markup: a polyglot (an image header with a page
 * behind it) would be a page on our origin to any browser that sniffs it.
 */
export const containsMarkup = (content: Buffer) =>
  MARKUP.test(content.subarray(0, MARKUP_SCAN_BYTES).toString('latin1'))

const UPLOAD_PATH = /^\/files\/uploads\/[0-9a-f-]{36}\.(png|jpg|gif|webp)$/

/** Avatars must point at a file we stored; this keeps arbitrary URLs and path tricks out. */
export const isUploadPath = (value: string) => UPLOAD_PATH.test(value)
