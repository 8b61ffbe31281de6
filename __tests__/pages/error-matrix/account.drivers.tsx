/** Account: the error matrix drivers of login, passwords, the phone number, 退出登录 and 注销 */
import { fireEvent, screen } from '@testing-library/react'
import { ResultCode, resultMessages } from '@/domain/result-codes'
import WechatAuth from '@/pages/auth/wechatAuth'
import Login from '@/pages/login/login'
import WechatLogin from '@/pages/login/parts/WechatLogin'
import ChangePassword from '@/pages/user/changePassword'
import ChangePhone from '@/pages/user/changePhone'
import Config from '@/pages/user/config'
import SetPassword from '@/pages/user/setPassword'
import LogOut from '@/pages/user/logOut'
import { api } from '@/api'
import platform from '@/platform'
import { newOAuthState } from '@/platform/oauth'
import { systemClock } from '@/stores/deps'
import { SessionStore } from '@/stores/session-store'
import { renderPage, setRouteParams, typeInto } from '../page-harness'
import { userInfo } from '../../stores/helpers'
import type { Driver } from './harness'

/** the login page on the real session store, so its logins run through the request layer */
const openLogin = (mode: '验证码登录' | '密码登录') => {
  const session = new SessionStore({ api, storage: platform.storage, clock: systemClock, platform })
  const { container } = renderPage(<Login />, { session })
  fireEvent.click(screen.getByText(mode))
  typeInto(container, '手机号', '13812345678')
  fireEvent.click(screen.getByRole('checkbox', { name: '同意协议' }))
  return container
}

/** where the official-account OAuth lands, on the real session store */
const openWechatAuth = () => {
  setRouteParams({ code: 'oauth-code', state: newOAuthState(platform.storage) })
  const session = new SessionStore({ api, storage: platform.storage, clock: systemClock, platform })
  return renderPage(<WechatAuth />, { session }).container
}

/**
 * 微信一键登录 as the mini-program shows it (TARO_ENV weapp until the test ends), wx.login answering a
 * code, on the real session store
 */
const openAppletLogin = () => {
  process.env.TARO_ENV = 'weapp'
  const weapp = { ...platform, wechatLogin: async () => 'js-code' }
  const session = new SessionStore({
    api,
    storage: platform.storage,
    clock: systemClock,
    platform: weapp,
  })
  const { container } = renderPage(<WechatLogin agreed />, { session })
  fireEvent.click(screen.getByText('微信一键登录'))
  return container
}

