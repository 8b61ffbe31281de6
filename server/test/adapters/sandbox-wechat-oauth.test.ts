/**
 * The sandbox WeChat's official-account authorisation page plays WeChat's OAuth redirect for the H5
 * app in development and e2e: straight back to the site that asked, with a code and the state; the
 * same browser is the same WeChat user; any other site is refused, as WeChat refuses a callback
 * outside the domain registered for the account.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sandboxOpenid } from '../../src/adapters/wechat/sandbox-wechat'
import { buildTestApp, post } from '../helpers/test-app'
import type { WxLoginResult } from '../../src/contract/auth'

const AUTHORIZE = '/vmcloud/api/sandbox/wechat/oauth2/authorize'
const HOST = 'h5.example.test'
const BACK = `https://${HOST}/pages/auth/wechatAuth?redirect=%2Fpages%2Fuser%2Fconfig&isWeChatAuth=1`

const query = (over: Record<string, string> = {}) => ({
  appid: 'wx_sandbox',
  redirect_uri: BACK,
  response_type: 'code',
  scope: 'snsapi_base',
  state: 'st-1',
  ...over,
})

test('sandbox official-account authorisation', async (t) => {
  const { app } = await buildTestApp(t)
  const authorize = (q: Record<string, string>, cookie?: string) =>
    app.inject({
      method: 'GET',
      url: AUTHORIZE,
      query: q,
      headers: { host: HOST, ...(cookie ? { cookie } : {}) },
    })

  const first = await authorize(query())
  assert.equal(first.statusCode, 302)
  const back = new URL(first.headers.location as string)
  assert.equal(`${back.origin}${back.pathname}`, `https://${HOST}/pages/auth/wechatAuth`)
  assert.equal(back.searchParams.get('redirect'), '/pages/user/config', 'its query kept as it was')
  assert.equal(back.searchParams.get('isWeChatAuth'), '1')
  assert.equal(back.searchParams.get('state'), 'st-1')
  const code = back.searchParams.get('code')!
  assert.match(code, /^sandbox:oa-[0-9a-f]{32}$/)
  const cookie = String(first.headers['set-cookie']).split(';')[0]

  await t.test('the code logs that WeChat in through the real login route', async () => {
    const reply = await post<WxLoginResult>(app, '/user/wxOfficialAccountLogin', { jsCode: code })
    assert.equal(reply.code, 200, reply.msg)
    assert.equal(reply.data.openid, sandboxOpenid(code))
    assert.equal(reply.data.bound, false)
  })

  await t.test('the same browser is the same WeChat user; another browser another', async () => {
    const again = await authorize(query({ state: 'st-2' }), cookie)
    const againBack = new URL(again.headers.location as string)
    assert.equal(againBack.searchParams.get('code'), code)
    assert.equal(againBack.searchParams.get('state'), 'st-2')
    assert.equal(again.headers['set-cookie'], undefined)
    const other = await authorize(query())
    assert.notEqual(new URL(other.headers.location as string).searchParams.get('code'), code)
  })

  await t.test('only back to the site that asked (no open redirect)', async () => {
    for (const redirect_uri of [
      'https://evil.example/steal',
      `https://${HOST}.evil.example/x`,
      'javascript:alert(1)',
      `//evil.example/${HOST}`,
      'not a url',
    ]) {
      const refused = await authorize(query({ redirect_uri }))
      assert.notEqual(refused.statusCode, 302, redirect_uri)
      assert.equal(refused.headers.location, undefined, redirect_uri)
      assert.equal(refused.json().code, 1080)
    }
  })

  await t.test('a malformed request is refused like WeChat refuses it', async () => {
    const bads: Record<string, string>[] = [
      { response_type: 'token' },
      { scope: 'snsapi_login' },
      { appid: '' },
    ]
    for (const bad of bads) {
      const refused = await authorize(query(bad))
      assert.equal(refused.statusCode, 400, JSON.stringify(bad))
      assert.equal(refused.headers.location, undefined)
    }
  })
})
