import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { sandboxOpenid } from '../../src/adapters/wechat/sandbox-wechat'
import { users, wechatBindTickets } from '../../src/db/schema'
import { hashOpaqueSecret } from '../../src/domain/secrets'
import { buildTestApp, get, post, sendCode, type Session, type TestApp } from '../helpers/test-app'
import type { LoginResult, WxLoginResult } from '../../src/contract/auth'
import type { UserInfo } from '../../src/contract/user'

const APPLET_LOGIN = '/user/wxAppletsLogin'
const OA_LOGIN = '/user/wxOfficialAccountLogin'
const APPLET_BIND = '/user/wxAppletsLoginPro'
const OA_BIND = '/user/wxOfficialAccountLoginPro'

/** A WeChat login of either kind with the sandbox code `sandbox:<name>`. */
async function wechatLogin(ta: TestApp, path: string, name: string) {
  const reply = await post<WxLoginResult>(ta.app, path, { jsCode: `sandbox:${name}`, loginType: 2 })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

/** A fresh login code for the number (past the resend wait). */
async function freshCode(ta: TestApp, mobilePhone: string) {
  ta.clock.advance(61_000)
  return sendCode(ta.app, mobilePhone)
}

test('WeChat login: unbound, binding by SMS with a bind ticket, bound', async (t) => {
  const ta = await buildTestApp(t)
  const { app, clock } = ta
  const openid = sandboxOpenid('sandbox:alice')!

  await t.test('the sandbox derives a stable openid from the code', async () => {
    assert.match(openid, /^o_sandbox_[0-9a-f]{16}$/)
    assert.equal(sandboxOpenid('sandbox:alice'), openid)
    assert.equal(sandboxOpenid('real-looking-code'), null)
  })

  await t.test('an unknown code format → 1007', async () => {
    const reply = await post(app, APPLET_LOGIN, { jsCode: 'garbage' })
    assert.equal(reply.code, 1007)
    assert.equal(reply.msg, '微信授权失败，请重新进入后再试')
  })

  await t.test('an unbound WeChat comes back without a token, with a bind ticket', async () => {
    const data = await wechatLogin(ta, APPLET_LOGIN, 'alice')
    assert.equal(data.openid, openid)
    assert.equal(data.bound, false)
    assert.equal(data.token, undefined)
    assert.match(data.bindTicket!, /^[0-9a-f]{64}$/)
    assert.equal(data.bindTicketExpiresIn, 600)
    const [stored] = await ta.database.db
      .select()
      .from(wechatBindTickets)
      .where(eq(wechatBindTickets.ticketHash, hashOpaqueSecret(data.bindTicket!)))
    assert.equal(stored.openId, openid, 'kept hashed, with the identity it proves')
    assert.equal(stored.source, 'applet')
  })

  await t.test("an attacker with the victim's openid but no ticket cannot bind it", async () => {
    const attacker = '13200000009'
    for (const bind of [APPLET_BIND, OA_BIND]) {
      const withOpenid = await post(app, bind, {
        openid,
        mobilePhone: attacker,
        code: await freshCode(ta, attacker),
      })
      assert.equal(withOpenid.status, 400)
      assert.equal(withOpenid.msg, '缺少参数 bindTicket')
      const forged = await post(app, bind, {
        bindTicket: openid,
        openid,
        mobilePhone: attacker,
        code: await freshCode(ta, attacker),
      })
      assert.equal(forged.code, 1004)
      assert.equal(forged.msg, '微信授权已失效，请重新授权')
    }
    const [row] = await ta.database.db.select().from(users).where(eq(users.openId, openid))
    assert.equal(row, undefined, 'nobody holds the WeChat')
    assert.equal((await wechatLogin(ta, APPLET_LOGIN, 'alice')).bound, false)
  })

  await t.test('a ticket from the other kind of WeChat login is refused', async () => {
    const mobile = '13200000001'
    const oaTicket = (await wechatLogin(ta, OA_LOGIN, 'alice')).bindTicket
    const appletTicket = (await wechatLogin(ta, APPLET_LOGIN, 'alice')).bindTicket
    const code = await freshCode(ta, mobile)
    const crossed = [
      await post<LoginResult>(app, APPLET_BIND, {
        bindTicket: oaTicket,
        mobilePhone: mobile,
        code,
      }),
      await post<LoginResult>(app, OA_BIND, {
        bindTicket: appletTicket,
        mobilePhone: mobile,
        code,
      }),
    ]
    assert.deepEqual(
      crossed.map((reply) => reply.code),
      [1004, 1004],
    )
    const wrongCode = code === '111111' ? '222222' : '111111'
    const mistyped = await post<LoginResult>(app, APPLET_BIND, {
      bindTicket: appletTicket,
      mobilePhone: mobile,
      code: wrongCode,
    })
    assert.equal(mistyped.code, 1006, 'a mistyped code …')

    const bound = await post<LoginResult>(app, APPLET_BIND, {
      bindTicket: appletTicket,
      mobilePhone: mobile,
      code,
    })
    assert.equal(bound.code, 200, '… costs neither the ticket nor the code')
    assert.equal(bound.data.firstLogin, 1, 'the number was registered')
    assert.equal(
      (await get<UserInfo>(app, '/user/getUserInfo', bound.data)).data.mobilePhone,
      mobile,
    )
  })

  await t.test('a ticket is single use', async () => {
    const again = await post<LoginResult>(app, APPLET_BIND, {
      bindTicket: (await wechatLogin(ta, OA_LOGIN, 'bob')).bindTicket,
      mobilePhone: '13200000003',
      code: await freshCode(ta, '13200000003'),
    })
    assert.equal(again.code, 1004, 'an official-account ticket on the applet bind')
    const ticket = (await wechatLogin(ta, OA_LOGIN, 'bob')).bindTicket
    const first = await post<LoginResult>(app, OA_BIND, {
      bindTicket: ticket,
      mobilePhone: '13200000003',
      code: await freshCode(ta, '13200000003'),
    })
    assert.equal(first.code, 200, first.msg)
    const replay = await post<LoginResult>(app, OA_BIND, {
      bindTicket: ticket,
      mobilePhone: '13200000003',
      code: await freshCode(ta, '13200000003'),
    })
    assert.equal(replay.code, 1004)
  })

  await t.test('a ticket expires after 10 minutes', async () => {
    const ticket = (await wechatLogin(ta, APPLET_LOGIN, 'carol')).bindTicket
    clock.advance(10 * 60_000 - 61_000)
    const code = await freshCode(ta, '13200000004')
    assert.equal(
      (
        await post<LoginResult>(app, APPLET_BIND, {
          bindTicket: ticket,
          mobilePhone: '13200000004',
          code,
        })
      ).code,
      1004,
    )
  })

  await t.test(
    'the bound WeChat now logs straight in, from the mini-program and the official account',
    async () => {
      const applet = await wechatLogin(ta, APPLET_LOGIN, 'alice')
      assert.equal(applet.bound, true)
      assert.equal(applet.bindTicket, undefined)
      assert.equal(applet.firstLogin, 0)
      assert.equal((await get<UserInfo>(app, '/user/getUserInfo', applet as Session)).code, 200)
      const oa = await wechatLogin(ta, OA_LOGIN, 'alice')
      assert.equal(oa.userId, applet.userId)
    },
  )

  await t.test('a WeChat bound to one number cannot be bound to another', async () => {
    const first = (await wechatLogin(ta, APPLET_LOGIN, 'dave')).bindTicket
    const second = (await wechatLogin(ta, APPLET_LOGIN, 'dave')).bindTicket
    const toFirst = await post<LoginResult>(app, APPLET_BIND, {
      bindTicket: first,
      mobilePhone: '13200000005',
      code: await freshCode(ta, '13200000005'),
    })
    assert.equal(toFirst.code, 200)
    const toSecond = await post<LoginResult>(app, APPLET_BIND, {
      bindTicket: second,
      mobilePhone: '13200000006',
      code: await freshCode(ta, '13200000006'),
    })
    assert.equal(toSecond.code, 1080)
    assert.equal(toSecond.msg, '该微信已绑定其他手机号')
  })

  await t.test('one ticket sent twice at once binds once', async () => {
    const ticket = (await wechatLogin(ta, APPLET_LOGIN, 'erin')).bindTicket
    const numbers = ['13200000007', '13200000008']
    clock.advance(61_000)
    const codes = [await sendCode(app, numbers[0]), await sendCode(app, numbers[1])]
    const replies = await Promise.all(
      numbers.map((mobilePhone, i) =>
        post<LoginResult>(app, APPLET_BIND, { bindTicket: ticket, mobilePhone, code: codes[i] }),
      ),
    )
    assert.deepEqual(replies.map((reply) => reply.code).sort(), [1004, 200])
    const holders = await ta.database.db
      .select({ mobilePhone: users.mobilePhone })
      .from(users)
      .where(eq(users.openId, sandboxOpenid('sandbox:erin')!))
    assert.equal(holders.length, 1)
  })
})
