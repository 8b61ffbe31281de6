/**
 * Our WeChat Pay v3 rules (adapters/payment/wechatpay/protocol.ts) beside two independent SDKs used as
 * oracles, wechatpay-axios-plugin 0.9.6 and wechatpay-node-v3 2.2.1: the request signature and
 * Authorization, the mini-program's paySign, the verification of what the fake WeChat Pay signs (in
 * both modes) and the AES-256-GCM of notifications and platform certificates. RSA PKCS#1 v1.5 signing
 * is deterministic, so equal inputs must give equal signatures byte for byte.
 */
import assert from 'node:assert/strict'
import { createPublicKey, generateKeyPairSync } from 'node:crypto'
import { test } from 'node:test'
import fc from 'fast-check'
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin'
import Pay from 'wechatpay-node-v3'
import { decryptCertificates } from '../../src/adapters/payment/wechatpay/platform-certificates'
import {
  authorization,
  decryptResource,
  payParams,
  verifySigned,
} from '../../src/adapters/payment/wechatpay/protocol'
import { FakeWechatPay, TEST_APIV3_KEY, TEST_MCHID } from '../helpers/fake-wechatpay'

const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 })
const merchantPem = merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1'

/** wechatpay-node-v3's client for our merchant (its APIv3 key too). */
const nodeV3 = () =>
  new Pay({
    appid: 'wx0mini0program01',
    mchid: TEST_MCHID,
    serial_no: SERIAL,
    publicKey: Buffer.from(merchant.publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    privateKey: Buffer.from(merchantPem),
    key: TEST_APIV3_KEY,
  })

/** The Authorization header's fields. */
const fields = (header: string) =>
  Object.fromEntries(
    [...header.replace(/^WECHATPAY2-SHA256-RSA2048 /, '').matchAll(/(\w+)="([^"]*)"/g)].map(
      ([, k, v]) => [k, v],
    ),
  )

test('request signature and Authorization: the same as both SDKs compute', () => {
  fc.assert(
    fc.property(
      // As we call WeChat Pay: GET without a body, POST with JSON.
      fc.oneof(
        fc.constant(['GET', ''] as const),
        fc.json({ maxDepth: 2 }).map((json) => ['POST', json] as const),
      ),
      fc.webPath(),
      ([method, body], urlPath) => {
        const ours = fields(
          authorization(
            { mchId: TEST_MCHID, serialNo: SERIAL, privateKey: merchant.privateKey },
            method,
            urlPath,
            body,
            new Date(),
          ),
        )
        const message = Formatter.request(method, urlPath, ours.timestamp, ours.nonce_str, body)
        assert.equal(ours.signature, Rsa.sign(message, merchant.privateKey))
        assert.equal(
          ours.signature,
          nodeV3().getSignature(method, ours.nonce_str, ours.timestamp, urlPath, body),
        )
        const plugin = Formatter.authorization(
          TEST_MCHID,
          ours.nonce_str,
          ours.signature,
          ours.timestamp,
          SERIAL,
        )
        assert.deepEqual(ours, fields(plugin))
      },
    ),
    { numRuns: 30 },
  )
})

test("the mini-program's paySign: the same as wechatpay-axios-plugin's", () => {
  const params = payParams(merchant.privateKey, 'wx0mini0program01', 'wx2014prepay', new Date())
  const message = Formatter.joinedByLineFeed(
    params.appId,
    params.timeStamp,
    params.nonceStr,
    params.package,
  )
  assert.equal(params.paySign, Rsa.sign(message, merchant.privateKey))
})

test('what the fake WeChat Pay signs and seals, in both modes: both SDKs verify and open it as we do', async (t) => {
  const fake = await new FakeWechatPay({
    mchId: TEST_MCHID,
    merchantSerialNo: SERIAL,
    merchantPublicKey: merchant.publicKey,
    apiV3Key: TEST_APIV3_KEY,
    now: () => new Date(),
    signing: 'both',
  }).start()
  t.after(() => fake.close())
  const certificateKey = createPublicKey(fake.certificates[0].certificate)
  const keys = {
    [fake.publicKeyId]: fake.platformKeys.publicKey,
    [fake.certificates[0].serialNo]: certificateKey,
  }
  const keyring = { key: (serial: string) => keys[serial] ?? null }
  const resource = {
    mchid: TEST_MCHID,
    out_trade_no: 'T1',
    trade_state: 'SUCCESS',
    amount: { total: 1 },
  }
  const serials = new Set<string>()
  for (let i = 0; i < 4; i++) {
    const body = fake.notificationBody('TRANSACTION.SUCCESS', 'transaction', resource)
    const headers = fake.signedHeaders(body)
    const serial = headers['Wechatpay-Serial']
    serials.add(serial)
    verifySigned(keyring, headers, body, new Date())
    const response = Formatter.response(
      headers['Wechatpay-Timestamp'],
      headers['Wechatpay-Nonce'],
      body,
    )
    assert.ok(Rsa.verify(response, headers['Wechatpay-Signature'], keys[serial]))
    ;(Pay as unknown as { certificates: Record<string, string> }).certificates[serial] = keys[
      serial
    ]
      .export({ type: 'spki', format: 'pem' })
      .toString()
    assert.ok(
      await nodeV3().verifySign({
        timestamp: headers['Wechatpay-Timestamp'],
        nonce: headers['Wechatpay-Nonce'],
        body,
        serial,
        signature: headers['Wechatpay-Signature'],
      }),
    )
    const sealed = JSON.parse(body).resource
    const ours = decryptResource(Buffer.from(TEST_APIV3_KEY), body).resource
    const plugin = Aes.AesGcm.decrypt(
      sealed.ciphertext,
      TEST_APIV3_KEY,
      sealed.nonce,
      sealed.associated_data,
    )
    assert.deepEqual(ours, JSON.parse(plugin))
    assert.deepEqual(
      ours,
      nodeV3().decipher_gcm(
        sealed.ciphertext,
        sealed.associated_data,
        sealed.nonce,
        TEST_APIV3_KEY,
      ),
    )
  }
  assert.equal(serials.size, 2, 'the public key and the certificate both signed')

  // 下载平台证书 from the fake, as wechatpay-node-v3 downloads it (its own HTTP, sent to the fake).
  const sdk = nodeV3()
  sdk.createHttp({
    get: async (url: string, headers: Record<string, string>) => {
      const response = await fetch(url.replace('https://api.mch.weixin.qq.com', fake.baseUrl), {
        headers,
      })
      return { status: response.status, data: await response.json() }
    },
  } as unknown as Parameters<typeof sdk.createHttp>[0])
  const downloaded = await sdk.get_certificates(TEST_APIV3_KEY)
  const text = JSON.stringify({ data: downloaded })
  const ours = decryptCertificates(Buffer.from(TEST_APIV3_KEY), text)
  assert.deepEqual(
    ours.map((c) => c.serialNo),
    downloaded.map((c) => c.serial_no),
  )
  assert.equal(
    createPublicKey(ours[0].certificate).export({ type: 'spki', format: 'pem' }).toString().trim(),
    String((downloaded[0] as { publicKey?: string }).publicKey).trim(),
  )
})
