/**
 * The operator console's build (admin/, `npm run build:admin` → dist/admin) at /admin: the hashed files
 * under assets/ cached for a year, index.html never stored (a new build is seen at once), and every other
 * /admin/… page URL answered with index.html (the console routes in the browser). Without a build the
 * server still starts, and /admin says how to make one. Its Content-Security-Policy is
 * ADMIN_CONSOLE_POLICY, which security-headers.ts sets through consoleDocumentPolicy.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyStatic from '@fastify/static'

export const ADMIN_CONSOLE_PREFIX = '/admin'

/** A URL of the console: /admin and everything under it. */
const isAdminConsoleUrl = (url: string) => {
  const pathname = url.split('?')[0]
  return pathname === ADMIN_CONSOLE_PREFIX || pathname.startsWith(`${ADMIN_CONSOLE_PREFIX}/`)
}

/**
 * The operator console's documents (/admin): its own built scripts and nothing inline.
 * Styles need 'unsafe-inline': antd's CSS-in-JS writes <style> elements at run time (no hash can name
 * them). Images: ours and data: URLs (antd's and the favicon's), nothing from elsewhere. It calls its
 * API only; no frames, forms, fonts or plugins; nobody frames it.
 */
export const ADMIN_CONSOLE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** The console's policy for its own documents, null for every other URL. */
export const consoleDocumentPolicy = (url: string) =>
  isAdminConsoleUrl(url) ? ADMIN_CONSOLE_POLICY : null

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>运营后台尚未构建</title></head>
<body><h1>运营后台尚未构建</h1><p>请在项目目录运行 <code>npm run build:admin</code>，然后重启服务（<code>npm start</code> 会自动构建缺失或过期的运营后台）。</p></body></html>
`

/** A page URL the browser routes (no file extension), as opposed to a file that is missing. */
const PAGE_URL = /^\/admin(\/[\w-]+)*\/?$/

export async function registerAdminConsole(app: FastifyInstance, adminDist: string | null) {
  const index = adminDist ? path.join(adminDist, 'index.html') : null
  const built = index !== null && fs.existsSync(index)
  await app.register(
    async (admin) => {
      if (!built) {
        const notBuilt = (_request: FastifyRequest, reply: FastifyReply) =>
          reply
            .code(404)
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(NOT_BUILT_PAGE)
        admin.get('/', { schema: { hide: true } }, notBuilt)
        admin.get('/*', { schema: { hide: true } }, notBuilt)
        return
      }
      const sendIndex = (_request: FastifyRequest, reply: FastifyReply) =>
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(fs.createReadStream(index))
      await admin.register(fastifyStatic, {
        root: adminDist!,
        prefix: '/',
        decorateReply: false,
        // scripts/compress-h5.mjs wrote .br and .gz beside the build's files
        preCompressed: true,
        cacheControl: false,
        index: false,
        setHeaders(reply, filePath) {
          const inAssets = path.relative(path.join(adminDist!, 'assets'), filePath)
          const hashed = !inAssets.startsWith('..') && !path.isAbsolute(inAssets)
          if (hashed) reply.header('cache-control', 'public, max-age=31536000, immutable')
          else if (path.basename(filePath) === 'index.html')
            reply.header('cache-control', 'no-store')
          else reply.header('cache-control', 'no-cache')
        },
      })
      admin.get('/', { schema: { hide: true } }, sendIndex)
      // a file that is not there is a 404, a page URL gets the console
      admin.setNotFoundHandler((request, reply) => {
        const pathname = request.url.split('?')[0]
        if ((request.method === 'GET' || request.method === 'HEAD') && PAGE_URL.test(pathname)) {
          return sendIndex(request, reply)
        }
        return reply
          .code(404)
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'no-store')
          .send('Not Found')
      })
    },
    { prefix: ADMIN_CONSOLE_PREFIX },
  )
}
