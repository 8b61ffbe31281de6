/**
 * The go-live smoke check against the fakes: each provider's check (in its adapter folder) when all is
 * well, when the provider refuses our credentials, answers unsigned or with a bad signature, and when it
 * is unreachable (a closed port); then `npm run providers:check` (scripts/providers-check.ts) itself:
 * what it prints and its exit code, a sandbox provider printed as such.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { checkAlipay } from '../../src/adapters/payment/alipay/alipay-check'
import { checkWechatPay } from '../../src/adapters/payment/wechatpay/wechatpay-check'
import type { ProviderCheckResult } from '../../src/adapters/provider-check'
import { checkAliyunSms } from '../../src/adapters/sms/aliyun-sms-check'
import { FakeAlipay, rsaKeyPair } from '../helpers/fake-alipay'
import { FakeAliyunSms } from '../helpers/fake-aliyun-sms'
import { wechatPayWorld, type FakeWechatPayOptions } from '../helpers/fake-wechatpay'

const ROOT = path.resolve(__dirname, '../../..')

/** A port nothing listens on. */
async function closedPort() {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

function tempDir(t: TestContext) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'providers-check-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

const passed = (result: ProviderCheckResult) => ({
  reachable: true,
  credentialsAccepted: true,
  signatureVerified: result.provider === 'sms' ? null : true,
  missing: [],
})
const facts = (result: ProviderCheckResult) => ({
  reachable: result.reachable,
  credentialsAccepted: result.credentialsAccepted,
  signatureVerified: result.signatureVerified,
  missing: result.missing,
})

async function wechatpay(t: TestContext, signing: FakeWechatPayOptions['signing'] = 'publicKey') {
  const w = await wechatPayWorld(t, () => new Date(), signing)
  return { ...w, env: { ...w.env, WECHATPAY_PROVIDER: 'wechatpay' } }
}

async function alipay(t: TestContext) {
  const dir = tempDir(t)
  const app = rsaKeyPair()
  const fake = await FakeAlipay.start({ appId: '2021000122671080', appPublicKey: app.publicKey })
  t.after(() => fake.close())
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text)
    return path.join(dir, name)
  }
  const env: NodeJS.ProcessEnv = {
    ALIPAY_PROVIDER: 'alipay',
    ALIPAY_APP_ID: '2021000122671080',
    ALIPAY_PRIVATE_KEY_FILE: write('app.pem', app.privateKey),
    ALIPAY_PUBLIC_KEY_FILE: write('alipay.pem', fake.alipayPublicKey),
    ALIPAY_GATEWAY: fake.gateway,
    PUBLIC_BASE_URL: 'https://cloudphone.example.cn',
  }
  return { fake, env, write }
}

async function sms(
  t: TestContext,
  signs: Record<string, number> = { '云手机(测试)': 1 },
  templates: Record<string, number> = { SMS_154950909: 1 },
) {
  const fake = await new FakeAliyunSms({
    accessKeyId: 'LTAI5tTestKeyId',
    accessKeySecret: "s3cret!'()*",
    signs,
    templates,
  }).start()
  t.after(() => fake.close())
  const env: NodeJS.ProcessEnv = {
    SMS_PROVIDER: 'aliyun',
    ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI5tTestKeyId',
    ALIYUN_SMS_ACCESS_KEY_SECRET: "s3cret!'()*",
    ALIYUN_SMS_SIGN_NAME: '云手机(测试)',
    ALIYUN_SMS_TEMPLATE_CODE: 'SMS_154950909',
    ALIYUN_SMS_ENDPOINT: fake.endpoint,
  }
  return { fake, env }
}

test('wechatpay check: a signed ORDER_NOT_EXIST in each mode; refused credentials; unsigned; forged; unreachable', async (t) => {
  for (const signing of ['publicKey', 'certificate', 'both'] as const) {
    const { env } = await wechatpay(t, signing)
    const result = await checkWechatPay(env)
    assert.deepEqual(facts(result), passed(result), `${signing}: ${result.notes.join('; ')}`)
  }
  const { fake, env, dir } = await wechatpay(t)
  const otherKey = path.join(dir, 'other.pem')
  fs.writeFileSync(
    otherKey,
    generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  )
  const refused = await checkWechatPay({ ...env, WECHATPAY_PRIVATE_KEY_FILE: otherKey })
  assert.equal(refused.credentialsAccepted, false)
  assert.match(refused.notes.join(), /HTTP 401 SIGN_ERROR 签名错误/)

  fake.signAnswers = false
  const unsigned = await checkWechatPay(env)
  assert.deepEqual(
    [unsigned.reachable, unsigned.credentialsAccepted, unsigned.signatureVerified],
    [true, true, false],
  )
  assert.match(unsigned.notes.join(), /缺少微信支付签名/)
  fake.signAnswers = true
  fake.answerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  const forged = await checkWechatPay(env)
  assert.equal(forged.signatureVerified, false)
  assert.match(forged.notes.join(), /签名校验失败/)
  fake.answerKey = null

  const unreachable = await checkWechatPay({
    ...env,
    WECHATPAY_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
  })
  assert.deepEqual(facts(unreachable), {
    reachable: false,
    credentialsAccepted: null,
    signatureVerified: null,
    missing: [],
  })
  assert.match(unreachable.notes.join(), /ECONNREFUSED/)
  assert.deepEqual((await checkWechatPay({ WECHATPAY_PROVIDER: 'wechatpay' })).reachable, false)
})

