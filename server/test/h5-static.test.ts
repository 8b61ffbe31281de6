import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { test } from 'node:test'
import { buildTestApp } from './helpers/test-app'

test('the H5 build is served with SPA fallback and sensible caching', async (t) => {
  const h5Dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-h5-'))
  t.after(() => fs.rmSync(h5Dist, { recursive: true, force: true }))
  fs.writeFileSync(path.join(h5Dist, 'index.html'), '<!doctype html><title>云手机</title>')
  fs.mkdirSync(path.join(h5Dist, 'js'))
  const script = 'console.log("app")'.repeat(50)
  fs.writeFileSync(path.join(h5Dist, 'js', 'app.1a2b3c4d.js'), script)
  fs.writeFileSync(path.join(h5Dist, 'js', 'app.1a2b3c4d.js.br'), zlib.brotliCompressSync(script))
  const { app } = await buildTestApp(t, { h5Dist })

  const html = { accept: 'text/html,application/xhtml+xml' }
  const root = await app.inject({ method: 'GET', url: '/', headers: html })
  assert.equal(root.statusCode, 200)
  assert.match(root.body, /云手机/)
  assert.equal(root.headers['cache-control'], 'no-cache')

  const deepLink = await app.inject({
    method: 'GET',
    url: '/pages/user/recharge?from=share',
    headers: html,
  })
  assert.equal(deepLink.statusCode, 200)
  assert.match(deepLink.body, /云手机/)
  assert.equal(deepLink.headers['cache-control'], 'no-cache')

  // a page URL gets index.html compressed as the browser accepts, as the files themselves are
  const index = fs.readFileSync(path.join(h5Dist, 'index.html'))
  fs.writeFileSync(path.join(h5Dist, 'index.html.br'), zlib.brotliCompressSync(index))
  fs.writeFileSync(path.join(h5Dist, 'index.html.gz'), zlib.gzipSync(index))
  const page = (acceptEncoding: string) =>
    app.inject({
      method: 'GET',
      url: '/pages/Home/create',
      headers: { ...html, 'accept-encoding': acceptEncoding },
    })
  const brotli = await page('gzip, deflate, br')
  assert.equal(brotli.headers['content-encoding'], 'br')
  assert.equal(brotli.headers.vary, 'Accept-Encoding')
  assert.match(brotli.headers['content-type'] as string, /^text\/html/)
  assert.match(zlib.brotliDecompressSync(brotli.rawPayload).toString(), /云手机/)
  const gzip = await page('gzip;q=1, br;q=0')
  assert.equal(gzip.headers['content-encoding'], 'gzip')
  assert.match(zlib.gunzipSync(gzip.rawPayload).toString(), /云手机/)
  const plain = await page('identity')
  assert.equal(plain.headers['content-encoding'], undefined)
  assert.match(plain.body, /云手机/)

  const asset = await app.inject({
    method: 'GET',
    url: '/js/app.1a2b3c4d.js',
    headers: { 'accept-encoding': 'br' },
  })
  assert.equal(asset.statusCode, 200)
  assert.equal(asset.headers['content-encoding'], 'br')
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')

  const missingAsset = await app.inject({
    method: 'GET',
    url: '/js/missing.js',
    headers: { accept: '*/*' },
  })
  assert.equal(missingAsset.statusCode, 404)

  const api = await app.inject({ method: 'GET', url: '/vmcloud/api/nothing', headers: html })
  assert.equal(api.statusCode, 404)
  assert.equal(api.json().msg, 'Not Found')
  const docs = await app.inject({ method: 'GET', url: '/docs', headers: html })
  assert.notEqual(docs.statusCode, 404)
})
