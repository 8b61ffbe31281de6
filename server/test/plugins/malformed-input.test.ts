/**
 * Input the router or the database cannot take still gets our envelope: a URL with bad
 * percent-encoding (Fastify answered its own JSON), and text PostgreSQL cannot store anywhere in a
 * request (nested keys, array items, path parameters; the fuzz test covers every route's fields), and
 * nesting past MAX_BODY_DEPTH.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MAX_BODY_DEPTH, textProblemIn } from '../../src/plugins/text-input'
import { buildTestApp, loginWithSms, authHeaders } from '../helpers/test-app'

test('a malformed URL is answered with our envelope, 400 请求地址不正确', async (t) => {
  const { app } = await buildTestApp(t)
  for (const url of ['/%c0%ae', '/vmcloud/api/%', '/vmcloud/api/user/%E0%A4%A', '/files/%ff%']) {
    const reply = await app.inject({ url })
    assert.equal(reply.statusCode, 400, url)
    assert.match(String(reply.headers['content-type']), /^application\/json/, url)
    const body = reply.json()
    assert.deepEqual(
      { ...body, ts: 0 },
      { code: 400, msg: '请求地址不正确', data: null, ts: 0 },
      url,
    )
    assert.equal(typeof body.ts, 'number')
    assert.equal(reply.headers['x-content-type-options'], 'nosniff', url)
  }
})

test('NUL or a lone surrogate anywhere in a request is refused, naming where', async (t) => {
  const ta = await buildTestApp(t)
  const session = await loginWithSms(ta, '13500000031')
  const headers = { ...authHeaders(session), 'content-type': 'application/json' }
  const cases: { url: string; payload?: string; msg: string }[] = [
    {
      url: '/vmcloud/api/user/updateUserInfo',
      payload: JSON.stringify({ name: 'ok', extra: { list: ['x', 'a\u0000'] } }),
      msg: 'extra.list[1] 含有不支持的字符',
    },
    {
      url: '/vmcloud/api/user/updateUserInfo',
      payload: JSON.stringify({ extra: { ['na\u0000me']: 'x' } }),
      msg: 'extra 含有不支持的字符',
    },
    {
      url: '/vmcloud/api/user/updateUserInfo',
      payload: '{"name":"\\udc00x"}',
      msg: 'name 含有不支持的字符',
    },
    {
      url: '/vmcloud/api/user/updateUserInfo',
      payload: '"a\\u0000"',
      msg: '请求内容含有不支持的字符',
    },
    {
      url: '/vmcloud/api/sandbox/supplier/cover/sbx_%00',
      msg: 'instanceId 含有不支持的字符',
    },
    { url: '/vmcloud/api/device/list?keyword=%00', msg: 'keyword 含有不支持的字符' },
  ]
  for (const c of cases) {
    const reply = await ta.app.inject({
      method: c.payload === undefined ? 'GET' : 'POST',
      url: c.url,
      headers,
      payload: c.payload,
    })
    assert.equal(reply.statusCode, 400, c.url)
    assert.equal(reply.json().code, 400)
    assert.equal(reply.json().msg, c.msg, c.url)
  }
  // a pair of surrogates is one character (an emoji), and stays welcome
  const emoji = await ta.app.inject({
    method: 'POST',
    url: '/vmcloud/api/user/updateUserInfo',
    headers,
    payload: JSON.stringify({ name: '云😀' }),
  })
  assert.equal(emoji.json().code, 200, emoji.json().msg)
})

test('nesting is counted without recursion: MAX_BODY_DEPTH levels pass, one more is refused, text first in document order', () => {
  const nest = (levels: number, inner: unknown = 'x') => {
    let value = inner
    for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { k: value }
    return value
  }
  assert.equal(textProblemIn(nest(MAX_BODY_DEPTH)), null)
  assert.deepEqual(textProblemIn(nest(MAX_BODY_DEPTH + 1)), { tooDeep: true })
  assert.deepEqual(textProblemIn(nest(200_000)), { tooDeep: true })
  assert.deepEqual(textProblemIn(nest(3, 'a\u0000')), { unstorable: '/k/0/k' })
  // the first problem in document order is the one answered
  assert.deepEqual(textProblemIn({ a: 'ok', b: ['a\u0000'], c: nest(100) }), {
    unstorable: '/b/0',
  })
  assert.deepEqual(textProblemIn({ a: nest(100), b: 'a\u0000' }), { tooDeep: true })
  assert.deepEqual(textProblemIn({ list: ['x', { ['na\u0000me']: 1 }] }), { unstorable: '/list/1' })
  assert.deepEqual(textProblemIn({ a: 'a\u0000', ['b\u0000']: 1 }), { unstorable: '/a' })
})
