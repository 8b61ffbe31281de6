/**
 * Going live: which provider collects each pay method, the callback base URL, the database,
 * and the one error that names everything missing before anything starts.
 */
import assert from 'node:assert/strict'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { realAdapters } from '../../src/adapters'
import {
  assertProductionSafe,
  loadConfig,
  realPaymentProviderOn,
  sandboxAdapters,
} from '../../src/config'

/** A production whose every other setting is sound, so each test names only what it is about. */
const SOUND = {
  NODE_ENV: 'production',
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
  ALIYUN_SMS_SIGN_NAME: '云手机',
  ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
  WECHAT_PROVIDER: 'wechat',
  WECHAT_APPID: 'wx0123456789abcdef',
  WECHAT_SECRET: 'wechat-secret',
  ALLOW_SANDBOX_PAYMENT: '1',
  ALLOW_SANDBOX_SUPPLIER: '1',
  SANDBOX_PAY_SECRET: 'a-long-secret-of-our-own',
  BENEFIT_PEPPER: 'a-pepper-of-our-own',
  DATABASE_URL: 'postgres://cloudphone@db.internal/cloudphone',
}

/** realAdapters' refusal (the one main.ts prints), or null when it starts. */
function refusal(env: NodeJS.ProcessEnv): string | null {
  try {
    realAdapters(loadConfig(env), env)
    return null
  } catch (error) {
    return (error as Error).message
  }
}

test('a sound production starts; with the sandbox collecting both pay methods, no real provider is made', () => {
  assert.equal(refusal(SOUND), null)
  const adapters = realAdapters(loadConfig(SOUND), SOUND)
  assert.deepEqual(adapters.payments, [])
  assert.ok(adapters.sms && adapters.wechat)
})

test('each pay method names its provider; the sandbox is in use while either is on it', () => {
  const both = loadConfig({})
  assert.equal(both.alipayProvider, 'sandbox')
  assert.equal(both.wechatpayProvider, 'sandbox')
  assert.ok(sandboxAdapters(both).includes('payment'))
  assert.equal(realPaymentProviderOn(both), false)
  for (const env of [{ ALIPAY_PROVIDER: 'alipay' }, { WECHATPAY_PROVIDER: 'wechatpay' }]) {
    const config = loadConfig(env)
    assert.ok(sandboxAdapters(config).includes('payment'), JSON.stringify(env))
    assert.equal(realPaymentProviderOn(config), true)
  }
  const real = loadConfig({ ALIPAY_PROVIDER: 'alipay', WECHATPAY_PROVIDER: 'wechatpay' })
  assert.equal(sandboxAdapters(real).includes('payment'), false)
  // the switch and the development secret are no longer asked for once neither method is on the sandbox
  const message = refusal({
    ...SOUND,
    ALLOW_SANDBOX_PAYMENT: '0',
    SANDBOX_PAY_SECRET: '',
    ALIPAY_PROVIDER: 'alipay',
    WECHATPAY_PROVIDER: 'wechatpay',
    PUBLIC_BASE_URL: 'https://phone.example.com',
  })
  assert.ok(message)
  assert.doesNotMatch(message, /ALLOW_SANDBOX_PAYMENT|SANDBOX_PAY_SECRET/)
  // with one method on the sandbox, the refusal says which
  const half = refusal({
    ...SOUND,
    ALLOW_SANDBOX_PAYMENT: '0',
    WECHATPAY_PROVIDER: 'wechatpay',
    PUBLIC_BASE_URL: 'https://phone.example.com',
  })
  assert.match(half ?? '', /- ALIPAY_PROVIDER=sandbox: .*ALLOW_SANDBOX_PAYMENT=1/)
  assert.doesNotMatch(half ?? '', /WECHATPAY_PROVIDER=sandbox/)
  for (const [name, value] of [
    ['ALIPAY_PROVIDER', 'Alipay'],
    ['WECHATPAY_PROVIDER', 'wechat'],
  ]) {
    assert.throws(() => loadConfig({ [name]: value }), new RegExp(`${name} must be one of`))
  }
})

