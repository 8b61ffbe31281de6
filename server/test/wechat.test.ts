import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sandboxOpenid } from '../src/adapters/wechat/sandbox-wechat'
import { buildTestApp, get, post, sendCode } from './helpers/test-app'

test('WeChat login: unbound, binding by SMS, bound', async (t) => {
  const ctx = await buildTestApp(t)
  const { app, clock } = ctx
  const openid = sandboxOpenid('sandbox:alice')!

  await t.test('the sandbox derives a stable openid from the code', async () => {
    assert.match(openid, /^o_sandbox_[0-9a-f]{16}$/)
    assert.equal(sandboxOpenid('sandbox:alice'), openid)
    assert.equal(sandboxOpenid('real-looking-code'), null)
  })

  await t.test('an unknown code format → 1007', async () => {
    const reply = await post(app, '/user/wxAppletsLogin', { jsCode: 'garbage' })
    assert.equal(reply.code, 1007)
    assert.equal(reply.msg, '微信授权失败，请重新进入后再试')
  })

  await t.test('an unbound openid comes back without a token', async () => {
    const reply = await post(app, '/user/wxAppletsLogin', { jsCode: 'sandbox:alice' })
    assert.deepEqual(reply.data, { openid, bound: false })
  })

  await t.test('an openid WeChat never gave us cannot be bound', async () => {
    const code = await sendCode(app, '13200000009')
    const reply = await post(app, '/user/wxOfficialAccountLoginPro', {
      openid: 'o_made_up',
      mobilePhone: '13200000009',
      code,
    })
    assert.equal(reply.code, 1004)
  })

  await t.test('Pro binds the openid to the number (registering it) and logs in', async () => {
    clock.advance(61_000)
    const code = await sendCode(app, '13200000001')
    const reply = await post(app, '/user/wxOfficialAccountLoginPro', {
      openid,
      mobilePhone: '13200000001',
      code,
    })
    assert.equal(reply.code, 200)
    assert.equal(reply.data.firstLogin, 1)
    assert.equal((await get(app, '/user/getUserInfo', reply.data)).data.mobilePhone, '13200000001')
  })

  await t.test(
    'the bound openid now logs straight in, from the mini-program and the official account',
    async () => {
      const applet = await post(app, '/user/wxAppletsLogin', { jsCode: 'sandbox:alice' })
      assert.equal(applet.data.bound, true)
      assert.equal(applet.data.firstLogin, 0)
      assert.equal((await get(app, '/user/getUserInfo', applet.data)).code, 200)
      const oa = await post(app, '/user/wxOfficialAccountLogin', {
        jsCode: 'sandbox:alice',
        loginType: 2,
      })
      assert.equal(oa.data.userId, applet.data.userId)
    },
  )

  await t.test('an openid bound to one number cannot be bound to another', async () => {
    clock.advance(61_000)
    const code = await sendCode(app, '13200000002')
    const reply = await post(app, '/user/wxOfficialAccountLoginPro', {
      openid,
      mobilePhone: '13200000002',
      code,
    })
    assert.equal(reply.code, 1080)
    assert.equal(reply.msg, '该微信已绑定其他手机号')
  })
})
