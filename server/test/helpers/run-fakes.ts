/**
 * The local fakes of Alipay, WeChat Pay (API v3) and ACEP as one process, for scripts/deploy-check: a
 * production server is pointed at them exactly as at the real providers (gateways, keys, callback pair),
 * with ALLOW_SANDBOX_PAYMENT and ALLOW_SANDBOX_SUPPLIER unset.
 *
 *   node --import tsx server/test/helpers/run-fakes.ts --dir DIR \
 *     --public-base-url https://cloudphone.example.com --upstream http://127.0.0.1:3001 [--upstream …]
 *
 * It generates every key (the RSA2 application key and Alipay's, the merchant key and WeChat Pay's, a
 * random APIv3 key, a random ACEP key pair and callback pair), writes the PEM files and DIR/providers.env
 * (KEY=value lines: the environment the server needs for these providers, mode 600), starts the three
 * fakes on 127.0.0.1 and prints `fakes ready <control origin> uid <its uid>` on stdout.
 *
 * Notifications: the providers are told PUBLIC_BASE_URL (production refuses anything but https), which on
 * this machine has no TLS front to answer it. So the fakes play the reverse proxy's part themselves: a
 * notification to PUBLIC_BASE_URL's origin goes to the upstreams in turn (plain http on loopback), path
 * and bytes unchanged, as docs/deploy.md section 6 forwards it. ACEP's callbacks go to the first upstream.
 *
 * The control origin (the buyer's and the operator's hands, on 127.0.0.1 only):
 *   POST /alipay/pay/<out_trade_no>     the buyer pays an opened WAP checkout; answers the notifications
 *   POST /wechatpay/pay/<out_trade_no>  the buyer pays an H5 or JSAPI trade; likewise
 *   GET  /acep/pods                     every pod: its id, configuration code, Dc and whether it runs
 * It exits 0 on SIGTERM or SIGINT, and when its stdin closes (the check that started it is gone).
 */
import {
  generateKeyPairSync,
  randomBytes,
  randomInt,
  type KeyExportOptions,
  type KeyObject,
} from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { FakeAcep } from './fake-acep'
import { FakeAlipay, rsaKeyPair } from './fake-alipay'
import { FakeWechatPay } from './fake-wechatpay'

const ACEP_CALLBACK_PATH = '/vmcloud/api/supplier/acep/callback'

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    'public-base-url': { type: 'string' },
    upstream: { type: 'string', multiple: true },
    /** How long an ACEP pod takes to boot (real time). */
    'acep-boot-ms': { type: 'string', default: '2000' },
  },
})
const dir = values.dir
const publicBaseUrl = values['public-base-url']?.replace(/\/+$/, '')
const upstreams = (values.upstream ?? []).map((url) => url.replace(/\/+$/, ''))
if (!dir || !publicBaseUrl || upstreams.length === 0) {
  console.error(
    'usage: run-fakes.ts --dir DIR --public-base-url URL --upstream URL [--upstream URL]',
  )
  process.exit(2)
}
const publicOrigin = new URL(publicBaseUrl).origin

/** The proxy's part: a provider's request to our public origin, sent to the next upstream. */
let turn = 0
function throughProxy(url: string): string {
  const target = new URL(url)
  if (target.origin !== publicOrigin) {
    throw new Error(`a notification to ${url}, not to PUBLIC_BASE_URL (${publicOrigin})`)
  }
  return `${upstreams[turn++ % upstreams.length]}${target.pathname}${target.search}`
}

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') =>
  key.export({ type, format: 'pem' } as KeyExportOptions<'pem'>).toString()
function writeSecret(name: string, text: string) {
  const file = path.join(dir!, name)
  fs.writeFileSync(file, text, { mode: 0o600 })
  return file
}

