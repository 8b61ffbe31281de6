import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { negotiate } from '@fastify/accept-negotiator'
import fastifyStatic from '@fastify/static'
import { COMPRESSION, inEncoding, type KeptBody } from './compression'
import { PRERENDERED_DIR, prerenderedFile } from '../../../shared/prerendered.mjs'

const HASHED_ASSET = /\.[0-9a-f]{8}\.[a-z0-9]+(\.(br|gz))?$/i
const NOT_SPA_PREFIXES = ['/vmcloud/api', '/files', '/docs']

export const h5IndexExists = (h5Dist: string) => fs.existsSync(path.join(h5Dist, 'index.html'))

/**
 * Page URLs whose document is made for each request (level-goods-document.ts), and how: the HTML,
 * kept with its compressed forms, or null for index.html.
 */
export type LivePages = ReadonlyMap<string, () => Promise<KeptBody | null>>
const NO_LIVE_PAGES: LivePages = new Map()

/** Serves the Taro H5 build at / with long caching for content-hashed files only. */
export async function registerH5(app: FastifyInstance, h5Dist: string, livePages = NO_LIVE_PAGES) {
  await app.register(fastifyStatic, {
    root: h5Dist,
    prefix: '/',
    decorateReply: false,
    preCompressed: true,
    cacheControl: false,
    // `/` is a page URL like the others (sendSpaIndex below): it may have a prerendered page
    index: false,
    // the prerendered documents and the template and renderer of 创建云机's are sent for page URLs
    // (sendSpaIndex), not as files
    allowedPath: (pathName) => !pathName.startsWith(`/${PRERENDERED_DIR}/`),
    setHeaders(reply, filePath) {
      if (HASHED_ASSET.test(path.basename(filePath))) {
        reply.header('Cache-Control', 'public, max-age=31536000, immutable')
      } else {
        reply.header('Cache-Control', 'no-cache')
      }
    },
  })
  app.get('/', (request, reply) => sendSpaIndex(request, reply, h5Dist, livePages))
}

/** Taro H5 uses history routing: a page URL that is not a file gets index.html. */
export function isSpaNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const pathname = request.url.split('?')[0]
  if (NOT_SPA_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`)))
    return false
  return String(request.headers.accept ?? '').includes('text/html')
}

const EXTENSION = { br: '.br', gzip: '.gz' } as const

/** A page URL: letters, digits, - and _ between slashes, so it never names a file outside the pages. */
const PAGE_PATH = /^(\/[\w-]+)+$/

/** The page's prerendered HTML when the build has one, else index.html. */
export function spaDocument(h5Dist: string, url: string): string {
  const pathname = url.split('?')[0]
  if (pathname === '/' || PAGE_PATH.test(pathname)) {
    const file = prerenderedFile(h5Dist, pathname)
    if (fs.existsSync(file)) return file
  }
  return path.join(h5Dist, 'index.html')
}

/**
 * The document for a page URL (made for the request, prerendered, or index.html), brotli or gzip as
 * the browser accepts (scripts/compress-h5.mjs writes both for the files). reply.sendFile cannot: it
 * comes from the /files registration, which serves no precompressed files, and index.html carries the
 * app's stylesheet (9 KB raw, 2 KB compressed).
 */
export async function sendSpaIndex(
  request: FastifyRequest,
  reply: FastifyReply,
  h5Dist: string,
  livePages = NO_LIVE_PAGES,
) {
  reply
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-cache')
    .header('Vary', 'Accept-Encoding')
  const encoding = negotiate(
    String(request.headers['accept-encoding'] ?? ''),
    COMPRESSION.encodings,
  )
  const live = await livePages.get(request.url.split('?')[0])?.()
  if (live) {
    if (encoding) reply.header('Content-Encoding', encoding)
    return reply.send(inEncoding(live, encoding ?? null))
  }
  const file = spaDocument(h5Dist, request.url)
  const compressed = encoding && `${file}${EXTENSION[encoding]}`
  if (compressed && fs.existsSync(compressed)) {
    return reply.header('Content-Encoding', encoding).send(fs.createReadStream(compressed))
  }
  return reply.send(fs.createReadStream(file))
}
