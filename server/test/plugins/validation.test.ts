/**
 * JSON null is not 0 (a review): with Ajv's type coercion on bodies, `{"deviceId": null}` passed
 * validation as 0, a null text as "" and a null flag as false. A body is now taken as sent (null only
 * where the schema allows it), while a query string and path still arrive as text and are coerced.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import Fastify from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Nullable } from '../../src/contract/common'
import errorHandling from '../../src/plugins/errors'
import { schemaCompilers } from '../../src/plugins/validation'
import type { AdminCatalogue, AdminPriceRow } from '../../src/console/contract/catalogue'
import { adminCall, createOperator, signIn } from '../console/helpers'
import { commerceApp } from '../helpers/commerce'
import { get, loginWithSms, post } from '../helpers/test-app'

const Body = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  name: Type.String(),
  on: Type.Boolean(),
  ids: Type.Optional(Type.Array(Type.Integer())),
  maybe: Type.Optional(Nullable(Type.Integer())),
})

async function echoApp() {
  const app = Fastify(schemaCompilers()).withTypeProvider<TypeBoxTypeProvider>()
  await app.register(errorHandling)
  app.post(
    '/echo/:id',
    {
      schema: {
        params: Type.Object({ id: Type.Integer() }),
        querystring: Type.Object({ page: Type.Optional(Type.Integer()) }),
        body: Body,
      },
    },
    async (request) => ({ params: request.params, query: request.query, body: request.body }),
  )
  return app
}

const VALID = { count: 3, name: 'a', on: true }

test('a null body field is refused as its wrong type unless the schema allows null', async (t) => {
  const app = await echoApp()
  t.after(() => app.close())
  const send = (body: unknown) =>
    app.inject({ method: 'POST', url: '/echo/7?page=2', payload: body as object })
  for (const [field, value] of [
    ['count', null],
    ['name', null],
    ['on', null],
    ['ids', [null]],
    ['ids', null],
  ] as const) {
    const reply = await send({ ...VALID, [field]: value })
    assert.equal(reply.statusCode, 400, `${field}: ${JSON.stringify(value)}`)
    const expected = Array.isArray(value) ? `${field}[0] 类型不正确` : `${field} 类型不正确`
    assert.equal(reply.json().msg, expected)
  }
  // the one field the schema makes nullable keeps its null (it was never coerced to 0)
  const nullable = await send({ ...VALID, maybe: null })
  assert.equal(nullable.statusCode, 200, nullable.body)
  assert.deepEqual(nullable.json().body, { ...VALID, maybe: null })
})

test('a body is taken as sent; the path and query string are still coerced from text', async (t) => {
  const app = await echoApp()
  t.after(() => app.close())
  const ok = await app.inject({ method: 'POST', url: '/echo/7?page=2', payload: VALID })
  assert.equal(ok.statusCode, 200, ok.body)
  assert.deepEqual(ok.json(), { params: { id: 7 }, query: { page: 2 }, body: VALID })
  // what coercion used to accept in a JSON body: a numeric string, a flag as text, a number as text,
  // a scalar for a list
  for (const [field, value] of [
    ['count', '12'],
    ['on', 'true'],
    ['name', 12],
    ['ids', 5],
  ] as const) {
    const reply = await app.inject({
      method: 'POST',
      url: '/echo/7',
      payload: { ...VALID, [field]: value },
    })
    assert.equal(reply.statusCode, 400, `${field}: ${JSON.stringify(value)}`)
    assert.equal(reply.json().msg, `${field} 类型不正确`)
  }
  const badQuery = await app.inject({ method: 'POST', url: '/echo/7?page=x', payload: VALID })
  assert.equal(badQuery.statusCode, 400)
})

test('on the app: a null id, name or price field is refused with 400 and nothing changes', async (t) => {
  const ta = await commerceApp(t)
  const session = await loginWithSms(ta, '13500000002')
  for (const body of [
    { deviceId: null, name: '我的手机' },
    { deviceId: 1, name: null },
  ]) {
    const reply = await post(ta.app, '/device/rename', body, session)
    assert.equal(reply.status, 400, JSON.stringify(body))
    assert.match(reply.msg, /类型不正确$/)
  }
  // JSON.stringify writes NaN (Number('') of a lost page parameter) as null
  const nan = await post(ta.app, '/device/rename', { deviceId: NaN, name: 'x' }, session)
  assert.equal(nan.msg, 'deviceId 类型不正确')
  // a query string still arrives as text and is coerced: an unknown phone, not a type error
  const detail = await get(ta.app, '/device/detail', session, { deviceId: '999999' })
  assert.notEqual(detail.status, 400, detail.msg)

  const as = await signIn(ta, await createOperator(ta, 'nulls', 'admin'))
  const cat = await adminCall<AdminCatalogue>(ta, 'GET', '/catalogue', { as })
  assert.equal(cat.code, 200, cat.msg)
  const row = cat.data.goods.flatMap((g) => g.prices).find((p) => p.oldGoodPrice === null)
  assert.ok(row, 'a price row without an old price')
  const { id, goodTime: _t, activityId: _a, ...body } = row
  for (const field of ['goodPrice', 'firstCount', 'version'] as const) {
    const reply = await adminCall(ta, 'POST', `/catalogue/prices/${id}`, {
      as,
      body: { ...body, [field]: null },
    })
    assert.equal(reply.status, 400, field)
    assert.equal(reply.msg, `${field} 类型不正确`)
  }
  const after = await adminCall<AdminCatalogue>(ta, 'GET', '/catalogue', { as })
  const unchanged = after.data.goods.flatMap((g) => g.prices).find((p) => p.id === id)
  assert.deepEqual(unchanged, row)
  // a nullable price stays null through an edit (it was never turned into 0)
  const edited = await adminCall<AdminPriceRow>(ta, 'POST', `/catalogue/prices/${id}`, {
    as,
    body: { ...body, goodPrice: body.goodPrice + 1, oldGoodPrice: null },
  })
  assert.equal(edited.code, 200, edited.msg)
  assert.equal(edited.data.oldGoodPrice, null)
})
