/**
 * Every kind of answer carries the security headers, and its Content-Security-Policy is one the page
 * can live with: the H5 documents' inline scripts are allowed by hash (never 'unsafe-inline'), a
 * page we render gets the hash of its own script, an uploaded file can never run script.
 */
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { commerceApp, runningPhones } from '../helpers/commerce'
import { buildTestApp, get, loginWithSms } from '../helpers/test-app'
import type { AuthTokenResult } from '../../src/contract/device'

const sha256 = (text: string) =>
  `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** The directives of a policy by name. */
function directives(policy: unknown): Map<string, string[]> {
  assert.equal(typeof policy, 'string', 'a Content-Security-Policy header')
  return new Map(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name, values]),
  )
}

function assertCommonHeaders(headers: Record<string, unknown>, what: string) {
  assert.equal(headers['x-content-type-options'], 'nosniff', what)
  assert.ok(headers['referrer-policy'], `${what}: Referrer-Policy`)
  assert.notEqual(headers['referrer-policy'], 'unsafe-url', what)
  assert.ok(headers['x-frame-options'], `${what}: X-Frame-Options`)
  assert.equal(headers['x-powered-by'], undefined, what)
}

/** A minimal H5 build: index.html with an inline script, like Taro's (the rem script) and ours. */
function fakeH5Build(t: { after(fn: () => void): void }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-h5-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const inline = '!function(n){n.document.documentElement.style.fontSize="20px"}(window);'
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><script>${inline}</script><style>body{margin:0}</style></head>` +
      `<body><div id="app"></div><script defer src="/js/app.0123abcd.js"></script></body></html>`,
  )
  fs.mkdirSync(path.join(dir, 'js'))
  fs.writeFileSync(path.join(dir, 'js/app.0123abcd.js'), 'console.log(1)')
  return { dir, inline }
}

test('H5 documents: inline scripts allowed by hash only, not framed, referrer kept to our origin', async (t) => {
  const build = fakeH5Build(t)
  const { app } = await buildTestApp(t, { config: { h5Dist: build.dir } })
  for (const url of ['/', '/pages/Home/index?link=abc']) {
    const page = await app.inject({ url, headers: { accept: 'text/html' } })
    assert.equal(page.statusCode, 200, url)
    assert.match(page.body, /<div id="app">/)
    assertCommonHeaders(page.headers, url)
    const csp = directives(page.headers['content-security-policy'])
    assert.deepEqual(csp.get('script-src'), ["'self'", sha256(build.inline)], url)
    assert.deepEqual(csp.get('script-src-attr'), ["'none'"])
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"])
    assert.deepEqual(csp.get('object-src'), ["'none'"])
    assert.deepEqual(csp.get('base-uri'), ["'self'"])
    // Taro's uploadFile reads the chosen file's blob: URL before it posts it
    assert.deepEqual(csp.get('connect-src'), ["'self'", 'blob:'])
    assert.equal(page.headers['referrer-policy'], 'strict-origin-when-cross-origin')
    assert.equal(page.headers['x-frame-options'], 'DENY')
  }
  // the build's own files: not documents, the API policy
  const script = await app.inject({ url: '/js/app.0123abcd.js' })
  assert.equal(script.statusCode, 200)
  assertCommonHeaders(script.headers, 'script file')
  assert.deepEqual(directives(script.headers['content-security-policy']).get('default-src'), [
    "'none'",
  ])
})

test('the API, 404s and /files: nothing runs, nothing frames them; an uploaded HTML file is sandboxed', async (t) => {
  const { app, filesDir } = await buildTestApp(t)
  const answers = {
    health: await app.inject({ url: '/vmcloud/api/health' }),
    'not found': await app.inject({ url: '/vmcloud/api/nope' }),
    refused: await app.inject({ url: '/vmcloud/api/user/getUserInfo' }),
  }
  for (const [what, reply] of Object.entries(answers)) {
    assertCommonHeaders(reply.headers, what)
    assert.equal(
      reply.headers['content-security-policy'],
      "default-src 'none'; frame-ancestors 'none'",
    )
    assert.equal(reply.headers['referrer-policy'], 'no-referrer', what)
  }

  fs.writeFileSync(path.join(filesDir, 'x.html'), '<script>alert(document.cookie)</script>')
  fs.writeFileSync(path.join(filesDir, 'a.png'), Buffer.from('89504e470d0a1a0a', 'hex'))
  for (const name of ['x.html', 'a.png']) {
    const file = await app.inject({ url: `/files/${name}` })
    assert.equal(file.statusCode, 200, name)
    assertCommonHeaders(file.headers, name)
    const csp = directives(file.headers['content-security-policy'])
    assert.deepEqual(csp.get('default-src'), ["'none'"], name)
    assert.ok(csp.has('sandbox'), `${name}: sandbox, so even a same-origin document has no origin`)
    assert.ok(!String(file.headers['content-security-policy']).includes('sha256'))
  }
})

test('sandbox pages: the control page runs only our own files, carries its data inertly, and only our frames show it', async (t) => {
  const ctx = await commerceApp(t)
  const me = await loginWithSms(ctx, '13400000012')
  const [deviceId] = await runningPhones(ctx, me)
  const issued = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
    deviceId: String(deviceId),
  })
  assert.equal(issued.code, 200, issued.msg)
  const page = await ctx.app.inject({
    url: `${issued.data.controlUrl}&token=${encodeURIComponent(issued.data.authToken)}&userId=${me.userId}`,
  })
  assert.equal(page.statusCode, 200)
  assertCommonHeaders(page.headers, 'control page')
  // its session and settings are a JSON element (adapters/supplier/control-page.ts), which runs nothing
  assert.match(page.body, /<script type="application\/json" id="control-data">/)
  const csp = directives(page.headers['content-security-policy'])
  assert.deepEqual(csp.get('script-src'), ["'self'"], 'no inline script allowed')
  assert.deepEqual(csp.get('frame-ancestors'), ["'self'"], 'shown in the H5 app’s iframe')
  assert.equal(page.headers['x-frame-options'], 'SAMEORIGIN')
  assert.equal(page.headers['referrer-policy'], 'no-referrer', 'its URL carries the token')

  // the page refused (token used) is framed the same way; the checkout is framed by nobody
  const refused = await ctx.app.inject({ url: '/vmcloud/api/sandbox/supplier/control' })
  assert.equal(refused.statusCode, 401)
  assert.deepEqual(directives(refused.headers['content-security-policy']).get('frame-ancestors'), [
    "'self'",
  ])
  const checkout = await ctx.app.inject({ url: '/vmcloud/api/sandbox/pay/checkout?tradeNo=T1' })
  assert.match(String(checkout.headers['content-type']), /text\/html/)
  assertCommonHeaders(checkout.headers, 'checkout')
  const checkoutCsp = directives(checkout.headers['content-security-policy'])
  assert.deepEqual(checkoutCsp.get('script-src'), ["'self'"], 'no inline script on the checkout')
  assert.deepEqual(checkoutCsp.get('form-action'), ["'self'"])
  assert.deepEqual(checkoutCsp.get('frame-ancestors'), ["'none'"])
})