test('production with real providers names everything missing in one message', () => {
  const message = refusal({
    NODE_ENV: 'production',
    SMS_PROVIDER: 'aliyun',
    WECHAT_PROVIDER: 'wechat',
    ALIPAY_PROVIDER: 'alipay',
    WECHATPAY_PROVIDER: 'wechatpay',
  })
  assert.ok(message)
  assert.match(message, /^Refusing to start with NODE_ENV=production:\n- /)
  for (const named of [
    // the SMS and WeChat login readers' own words
    'ALIYUN_SMS_ACCESS_KEY_ID',
    'ALIYUN_SMS_TEMPLATE_CODE',
    'WECHAT_APPID and WECHAT_SECRET',
    // the payment providers' keys and certificates (or, in a build without one, that it is missing)
    'ALIPAY_',
    'WECHATPAY_',
    'PUBLIC_BASE_URL is not set',
    'DATABASE_URL is not set',
    'ALLOW_SANDBOX_SUPPLIER=1',
    'BENEFIT_PEPPER',
  ]) {
    assert.ok(message.includes(named), `${named} in:\n${message}`)
  }
  // neither method is on the sandbox: nothing about its switch or secret
  assert.doesNotMatch(message, /ALLOW_SANDBOX_PAYMENT|SANDBOX_PAY_SECRET/)
  // each problem once, one a line
  const lines = message.split('\n').slice(1)
  assert.ok(lines.length >= 8, message)
  assert.equal(new Set(lines).size, lines.length, message)
  assert.ok(
    lines.every((line) => line.startsWith('- ')),
    message,
  )
})

test('outside production a real provider without its credentials does not start either', () => {
  for (const env of [
    { ALIPAY_PROVIDER: 'alipay' },
    { WECHATPAY_PROVIDER: 'wechatpay' },
    { SMS_PROVIDER: 'aliyun' },
  ]) {
    const message = refusal(env)
    assert.match(message ?? '', /^Refusing to start:\n- /, JSON.stringify(env))
  }
  assert.equal(refusal({}), null, 'development on the sandboxes starts as it is')
})

test('PUBLIC_BASE_URL: https, and only needed once a real payment provider or ACEP is on', () => {
  const problems = (env: NodeJS.ProcessEnv) => {
    try {
      assertProductionSafe(loadConfig({ ...SOUND, WECHATPAY_PROVIDER: 'wechatpay', ...env }))
      return ''
    } catch (error) {
      return (error as Error).message
    }
  }
  assert.match(problems({}), /PUBLIC_BASE_URL is not set/)
  for (const bad of [
    'http://phone.example.com',
    'phone.example.com',
    'https://phone.example.com/?x=1',
    'https://user:pw@phone.example.com',
  ]) {
    assert.match(problems({ PUBLIC_BASE_URL: bad }), /PUBLIC_BASE_URL must be an https origin/, bad)
  }
  for (const good of [
    'https://phone.example.com',
    'https://phone.example.com/',
    ' https://a.b:8443 ',
  ]) {
    assert.doesNotMatch(problems({ PUBLIC_BASE_URL: good }), /PUBLIC_BASE_URL/, good)
  }
  assert.equal(
    loadConfig({ PUBLIC_BASE_URL: 'https://phone.example.com//' }).publicBaseUrl,
    'https://phone.example.com',
  )
  // ACEP fetches the app library's APKs from our signed links: it needs the origin too
  const onAcep = (env: NodeJS.ProcessEnv) => {
    try {
      assertProductionSafe(loadConfig({ ...SOUND, SUPPLIER_PROVIDER: 'acep', ...env }))
      return ''
    } catch (error) {
      return (error as Error).message
    }
  }
  assert.match(onAcep({}), /PUBLIC_BASE_URL is not set: .*ACEP fetches APKs/)
  assert.doesNotMatch(onAcep({ PUBLIC_BASE_URL: 'https://phone.example.com' }), /PUBLIC_BASE_URL/)
  // on the sandboxes production needs no callback origin
  assert.doesNotThrow(() => assertProductionSafe(loadConfig(SOUND)))
})

