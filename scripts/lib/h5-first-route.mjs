/**
 * What the H5 site's first route costs to load: the CSS and JS inline in the document (index.html,
 * which carries the app's stylesheet, or the route's prerendered copy of it) and the JS and CSS files
 * Chromium fetches for `/` until the network is idle, at a phone-sized viewport, with their raw and gzip (level 9) sizes. The build is served from disk on
 * 127.0.0.1 (unknown paths fall back to index.html, as the server does); API calls are answered 503,
 * so the page renders its signed-out/offline state without a backend.
 * Used by check-h5 (the budget) and bench/package-size (the comparison with an empty app).
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs'
import { prerenderedFile } from '../../shared/prerendered.mjs'

const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.png': 'image/png',
}

/**
 * The document the server sends for a page URL (server/src/plugins/h5-static.ts `spaDocument`): the
 * page's prerendered HTML when the build has one, else index.html.
 */
export function documentFor(distDir, pathname) {
  const prerendered = prerenderedFile(distDir, pathname)
  return prerendered.startsWith(distDir) && fs.existsSync(prerendered)
    ? prerendered
    : path.join(distDir, 'index.html')
}

/** Serves distDir on 127.0.0.1 (page URLs get their document, as the server does); { url, close }. */
export function serveStatic(distDir) {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname)
    let file = path.join(distDir, pathname)
    if (!file.startsWith(distDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = documentFor(distDir, pathname)
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
    fs.createReadStream(file).pipe(res)
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(done)),
      })
    })
  })
}

const sized = (file, content) => ({
  file,
  bytes: Buffer.byteLength(content),
  gzip: zlib.gzipSync(content, { level: 9 }).length,
})

/**
 * The document's inline stylesheets and scripts (index.html carries the app's stylesheet), which are
 * the route's CSS and JS like the files, and the rest: its markup, a prerendered page's text and
 * pictures included, which the JS + CSS budget does not count and check-h5 shows beside it.
 */
function splitDocument(html) {
  const inlineTag = /<(style|script)\b[^>]*>([\s\S]*?)<\/\1>/gi
  const inline = [...html.matchAll(inlineTag)].map((match) => match[2]).join('\n')
  return { inline, markup: html.replace(inlineTag, '') }
}

/**
 * @returns {Promise<{ files: { file: string, bytes: number, gzip: number }[], bytes: number, gzip: number, markup: { bytes: number, gzip: number } }>}
 */
export async function measureH5FirstRoute(distDir, { route = '/' } = {}) {
  const root = path.resolve(distDir)
  const site = await serveStatic(root)
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  })
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
    })
    const page = await context.newPage()
    const fetched = new Set()
    await page.route('**/*', (request) => {
      const type = request.request().resourceType()
      if (type === 'xhr' || type === 'fetch') return request.fulfill({ status: 503, body: '' })
      return request.continue()
    })
    page.on('response', (response) => {
      const pathname = new URL(response.url()).pathname
      if (/\.(js|css)$/.test(pathname)) fetched.add(pathname)
    })
    await page.goto(site.url + route, { waitUntil: 'networkidle' })
    const document = documentFor(root, route)
    const { inline, markup } = splitDocument(fs.readFileSync(document, 'utf8'))
    const files = [
      sized(`${path.relative(root, document)}: inline CSS and JS`, inline),
      ...[...fetched].sort().map((p) => sized(p.slice(1), fs.readFileSync(path.join(root, p)))),
    ]
    return {
      files,
      bytes: files.reduce((sum, f) => sum + f.bytes, 0),
      gzip: files.reduce((sum, f) => sum + f.gzip, 0),
      markup: sized('markup', markup),
    }
  } finally {
    await browser.close()
    await site.close()
  }
}