/** 更换手机号 for the account of 13812345678 */
const openChangePhone = () => {
  const session = { mobilePhone: '13812345678', loadUserInfo: jest.fn().mockResolvedValue({}) }
  const { container } = renderPage(<ChangePhone />, { session })
  typeInto(container, '验证码', '123456')
  fireEvent.click(screen.getByText('下一步'))
  return container
}

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'POST /sms/sendSmsCode': {
    route: 'pages/login/login',
    async open() {
      openLogin('验证码登录')
      fireEvent.click(screen.getByLabelText('获取验证码'))
    },
  },
  'POST /user/login': {
    route: 'pages/login/login',
    async open() {
      const container = openLogin('密码登录')
      typeInto(container, '密码', 'abc123')
      fireEvent.click(screen.getByText('登录'))
    },
  },
  'POST /user/wxOfficialAccountLogin': {
    route: 'pages/auth/wechatAuth',
    open: async () => void openWechatAuth(),
    // SPEC 7: this login's message is only logged; the page says to authorise again
    shows: () => '微信授权已失效，请重新发起微信登录',
  },
  'POST /user/wxOfficialAccountLoginPro': {
    route: 'pages/auth/wechatAuth',
    answers: { '/user/wxOfficialAccountLogin': { openid: 'o1', bound: false, bindTicket: 'bt' } },
    async open() {
      const container = openWechatAuth()
      await screen.findByText('绑定并登录')
      typeInto(container, '手机号', '13812345678')
      typeInto(container, '验证码', '123456')
      fireEvent.click(screen.getByText('绑定并登录'))
    },
  },
  'POST /user/wxAppletsLogin': {
    route: 'pages/login/login',
    open: async () => void openAppletLogin(),
  },
  'POST /user/wxAppletsLoginPro': {
    route: 'pages/login/login',
    answers: { '/user/wxAppletsLogin': { openid: 'o1', bound: false, bindTicket: 'bt' } },
    async open() {
      const container = openAppletLogin()
      await screen.findByText('绑定并登录')
      typeInto(container, '手机号', '13812345678')
      typeInto(container, '验证码', '123456')
      fireEvent.click(screen.getByText('绑定并登录'))
    },
  },
  'POST /user/updateUserPassword': {
    route: 'pages/user/changePassword',
    async open() {
      const { container } = renderPage(<ChangePassword />, {})
      typeInto(container, '原密码', 'abc123')
      typeInto(container, '新密码', 'newpass1')
      typeInto(container, '确认密码', 'newpass1')
      fireEvent.click(screen.getByText('确认修改'))
    },
    // the page words 1009 and 1331 itself; 1331 (no password yet) opens 设置密码 in its place
    shows: (code, msg) =>
      code === ResultCode.OLD_PASSWORD_WRONG || code === ResultCode.MUST_SET_PASSWORD
        ? resultMessages[code]
        : msg,
    leadsTo: { [ResultCode.MUST_SET_PASSWORD]: /^\/pages\/user\/setPassword\?/ },
  },
  'POST /user/logoutUser': {
    route: 'pages/user/logOut',
    async open() {
      const session = {
        userId: 7,
        mobilePhone: '13812345678',
        loadUserInfo: jest.fn().mockResolvedValue({}),
        removeAccount: jest.fn(),
        clear: jest.fn(),
      }
      const { container } = renderPage(<LogOut />, { session })
      fireEvent.click(container.querySelector('[aria-label="我已阅读并知晓注销后果"]')!)
      typeInto(container, '验证码', '123456')
      fireEvent.click(screen.getByText('申请注销'))
    },
  },
  'POST /common/userLogin/confirm': {
    route: 'pages/login/login',
    async open() {
      const container = openLogin('验证码登录')
      typeInto(container, '验证码', '123456')
      fireEvent.click(screen.getByText('登录 / 注册'))
    },
  },
  'GET /configure/getCommonConfig': {
    route: 'pages/login/login',
    answers: {
      '/user/login': { token: 't-pass', userId: 7, firstLogin: 0, showModifyPassword: 0 },
      '/user/getUserInfo': userInfo(),
    },
    async open() {
      const container = openLogin('密码登录')
      typeInto(container, '密码', 'abc123')
      fireEvent.click(screen.getByText('登录'))
    },
  },
  'POST /user/firstUpdateUserPassword': {
    route: 'pages/user/setPassword',
    async open() {
      const session = { markPasswordSet: jest.fn(), loadUserInfo: jest.fn().mockResolvedValue({}) }
      const { container } = renderPage(<SetPassword />, { session })
      typeInto(container, '新密码', 'abc12345')
      typeInto(container, '确认密码', 'abc12345')
      fireEvent.click(screen.getByText('确认设置'))
    },
  },
  'POST /user/checkOldMobile': {
    route: 'pages/user/changePhone',
    open: async () => void openChangePhone(),
  },
  'POST /user/changeBindingMobile': {
    route: 'pages/user/changePhone',
    answers: { '/user/checkOldMobile': { ticket: 'mobile-ticket' } },
    async open() {
      const container = openChangePhone()
      await screen.findByText('确认更换')
      typeInto(container, '手机号', '13900000000')
      typeInto(container, '验证码', '654321')
      fireEvent.click(screen.getByText('确认更换'))
    },
  },
  'POST /user/exitLogin': {
    route: 'pages/user/config',
    async open() {
      const session = new SessionStore({
        api,
        storage: platform.storage,
        clock: systemClock,
        platform,
      })
      renderPage(<Config />, { session })
      fireEvent.click(screen.getByText('退出登录'))
    },
    // signing out ends the local session whatever the server answers (best effort), then 我的
    quiet: 'signing out goes on: the session ends here whatever the server answers',
    leadsTo: { [ResultCode.ACCOUNT_HAS_BEEN_FROZEN]: /^\/pages\/Home\/user/ },
  },
}