test('production runs on PostgreSQL unless the embedded database is allowed out loud', () => {
  const message = (env: NodeJS.ProcessEnv) => refusal({ ...SOUND, DATABASE_URL: '', ...env }) ?? ''
  assert.match(message({}), /DATABASE_URL is not set: production runs on PostgreSQL/)
  assert.match(message({}), /ALLOW_EMBEDDED_DATABASE=1/)
  assert.equal(message({ ALLOW_EMBEDDED_DATABASE: '1' }), '')
  assert.match(message({ ALLOW_EMBEDDED_DATABASE: '0' }), /DATABASE_URL is not set/)
  assert.throws(
    () => loadConfig({ ALLOW_EMBEDDED_DATABASE: 'yes' }),
    /ALLOW_EMBEDDED_DATABASE must be 1 or 0/,
  )
  // outside production PGlite is the default
  assert.doesNotThrow(() => assertProductionSafe(loadConfig({})))
})

test('a full production on real Alipay and WeChat Pay starts, each collecting its own pay method', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-keys-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  /** A fresh RSA-2048 key pair as two PEM files: the private one ours, the public one the provider's. */
  const keyFiles = (name: string) => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const files = { private: path.join(dir, `${name}.key`), public: path.join(dir, `${name}.pub`) }
    fs.writeFileSync(files.private, privateKey.export({ type: 'pkcs8', format: 'pem' }))
    fs.writeFileSync(files.public, publicKey.export({ type: 'spki', format: 'pem' }))
    return files
  }
  const app = keyFiles('alipay-app')
  const alipay = keyFiles('alipay')
  const merchant = keyFiles('wechatpay-merchant')
  const platform = keyFiles('wechatpay-platform')
  const env = {
    ...SOUND,
    ALLOW_SANDBOX_PAYMENT: '0',
    SANDBOX_PAY_SECRET: '',
    PUBLIC_BASE_URL: 'https://phone.example.com',
    ALIPAY_PROVIDER: 'alipay',
    ALIPAY_APP_ID: '2021000000000001',
    ALIPAY_PRIVATE_KEY_FILE: app.private,
    ALIPAY_PUBLIC_KEY_FILE: alipay.public,
    WECHATPAY_PROVIDER: 'wechatpay',
    WECHATPAY_MCHID: '1900000001',
    WECHATPAY_MERCHANT_SERIAL_NO: randomBytes(20).toString('hex').toUpperCase(),
    WECHATPAY_PRIVATE_KEY_FILE: merchant.private,
    WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0119000000012024110100000001',
    WECHATPAY_PUBLIC_KEY_FILE: platform.public,
    WECHATPAY_APIV3_KEY: randomBytes(16).toString('hex'),
  }
  assert.equal(refusal(env), null)
  const { payments } = realAdapters(loadConfig(env), env)
  assert.deepEqual(
    payments.map((p) => [p.name, [...p.methods], p.isSandbox]),
    [
      ['alipay', [1], false],
      ['wechatpay', [2], false],
    ],
  )
  assert.equal(sandboxAdapters(loadConfig(env)).includes('payment'), false)
  // one key file missing is named, and nothing else
  const message = refusal({ ...env, WECHATPAY_PUBLIC_KEY_FILE: path.join(dir, 'missing.pub') })
  assert.match(
    message ?? '',
    /^Refusing to start with NODE_ENV=production:\n- [^\n]*WECHATPAY_PUBLIC_KEY_FILE[^\n]*$/,
  )
})
