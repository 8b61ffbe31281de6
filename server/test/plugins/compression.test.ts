import assert from 'node:assert/strict'
import zlib from 'node:zlib'
import { test } from 'node:test'
import { commerceApp } from '../helpers/commerce'

const GOODS_LIST = '/vmcloud/api/CommodityGroup/getGoodsList'

test('API responses are compressed for clients that accept it, and only for them', async (t) => {
  const { app } = await commerceApp(t)
  const fetchList = (acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url: GOODS_LIST,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    })

  const plain = await fetchList()
  assert.equal(plain.headers['content-encoding'], undefined)
  assert.equal(plain.json().code, 200)
  assert.ok(plain.rawPayload.length > 10_000, `the list is ${plain.rawPayload.length} bytes`)

  const brotli = await fetchList('gzip, deflate, br')
  assert.equal(brotli.headers['content-encoding'], 'br')
  assert.match(String(brotli.headers.vary), /^accept-encoding$/i)
  assert.ok(brotli.rawPayload.length * 5 < plain.rawPayload.length)
  assert.deepEqual(
    JSON.parse(zlib.brotliDecompressSync(brotli.rawPayload).toString()).data,
    plain.json().data,
  )

  // the envelope is kept (and compressed) for up to a second, so its ts is at most that old
  const { ts } = JSON.parse(zlib.brotliDecompressSync(brotli.rawPayload).toString())
  assert.ok(Date.now() - ts < 1500, `ts ${Date.now() - ts} ms old`)

  const gzip = await fetchList('gzip')
  assert.equal(gzip.headers['content-encoding'], 'gzip')
  assert.deepEqual(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString()).data, plain.json().data)

  // a small envelope is not worth it
  const small = await app.inject({
    method: 'GET',
    url: '/vmcloud/api/user/getUserInfo',
    headers: { 'accept-encoding': 'br' },
  })
  assert.ok(small.rawPayload.length < 1024)
  assert.equal(small.headers['content-encoding'], undefined)
  assert.equal(typeof small.json().msg, 'string')
})