async function start() {
  // Alipay: our RSA2 application key; the fake holds Alipay's own pair.
  const alipayAppId = `2021${String(randomInt(10 ** 11, 10 ** 12))}`
  const alipayKeys = rsaKeyPair()
  const alipay = await FakeAlipay.start({
    appId: alipayAppId,
    appPublicKey: alipayKeys.publicKey,
    deliver: async (url, body, contentType) => {
      const response = await fetch(throughProxy(url), {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      })
      return { status: response.status, body: await response.text() }
    },
  })

  // WeChat Pay: the merchant key and its certificate serial; the fake holds WeChat Pay's public key.
  const merchantKeys = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const merchantSerialNo = randomBytes(20).toString('hex').toUpperCase()
  const apiV3Key = randomBytes(16).toString('hex') // 32 bytes of text, as the merchant platform sets it
  const mchId = String(randomInt(1_600_000_000, 1_700_000_000))
  const wechatpay = await new FakeWechatPay({
    mchId,
    merchantSerialNo,
    merchantPublicKey: merchantKeys.publicKey,
    apiV3Key,
    now: () => new Date(),
    delayMs: 50,
  }).start()
  wechatpay.deliver = async (url, headers, body) => {
    const response = await fetch(throughProxy(url), { method: 'POST', headers, body })
    await response.text()
    return response.status
  }

  // ACEP: an API key pair, a business id and a callback pair, as the console issues them.
  const acepKeys = {
    accessKeyId: `AKLT${randomBytes(12).toString('hex')}`,
    secretAccessKey: randomBytes(24).toString('base64'),
    productId: String(randomInt(10 ** 12, 10 ** 13)),
    callbackAccessKey: `ak-${randomBytes(8).toString('hex')}`,
    callbackSecret: randomBytes(24).toString('hex'),
  }
  const acep = await new FakeAcep(acepKeys).start()
  acep.delayMs = Number(values['acep-boot-ms'])
  acep.callbackUrl = `${upstreams[0]}${ACEP_CALLBACK_PATH}`

  const env: Record<string, string> = {
    PUBLIC_BASE_URL: publicBaseUrl!,
    ALIPAY_PROVIDER: 'alipay',
    ALIPAY_APP_ID: alipayAppId,
    ALIPAY_PRIVATE_KEY_FILE: writeSecret('alipay-app-private.pem', alipayKeys.privateKey),
    ALIPAY_PUBLIC_KEY_FILE: writeSecret('alipay-public.pem', alipay.alipayPublicKey),
    ALIPAY_GATEWAY: alipay.gateway,
    WECHATPAY_PROVIDER: 'wechatpay',
    WECHATPAY_MCHID: mchId,
    WECHATPAY_MERCHANT_SERIAL_NO: merchantSerialNo,
    WECHATPAY_PRIVATE_KEY_FILE: writeSecret(
      'wechatpay-apiclient_key.pem',
      pem(merchantKeys.privateKey, 'pkcs8'),
    ),
    WECHATPAY_PUBLIC_KEY_ID: wechatpay.publicKeyId,
    WECHATPAY_PUBLIC_KEY_FILE: writeSecret(
      'wechatpay-public.pem',
      pem(wechatpay.platformKeys.publicKey, 'spki'),
    ),
    WECHATPAY_APIV3_KEY: apiV3Key,
    WECHATPAY_BASE_URL: wechatpay.baseUrl,
    WECHAT_APPID: `wx${randomBytes(8).toString('hex')}`,
    SUPPLIER_PROVIDER: 'acep',
    ACEP_ACCESS_KEY_ID: acepKeys.accessKeyId,
    ACEP_SECRET_ACCESS_KEY: acepKeys.secretAccessKey,
    ACEP_PRODUCT_ID: acepKeys.productId,
    ACEP_RESOURCE_TYPE: '200',
    ACEP_CALLBACK_ACCESS_KEY: acepKeys.callbackAccessKey,
    ACEP_CALLBACK_SECRET: acepKeys.callbackSecret,
    ACEP_ENDPOINT: acep.endpoint,
  }
  writeSecret(
    'providers.env',
    Object.entries(env)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  )

  const control = http.createServer((request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    const url = new URL(request.url ?? '/', 'http://control')
    const pay = /^\/(alipay|wechatpay)\/pay\/([^/]+)$/.exec(url.pathname)
    if (request.method === 'POST' && pay) {
      const outTradeNo = decodeURIComponent(pay[2])
      const paid =
        pay[1] === 'alipay' ? payAlipay(alipay, outTradeNo) : payWechatPay(wechatpay, outTradeNo)
      paid.then(
        (deliveries) => answer(200, { deliveries }),
        (error: Error) => answer(409, { error: error.message }),
      )
      return
    }
    if (request.method === 'GET' && url.pathname === '/acep/pods') {
      return answer(200, {
        pods: [...acep.pods.values()].map((pod) => ({
          podId: pod.id,
          config: pod.config,
          dc: pod.dc,
          running: !pod.off && acep.now() >= pod.bootUntil,
        })),
      })
    }
    answer(404, { error: `no ${request.method} ${url.pathname}` })
  })
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))

  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    control.close()
    await Promise.all([alipay.close(), wechatpay.close(), acep.stop()])
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
  process.on('SIGINT', () => void stop())
  process.stdin.on('end', () => void stop())
  process.stdin.resume()
  console.log(
    `fakes ready http://127.0.0.1:${(control.address() as AddressInfo).port} uid ${process.getuid?.()}`,
  )
}

/** The buyer pays on Alipay's page; answers every notification of that trade, once all are sent. */
async function payAlipay(fake: FakeAlipay, outTradeNo: string) {
  fake.pay(outTradeNo)
  await fake.settled()
  return fake.deliveries
    .filter((d) => new URLSearchParams(d.body).get('out_trade_no') === outTradeNo)
    .map((d) => ({ url: d.url, status: d.status, reply: d.reply }))
}

/** The buyer pays in WeChat Pay; likewise. */
async function payWechatPay(fake: FakeWechatPay, outTradeNo: string) {
  fake.pay(outTradeNo)
  await fake.settled()
  return fake.deliveries
    .filter((d) => (d.event?.resource as { out_trade_no?: string }).out_trade_no === outTradeNo)
    .map((d) => ({ url: d.url, status: d.status }))
}

start().catch((error: Error) => {
  console.error(`run-fakes: ${error.stack}`)
  process.exit(1)
})