test('alipay check: a signed ACQ.TRADE_NOT_EXIST; refused credentials; unsigned; forged; unreachable', async (t) => {
  const { fake, env, write } = await alipay(t)
  const ok = await checkAlipay(env)
  assert.deepEqual(facts(ok), passed(ok), ok.notes.join('; '))

  const refused = await checkAlipay({
    ...env,
    ALIPAY_PRIVATE_KEY_FILE: write('other.pem', rsaKeyPair().privateKey),
  })
  assert.equal(refused.credentialsAccepted, false)
  assert.match(refused.notes.join(), /isv\.invalid-signature/)

  fake.answerSigning = 'unsigned'
  const unsigned = await checkAlipay(env)
  assert.deepEqual(
    [unsigned.reachable, unsigned.credentialsAccepted, unsigned.signatureVerified],
    [true, true, false],
  )
  fake.answerSigning = 'forged'
  const forged = await checkAlipay(env)
  assert.equal(forged.signatureVerified, false)
  assert.match(forged.notes.join(), /验签失败/)
  fake.answerSigning = 'signed'

  const unreachable = await checkAlipay({
    ...env,
    ALIPAY_GATEWAY: `http://127.0.0.1:${await closedPort()}/gateway.do`,
  })
  assert.equal(unreachable.reachable, false)
  assert.equal(unreachable.signatureVerified, null)
})

test('sms check: the sign name and template approved; refused credentials; missing or unapproved; unreachable', async (t) => {
  const { fake, env } = await sms(t)
  const ok = await checkAliyunSms(env)
  assert.deepEqual(facts(ok), passed(ok), ok.notes.join('; '))
  assert.deepEqual(
    fake.requests.map((r) => r.action),
    ['GetSmsSign', 'GetSmsTemplate'],
  )

  const wrongSecret = await checkAliyunSms({ ...env, ALIYUN_SMS_ACCESS_KEY_SECRET: 'other' })
  assert.equal(wrongSecret.credentialsAccepted, false)
  assert.match(wrongSecret.notes.join(), /SignatureDoesNotMatch/)
  const unknownKey = await checkAliyunSms({ ...env, ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI5tNobody' })
  assert.match(unknownKey.notes.join(), /InvalidAccessKeyId\.NotFound/)

  const pending = await sms(t, { '云手机(测试)': 0 }, {})
  const missing = await checkAliyunSms(pending.env)
  assert.equal(missing.credentialsAccepted, true)
  assert.deepEqual(missing.missing, [
    'ALIYUN_SMS_SIGN_NAME 云手机(测试): not approved (SignStatus 0 审核中)',
    'ALIYUN_SMS_TEMPLATE_CODE SMS_154950909: not on the account (isv.SMS_TEMPLATE_ILLEGAL 该账号下找不到对应模板)',
  ])

  const unreachable = await checkAliyunSms({
    ...env,
    ALIYUN_SMS_ENDPOINT: `http://127.0.0.1:${await closedPort()}/`,
  })
  assert.deepEqual(facts(unreachable), {
    reachable: false,
    credentialsAccepted: null,
    signatureVerified: null,
    missing: [],
  })
})

function providersCheck(env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/providers-check.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.on('close', (code) => resolve({ code, stdout }))
  })
}

test('npm run providers:check prints each provider and exits 1 when a configured one fails', async (t) => {
  const w = await wechatpay(t)
  const a = await alipay(t)
  const s = await sms(t)
  const all = await providersCheck({ ...w.env, ...a.env, ...s.env })
  assert.equal(all.code, 0, all.stdout)
  assert.match(
    all.stdout,
    /^wechatpay: ok\n {2}reachable: yes\n {2}credentials accepted: yes\n {2}signature verified: yes$/m,
  )
  assert.match(all.stdout, /^alipay: ok$/m)
  assert.match(
    all.stdout,
    /^sms: ok\n {2}reachable: yes\n {2}credentials accepted: yes\n {2}signature verified: —$/m,
  )

  w.fake.signAnswers = false
  const oneFails = await providersCheck({ ...w.env, ...s.env })
  assert.equal(oneFails.code, 1)
  assert.match(oneFails.stdout, /^wechatpay: FAILED\n(.*\n){2} {2}signature verified: NO$/m)
  assert.match(oneFails.stdout, /^alipay: sandbox \(not checked\)$/m)
  assert.match(oneFails.stdout, /^sms: ok$/m)
  assert.match(oneFails.stdout, /^acep: sandbox \(not checked\)$/m)
})
