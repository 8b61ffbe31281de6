/**
 * The Aliyun SMS adapter's requests held against @alicloud/pop-core, the signer Aliyun's own
 * @alicloud/dysmsapi-2017-05-25 is built on: for the same parameters (ours, nonce and timestamp
 * included) pop-core must compute the same Signature and the same query string. Both are sent to a
 * local server that records the query and answers as Dysms does.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import RPCClient from '@alicloud/pop-core'
import { AliyunSmsAdapter } from '../../src/adapters/sms/aliyun-sms'

/** A local endpoint that records each request's query and answers SendSms's OK. */
async function recorder(t: TestContext) {
  const queries: URLSearchParams[] = []
  const raw: string[] = []
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    raw.push(url.search.slice(1))
    queries.push(url.searchParams)
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ Code: 'OK', Message: 'OK', BizId: '1', RequestId: 'R' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return { endpoint, queries, raw }
}

const SECRET = "testSecret!'()*~"

/** Sends one code through our adapter, then the same parameters through pop-core; both queries. */
async function bothSigners(t: TestContext, signName: string, code: string) {
  const { endpoint, queries, raw } = await recorder(t)
  const ours = new AliyunSmsAdapter({
    accessKeyId: 'LTAI5tTestKeyId',
    accessKeySecret: SECRET,
    signName,
    templateCode: 'SMS_154950909',
    endpoint,
  })
  await ours.sendCode({ mobilePhone: '13800138000', type: 'login', code })
  const sent = Object.fromEntries([...queries[0]].filter(([key]) => key !== 'Signature'))
  const popCore = new RPCClient({
    accessKeyId: sent.AccessKeyId,
    accessKeySecret: SECRET,
    endpoint,
    apiVersion: sent.Version,
  })
  // pop-core takes the given Timestamp and SignatureNonce over its own, so it signs exactly ours.
  const { Action, ...params } = sent
  await popCore.request(Action, params, { formatParams: false })
  return { ours: queries[0], oracle: queries[1], oursRaw: raw[0], oracleRaw: raw[1] }
}

/** The query's `key=value` pairs as sent (still percent-encoded), in order. */
const pairs = (query: string) => query.split('&').sort()

test("aliyun sms: a sign name with ( ) and values with ! ' ( ) * sign as pop-core signs them", async (t) => {
  const { ours, oracle, oursRaw, oracleRaw } = await bothSigners(t, '云手机(测试)', "1!'()*~ 2")
  assert.equal(ours.get('SignName'), '云手机(测试)')
  assert.equal(ours.get('Signature'), oracle.get('Signature'))
  assert.deepEqual(pairs(oursRaw), pairs(oracleRaw), 'the same bytes on the wire')
  assert.match(oursRaw, /SignName=%E4%BA%91%E6%89%8B%E6%9C%BA%28%E6%B5%8B%E8%AF%95%29/)
})

test('property: any sign name and code sign as pop-core signs them', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
      fc.string({ minLength: 1, maxLength: 8 }),
      async (signName, code) => {
        const { ours, oracle, oursRaw, oracleRaw } = await bothSigners(t, signName, code)
        assert.equal(ours.get('Signature'), oracle.get('Signature'))
        assert.deepEqual(pairs(oursRaw), pairs(oracleRaw))
      },
    ),
    { numRuns: 40 },
  )
})
