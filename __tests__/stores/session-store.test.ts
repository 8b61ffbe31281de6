import { ApiError } from '@/runtime/api-error'
import { STORAGE_KEYS } from '@/runtime/storage-keys'
import { fakeApi, makeStores, userInfo } from './helpers'

describe('SessionStore', () => {
  afterEach(() => jest.useRealTimers())

  it('starts logged out with bindInfo -2, policy tab 0 and the default channel', () => {
    const { stores } = makeStores()
    const s = stores.session
    expect(s.isLoggedIn).toBe(false)
    expect(s.bindInfo).toBe(-2)
    expect(s.policyTabIndex).toBe(0)
    expect(s.channel).toBe('h5')
    expect(s.runtime).toBe('h5')
    expect(s.accountList).toEqual([])
  })

  it('restores token, user id, channel and accounts from storage', () => {
    const { stores } = makeStores({
      storage: {
        accessToken: 'tk',
        userId: '5',
        channel: 'promo',
        policyTabIndex: 2,
        needModifyPassword: 1,
      },
    })
    expect(stores.session.token).toBe('tk')
    expect(stores.session.userId).toBe(5)
    expect(stores.session.channel).toBe('promo')
    expect(stores.session.policyTabIndex).toBe(2)
    expect(stores.session.needModifyPassword).toBe(true)
    expect(stores.session.isLoggedIn).toBe(true)
  })

  describe('login', () => {
    it('stores the session, adds the account, then loads config and user info in that order', async () => {
      const order: string[] = []
      const api = fakeApi()
      api.common.getCommonConfig.mockImplementation(async () => {
        order.push('config')
        return { renewalReminderMsg: '请续费' }
      })
      api.user.getUserInfo.mockImplementation(async () => {
        order.push('userInfo')
        return userInfo()
      })
      const { stores, data, platform } = makeStores({ api, now: () => 1000 })
      const s = stores.session
      const loaded = await s.loginWithCode({ mobilePhone: '13812345678', code: '123456' })

      expect(loaded).toBe(true)
      expect(order).toEqual(['config', 'userInfo'])
      expect(s.token).toBe('t-code')
      expect(s.userId).toBe(7)
      expect(s.firstLogin).toBe(1)
      expect(s.showModifyPassword).toBe(1)
      expect(s.info).toMatchObject({
        token: 't-code',
        userId: 7,
        firstLogin: 1,
        showModifyPassword: 1,
        name: '小明',
      })
      expect(data.get(STORAGE_KEYS.token)).toBe('t-code')
      expect(data.get(STORAGE_KEYS.userId)).toBe('7')
      expect(platform.setCookies).toHaveBeenCalledWith({
        token: 't-code',
        userId: '7',
        channel: 'h5',
        runtime: 'h5',
      })
      expect(s.accountList).toEqual([
        {
          userId: 7,
          token: 't-code',
          mobilePhone: '13812345678',
          name: '小明',
          avatar: '/files/avatars/a.png',
          lastLoginAt: 1000,
        },
      ])
      expect(data.get(STORAGE_KEYS.accountList)).toEqual(s.accountList)
      expect(s.renewMsg).toBe('请续费')
      expect(s.commonConfig).toEqual({ renewalReminderMsg: '请续费' })
      expect(s.name).toBe('小明')
      expect(s.userType).toBe(1)
      expect(s.isVerified).toBe(true)
      expect(s.maskedPhone).toBe('138****5678')
    })

    it('replaces an existing account entry instead of adding a second one', async () => {
      const { stores } = makeStores({
        storage: {
          accountList: [
            { userId: 7, token: 'old', mobilePhone: '1', name: 'a', avatar: '', lastLoginAt: 1 },
            { userId: 8, token: 'other', mobilePhone: '2', name: 'b', avatar: '', lastLoginAt: 1 },
          ],
        },
      })
      await stores.session.loginWithPassword({ mobilePhone: '13812345678', password: 'abc123' })
      expect(stores.session.accountList.map((a) => [a.userId, a.token])).toEqual([
        [7, 't-pass'],
        [8, 'other'],
      ])
    })

    it('sends the login context; device fields only on ios or wx channels', async () => {
      const api = fakeApi()
      const { stores } = makeStores({ api })
      stores.session.setPreGroup('g1')
      stores.session.setShareUser(99)
      await stores.session.loginWithCode({ mobilePhone: '13812345678', code: '123456' })
      expect(api.user.loginByCode).toHaveBeenLastCalledWith({
        preGroup: 'g1',
        shareUser: 99,
        mobilePhone: '13812345678',
        code: '123456',
      })
      stores.session.setChannel('wx')
      await stores.session.loginWithCode({ mobilePhone: '13812345678', code: '123456' })
      expect(api.user.loginByCode.mock.calls[1][0]).toMatchObject({
        deviceId: 'dev-1',
        brand: 'Apple',
        deviceModel: 'iPhone',
        osName: 'iOS',
        system: 'iOS 16',
        osVersion: '16',
      })
      stores.session.setChannel('promo')
      await stores.session.loginWithCode({ mobilePhone: '13812345678', code: '123456' })
      expect(api.user.loginByCode.mock.calls[2][0]).toMatchObject({ channelCode: 'promo' })
      expect(api.user.loginByCode.mock.calls[2][0].deviceId).toBeUndefined()
    })

    it('aborts silently when the initial user-info load fails', async () => {
      const api = fakeApi()
      api.user.getUserInfo.mockRejectedValue(new ApiError(1080, 'x'))
      const { stores } = makeStores({ api })
      await expect(
        stores.session.loginWithCode({ mobilePhone: '13812345678', code: '1' }),
      ).resolves.toBe(false)
      expect(stores.session.token).toBe('t-code')
      expect(stores.session.userInfo).toBeNull()
    })

    it('keeps the login when only the config fails', async () => {
      const api = fakeApi()
      api.common.getCommonConfig.mockRejectedValue(new ApiError(-1, 'net'))
      const { stores } = makeStores({ api })
      await expect(
        stores.session.loginWithCode({ mobilePhone: '13812345678', code: '1' }),
      ).resolves.toBe(true)
      expect(api.user.getUserInfo).toHaveBeenCalled()
    })

    it('rejects a result without a token', async () => {
      const { stores } = makeStores()
      await expect(stores.session.loginWithResult({ openid: 'o' })).rejects.toThrow('登录失败')
    })

    it('sets the persistent modify-password flag when showModifyPassword is 1, cleared once a password is set', async () => {
      const api = fakeApi()
      api.user.getUserInfo.mockResolvedValue(userInfo({ hasPassword: false }))
      const { stores, data } = makeStores({ api })
      await stores.session.loginWithCode({ mobilePhone: '13812345678', code: '1' })
      expect(stores.session.needModifyPassword).toBe(true)
      expect(data.get(STORAGE_KEYS.modifyPassword)).toBe(1)
      stores.session.markPasswordSet()
      expect(stores.session.needModifyPassword).toBe(false)
      expect(data.has(STORAGE_KEYS.modifyPassword)).toBe(false)
      expect(stores.session.info?.hasPassword).toBe(true)
    })

    it('does not set the flag when showModifyPassword is 0', async () => {
      const { stores, data } = makeStores()
      await stores.session.loginWithPassword({ mobilePhone: '13812345678', password: 'abc123' })
      expect(stores.session.needModifyPassword).toBe(false)
      expect(data.has(STORAGE_KEYS.modifyPassword)).toBe(false)
    })
  })

  describe('WeChat', () => {
    it('mini-program login logs in a bound openid', async () => {
      const api = fakeApi()
      api.user.wxAppletsLogin.mockResolvedValue({
        openid: 'o1',
        bound: true,
        token: 'tw',
        userId: 7,
        firstLogin: 0,
        showModifyPassword: 0,
      })
      const { stores } = makeStores({ api })
      await expect(stores.session.loginWithWechat()).resolves.toEqual({ bound: true, openid: 'o1' })
      expect(api.user.wxAppletsLogin).toHaveBeenCalledWith('js-code')
      expect(stores.session.openId).toBe('o1')
      expect(stores.session.token).toBe('tw')
    })
    it('keeps the bind ticket of an unbound WeChat and binds with it, never with the openid', async () => {
      const api = fakeApi()
      api.user.wxAppletsLogin.mockResolvedValue({ openid: 'o2', bound: false, bindTicket: 'bt-1' })
      api.user.wxAppletsLoginPro.mockResolvedValue({
        token: 'tb',
        userId: 7,
        firstLogin: 1,
        showModifyPassword: 1,
      })
      const { stores } = makeStores({ api })
      await expect(stores.session.loginWithWechat()).resolves.toEqual({
        bound: false,
        openid: 'o2',
      })
      expect(stores.session.isLoggedIn).toBe(false)
      await stores.session.bindWechat({ mobilePhone: '13812345678', code: '123456' })
      expect(api.user.wxAppletsLoginPro).toHaveBeenCalledWith({
        bindTicket: 'bt-1',
        mobilePhone: '13812345678',
        code: '123456',
      })
      expect(api.user.wxOfficialAccountLoginPro).not.toHaveBeenCalled()
      expect(stores.session.token).toBe('tb')
      expect(stores.session.wechatBind).toBeNull()
    })
    it("an official-account ticket goes to the official account's bind", async () => {
      const api = fakeApi()
      api.user.wxOfficialAccountLogin.mockResolvedValue({
        openid: 'o3',
        bound: false,
        bindTicket: 'bt-oa',
      })
      api.user.wxOfficialAccountLoginPro.mockResolvedValue({
        token: 'to',
        userId: 8,
        firstLogin: 0,
        showModifyPassword: 0,
      })
      const { stores } = makeStores({ api })
      await stores.session.officialAccountLogin('c1')
      await stores.session.bindWechat({ mobilePhone: '13812345678', code: '123456' })
      expect(api.user.wxOfficialAccountLoginPro).toHaveBeenCalledWith({
        bindTicket: 'bt-oa',
        mobilePhone: '13812345678',
        code: '123456',
      })
      expect(api.user.wxAppletsLoginPro).not.toHaveBeenCalled()
    })
    it('an expired ticket (1004) is forgotten; a mistyped code keeps it', async () => {
      const api = fakeApi()
      api.user.wxAppletsLogin.mockResolvedValue({ openid: 'o4', bound: false, bindTicket: 'bt-4' })
      api.user.wxAppletsLoginPro
        .mockRejectedValueOnce(new ApiError(1006, '验证码错误'))
        .mockRejectedValueOnce(new ApiError(1004, '微信授权已失效，请重新授权'))
      const { stores } = makeStores({ api })
      await stores.session.loginWithWechat()
      const form = { mobilePhone: '13812345678', code: '123456' }
      await expect(stores.session.bindWechat(form)).rejects.toThrow('验证码错误')
      expect(stores.session.wechatBind).toEqual({ kind: 'applet', ticket: 'bt-4' })
      await expect(stores.session.bindWechat(form)).rejects.toThrow('微信授权已失效')
      expect(stores.session.wechatBind).toBeNull()
      await expect(stores.session.bindWechat(form)).rejects.toThrow('微信授权已失效')
      expect(api.user.wxAppletsLoginPro).toHaveBeenCalledTimes(2)
    })
    it('official-account login stores a non-empty openid and only logs a server error', async () => {
      const api = fakeApi()
      api.user.wxOfficialAccountLogin.mockResolvedValueOnce({ openid: '', bound: false })
      api.user.wxOfficialAccountLogin.mockRejectedValueOnce(new ApiError(1080, 'code been used'))
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)
      const { stores } = makeStores({ api })
      stores.session.setOpenId('keep')
      await stores.session.officialAccountLogin('c1')
      expect(stores.session.openId).toBe('keep')
      await expect(stores.session.officialAccountLogin('c2')).resolves.toBeNull()
      expect(warn).toHaveBeenCalledWith('wxOfficialAccountLogin', 'code been used')
      expect(api.user.wxOfficialAccountLogin).toHaveBeenCalledWith('c1')
      warn.mockRestore()
    })
  })

  describe('leaving', () => {
    async function loggedIn() {
      const ctx = makeStores()
      await ctx.stores.session.loginWithCode({ mobilePhone: '13812345678', code: '1' })
      ctx.stores.session.setOpenId('o')
      return ctx
    }

    it('logout calls exitLogin, then empties every listed field and the stored session', async () => {
      const { stores, api, data, platform } = await loggedIn()
      const s = stores.session
      // the server call goes out while the token is still there to send (the request layer reads it)
      let storedTokenDuringCall: unknown
      api.user.exitLogin.mockImplementation(async () => {
        storedTokenDuringCall = data.get(STORAGE_KEYS.token)
      })
      const token = s.token
      await s.logout()
      expect(api.user.exitLogin).toHaveBeenCalled()
      expect(storedTokenDuringCall).toBe(token)
      expect(s.token).toBe('')
      expect(s.info).toBeNull()
      expect(s.name).toBe('')
      expect(s.userId).toBeNull()
      expect(s.openId).toBe('')
      expect(s.avatar).toBe('')
      expect(s.outerUserCheckStatus).toBe(0)
      expect(s.userType).toBeNull()
      expect(stores.unread.total).toBe(0)
      expect(data.has(STORAGE_KEYS.token)).toBe(false)
      expect(data.has(STORAGE_KEYS.userId)).toBe(false)
      expect(platform.removeCookies).toHaveBeenCalledWith(['token', 'userId'])
      expect(s.accountList).toEqual([])
    })

    it('logout still clears when exitLogin fails', async () => {
      const { stores, api } = await loggedIn()
      api.user.exitLogin.mockRejectedValue(new ApiError(-1, 'net'))
      await stores.session.logout()
      expect(stores.session.isLoggedIn).toBe(false)
    })

    it('an invalid token clears the stored session data', async () => {
      const { stores, data } = await loggedIn()
      stores.session.handleTokenInvalid()
      expect(stores.session.isLoggedIn).toBe(false)
      expect(stores.session.info).toBeNull()
      expect(data.has(STORAGE_KEYS.token)).toBe(false)
    })
  })

  describe('invite and bind info', () => {
    it('setting invite info stores type and code and sets bindInfo -2', () => {
      const { stores } = makeStores()
      stores.session.setBindInfo(1)
      stores.session.setInviteInfo(2, 'ABC')
      expect(stores.session.inviteType).toBe(2)
      expect(stores.session.inviteCode).toBe('ABC')
      expect(stores.session.bindInfo).toBe(-2)
    })
    it('setting bindInfo -1 clears invite type and code', () => {
      const { stores } = makeStores()
      stores.session.setInviteInfo(2, 'ABC')
      stores.session.setBindInfo(-1)
      expect(stores.session.bindInfo).toBe(-1)
      expect(stores.session.inviteType).toBe('')
      expect(stores.session.inviteCode).toBe('')
    })
    it('another bindInfo keeps the invite', () => {
      const { stores } = makeStores()
      stores.session.setInviteInfo(2, 'ABC')
      stores.session.setBindInfo(0)
      expect(stores.session.inviteCode).toBe('ABC')
    })
  })

  it('persists the policy tab index', () => {
    const { stores, data } = makeStores()
    stores.session.setPolicyTabIndex(1)
    expect(stores.session.policyTabIndex).toBe(1)
    expect(data.get(STORAGE_KEYS.policyTabIndex)).toBe(1)
    const again = makeStores({ storage: Object.fromEntries(data) })
    expect(again.stores.session.policyTabIndex).toBe(1)
  })

  it('persists the channel', () => {
    const { stores, data } = makeStores()
    stores.session.setChannel('promo')
    expect(data.get(STORAGE_KEYS.channel)).toBe('promo')
  })

  describe('switch account', () => {
    const accounts = [
      { userId: 7, token: 't7', mobilePhone: '13812345678', name: 'a', avatar: '', lastLoginAt: 1 },
      { userId: 8, token: 't8', mobilePhone: '13900000000', name: 'b', avatar: '', lastLoginAt: 1 },
    ]

    it('uses the stored token of that account and verifies it with getUserInfo', async () => {
      const api = fakeApi()
      api.user.getUserInfo.mockResolvedValue(
        userInfo({ userId: 8, name: 'B', mobilePhone: '13900000000' }),
      )
      const { stores, data } = makeStores({
        api,
        storage: { accessToken: 't7', userId: '7', accountList: accounts },
      })
      await stores.session.switchAccount(8)
      expect(api.user.getUserInfo).toHaveBeenCalledWith(undefined, { authRedirect: false })
      expect(stores.session.token).toBe('t8')
      expect(stores.session.userId).toBe(8)
      expect(stores.session.name).toBe('B')
      expect(data.get(STORAGE_KEYS.token)).toBe('t8')
    })

    it('removes a stale entry, restores the previous session and reports the failure', async () => {
      const api = fakeApi()
      api.user.getUserInfo.mockRejectedValue(new ApiError(2017, '登录已过期，请重新登录'))
      const { stores, data } = makeStores({
        api,
        storage: { accessToken: 't7', userId: '7', accountList: accounts },
      })
      await expect(stores.session.switchAccount(8)).rejects.toMatchObject({
        code: 2017,
        msg: '该账号登录已失效，请重新登录',
      })
      expect(stores.session.accountList.map((a) => a.userId)).toEqual([7])
      expect(stores.session.token).toBe('t7')
      expect(stores.session.userId).toBe(7)
      expect(data.get(STORAGE_KEYS.token)).toBe('t7')
    })

    it('removes an account from the list', () => {
      const { stores, data } = makeStores({ storage: { accountList: accounts } })
      stores.session.removeAccount(7)
      expect(stores.session.accountList.map((a) => a.userId)).toEqual([8])
      expect((data.get(STORAGE_KEYS.accountList) as unknown[]).length).toBe(1)
    })
  })
})
