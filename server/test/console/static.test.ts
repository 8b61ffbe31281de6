import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { test, type TestContext } from 'node:test'
import { ADMIN_CONSOLE_POLICY } from '../../src/console/plugins/static'
import { buildTestApp } from '../helpers/test-app'

const HTML = { accept: 'text/html,application/xhtml+xml' }

function consoleBuild(t: TestContext) {
  const adminDist = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-admin-'))
  t.after(() => fs.rmSync(adminDist, { recursive: true, force: true }))
  fs.writeFileSync(
    path.join(adminDist, 'index.html'),
    '<!doctype html><title>云手机运营后台</title>',
  )
  fs.mkdirSync(path.join(adminDist, 'assets'))
  const script = 'console.log("console")'.repeat(100)
  fs.writeFileSync(path.join(adminDist, 'assets', 'index-CIGnSD2C.js'), script)
  fs.writeFileSync(
    path.join(adminDist, 'assets', 'index-CIGnSD2C.js.br'),
    zlib.brotliCompressSync(script),
  )
  return { adminDist, script }
}

test('the console is served at /admin: page URLs get index.html, never stored, under its own CSP', async (t) => {
  const { adminDist } = consoleBuild(t)
  const { app } = await buildTestApp(t, { config: { adminDist } })

  for (const url of ['/admin', '/admin/', '/admin/operators', '/admin/audit?page=2']) {
    const page = await app.inject({ method: 'GET', url, headers: HTML })
    assert.equal(page.statusCode, 200, url)
    assert.match(page.body, /云手机运营后台/, url)
    assert.match(page.headers['content-type'] as string, /^text\/html/, url)
    assert.equal(page.headers['cache-control'], 'no-store', url)
    assert.equal(page.headers['content-security-policy'], ADMIN_CONSOLE_POLICY, url)
    assert.equal(page.headers['x-frame-options'], 'DENY', url)
  }
  const index = await app.inject({ method: 'GET', url: '/admin/index.html' })
  assert.equal(index.headers['cache-control'], 'no-store')
  assert.equal(index.headers['content-security-policy'], ADMIN_CONSOLE_POLICY)
  assert.match(ADMIN_CONSOLE_POLICY, /frame-ancestors 'none'/)
  assert.match(ADMIN_CONSOLE_POLICY, /script-src 'self'(;|$)/)
})

test('the console build: hashed assets cached for a year and sent precompressed; a missing file is a 404', async (t) => {
  const { adminDist, script } = consoleBuild(t)
  const { app } = await buildTestApp(t, { config: { adminDist } })

  const asset = await app.inject({
    method: 'GET',
    url: '/admin/assets/index-CIGnSD2C.js',
    headers: { 'accept-encoding': 'br' },
  })
  assert.equal(asset.statusCode, 200)
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.equal(asset.headers['content-encoding'], 'br')
  assert.equal(zlib.brotliDecompressSync(asset.rawPayload).toString(), script)

  for (const url of [
    '/admin/assets/index-gone1234.js',
    '/admin/favicon.ico',
    '/admin/../package.json',
  ]) {
    const missing = await app.inject({ method: 'GET', url, headers: HTML })
    assert.equal(missing.statusCode, 404, url)
    assert.doesNotMatch(missing.body, /云手机运营后台/, url)
  }
  // an unsafe method is no page
  const post = await app.inject({ method: 'POST', url: '/admin/operators', headers: HTML })
  assert.equal(post.statusCode, 404)
})

test('without a console build the server starts and /admin says how to build it', async (t) => {
  const missing = path.join(os.tmpdir(), 'cloud-phone-admin-never-built')
  for (const adminDist of [null, missing]) {
    const { app } = await buildTestApp(t, { config: { adminDist } })
    for (const url of ['/admin', '/admin/operators']) {
      const page = await app.inject({ method: 'GET', url, headers: HTML })
      assert.equal(page.statusCode, 404, url)
      assert.match(page.body, /npm run build:admin/, url)
      assert.match(page.body, /请在项目目录运行/, url)
      const prose = /<body>(.*)<\/body>/s
        .exec(page.body)?.[1]
        .replace(/<code>.*?<\/code>|<[^>]+>/g, '')
      assert.ok(prose, url)
      assert.doesNotMatch(
        prose,
        /[A-Za-z]{3,}/,
        `${url}: Chinese, only the commands in Latin letters`,
      )
      assert.equal(page.headers['content-security-policy'], ADMIN_CONSOLE_POLICY, url)
    }
  }
})
