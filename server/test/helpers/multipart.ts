import type { App } from '../../src/app'
import type { UploadResult } from '../../src/contract/user'
import { authHeaders, type Envelope, type Session } from './test-app'

/** A valid 1×1 PNG. */
export const pngBytes = () =>
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  )

export async function uploadFile(
  app: App,
  session: Session | undefined,
  filename: string,
  contentType: string,
  content: Buffer,
): Promise<Envelope<UploadResult> & { status: number }> {
  const boundary = '----cloudphone' + Date.now()
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const response = await app.inject({
    method: 'POST',
    url: '/vmcloud/api/file/upload',
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(session ? authHeaders(session) : {}),
    },
  })
  return { ...(response.json() as Envelope<UploadResult>), status: response.statusCode }
}
