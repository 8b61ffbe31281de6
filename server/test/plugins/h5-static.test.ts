import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { test } from 'node:test'
import { buildTestApp } from '../helpers/test-app'

test('the H5 build is served with SPA fallback and sensible caching', async (t) => {
  const h5Dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-h5-'))
  t.after(() => fs.rmSync(h5Dist, { recursive: true, force: true }))
  fs.writeFileSync(path.join(h5Dist, 'index.html'), '<!doctype html><title>云手机</title>')
  fs.mkdirSync(path.join(h5Dist, 'js'))
  const script = 'console.log("app")'.repeat(50)
  fs.writeFileSync(path.join(h5Dist, 'js', 'app.1a2b3c4d.js'), script)
  fs.writeFileSync(path.join(h5Dist, 'js', 'app.1a2b3c4d.js.br'), zlib.brotliCompressSync(script))
  const { app } = await buildTestApp(t, { config: { h5Dist } })

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

test('a prerendered page URL gets its prerendered document, compressed as the browser accepts', async (t) => {
  const h5Dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-h5-'))
  t.after(() => fs.rmSync(h5Dist, { recursive: true, force: true }))
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(h5Dist, file)), { recursive: true })
    fs.writeFileSync(path.join(h5Dist, file), text)
    fs.writeFileSync(path.join(h5Dist, `${file}.br`), zlib.brotliCompressSync(text))
    fs.writeFileSync(path.join(h5Dist, `${file}.gz`), zlib.gzipSync(text))
  }
  // as scripts/prerender-h5.mjs writes them: `/` and Home's URL both show Home
  write('index.html', '<!doctype html><div id="app"></div>')
  write('prerendered/index.html', '<div id="prerendered">root: 登录后查看您的云手机</div>')
  write(
    'prerendered/pages/Home/index.html',
    '<div id="prerendered">home: 登录后查看您的云手机</div>',
  )
  write('prerendered/pages/login/login.html', '<div id="prerendered">欢迎使用云手机</div>')
  const { app } = await buildTestApp(t, { config: { h5Dist } })

  const open = async (url: string, acceptEncoding = 'identity', accept = 'text/html') => {
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { accept, 'accept-encoding': acceptEncoding },
    })
    assert.equal(response.statusCode, 200, url)
    assert.equal(response.headers['cache-control'], 'no-cache', url)
    const encoding = response.headers['content-encoding']
    if (encoding === 'br') return zlib.brotliDecompressSync(response.rawPayload).toString()
    if (encoding === 'gzip') return zlib.gunzipSync(response.rawPayload).toString()
    return response.body
  }

  assert.match(await open('/'), /root: 登录后查看您的云手机/)
  assert.match(await open('/', 'gzip, deflate, br'), /root: 登录后查看您的云手机/)
  // `/` is the app for any client, as before (a health check, curl)
  assert.match(await open('/', 'identity', '*/*'), /root: /)
  assert.match(await open('/pages/Home/index?channelCode=abc', 'br'), /home: 登录后查看您的云手机/)
  assert.match(
    await open('/pages/login/login?redirect=%2Fpages%2FHome%2Findex', 'gzip'),
    /欢迎使用云手机/,
  )
  // pages without a prerendered document, and anything that is not a plain page path, get index.html
  assert.equal(await open('/pages/Home/create', 'br'), '<!doctype html><div id="app"></div>')
  assert.equal(await open('/pages/Home/index/'), '<!doctype html><div id="app"></div>')
  assert.equal(await open('/pages/../prerendered/index'), '<!doctype html><div id="app"></div>')
  const head = await app.inject({ method: 'HEAD', url: '/', headers: { accept: 'text/html' } })
  assert.equal(head.statusCode, 200)
  // the documents are sent for their pages' URLs only, never as files of the build
  for (const file of ['prerendered/index.html', 'prerendered/pages/login/login.html.br']) {
    const direct = await app.inject({ method: 'GET', url: `/${file}` })
    assert.equal(direct.statusCode, 404, file)
  }
})
