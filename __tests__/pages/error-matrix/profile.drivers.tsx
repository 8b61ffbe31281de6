/** Profile and wallet lists: the error matrix drivers of 个人资料, 悬浮球, 优惠券, 云豆明细 and 邀请 */
import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import CloudBeansList from '@/pages/user/cloudBeansList'
import CouponPage from '@/pages/user/coupon'
import CouponUse from '@/pages/user/couponUse'
import FloatingBall from '@/pages/user/floatingBall'
import Invite from '@/pages/user/invite'
import PersonalData from '@/pages/user/personalData'
import { api } from '@/api'
import platform from '@/platform'
import { systemClock } from '@/stores/deps'
import { SessionStore } from '@/stores/session-store'
import { renderPage } from '../page-harness'
import { session } from '../buying/fixtures'
import { userInfo } from '../../stores/helpers'
import type { Driver } from './harness'

/** 个人资料 of a user not yet verified, whose company request waits for review */
const openPersonalData = (over: Parameters<typeof userInfo>[0] = {}) => {
  const info = userInfo({ outerUserCheckStatus: 0, ...over })
  const session = { userInfo: info, loadUserInfo: jest.fn().mockResolvedValue(info) }
  return renderPage(<PersonalData />, { session }).container
}
const company = {
  companyName: '星云科技',
  address: '上海市浦东新区',
  latitude: null,
  longitude: null,
}
const dictAnswers = { '/dict/getDictList': [] }
const ballAnswers = {
  '/user/getFloatingBall': { visible: true, side: 'right', opacity: 40, shortcuts: ['返回'] },
}

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /user/getUserInfo': {
    route: 'pages/user/personalData',
    async open() {
      const session = new SessionStore({
        api,
        storage: platform.storage,
        clock: systemClock,
        platform,
      })
      renderPage(<PersonalData />, { session })
    },
  },
  'POST /user/updateUserInfo': {
    route: 'pages/user/personalData',
    async open() {
      const container = openPersonalData()
      fireEvent.click(screen.getByText('小明'))
      const input = container.querySelector('taro-input-core[aria-label="昵称"]')!
      fireEvent(
        input,
        Object.assign(new Event('input', { bubbles: true }), { detail: { value: '小红' } }),
      )
      fireEvent.click(screen.getByText('保存'))
    },
  },
  'POST /file/upload': {
    route: 'pages/user/personalData',
    async open() {
      jest.spyOn(Taro, 'chooseImage').mockResolvedValue({
        tempFilePaths: ['blob:avatar'],
        tempFiles: [{ path: 'blob:avatar', size: 1024 }],
      } as never)
      openPersonalData()
      fireEvent.click(screen.getByText('头像'))
    },
  },
  'POST /user/realNameAuth': {
    route: 'pages/user/personalData',
    async open() {
      const container = openPersonalData()
      for (const [label, value] of [
        ['真实姓名', '张三'],
        ['身份证号', '11010519491231002X'],
      ]) {
        const input = container.querySelector(`taro-input-core[aria-label="${label}"]`)!
        fireEvent(
          input,
          Object.assign(new Event('input', { bubbles: true }), { detail: { value } }),
        )
      }
      fireEvent.click(screen.getByText('提交认证'))
    },
  },
  'POST /user/updateCompanyInfo': {
    route: 'pages/user/personalData',
    answers: dictAnswers,
    async open() {
      openPersonalData({ companyStatus: 1, company })
      fireEvent.click(screen.getByText('提交企业认证'))
    },
  },
  'GET /dict/getDictList': {
    route: 'pages/user/personalData',
    open: async () => void openPersonalData({ companyStatus: 1, company }),
  },
  'GET /user/getFloatingBall': {
    route: 'pages/user/floatingBall',
    open: async () => void renderPage(<FloatingBall />, {}),
  },
  'POST /user/saveFloatingBall': {
    route: 'pages/user/floatingBall',
    answers: ballAnswers,
    async open() {
      renderPage(<FloatingBall />, {})
      await screen.findByText('40%')
      fireEvent.click(screen.getByText('保存'))
    },
  },
  'GET /coupon/list': {
    route: 'pages/user/coupon',
    open: async () => void renderPage(<CouponPage />, session()),
  },
  'GET /coupon/usage': {
    route: 'pages/user/couponUse',
    open: async () => void renderPage(<CouponUse />, {}),
  },
  'GET /wallet/beanLedger': {
    route: 'pages/user/cloudBeansList',
    open: async () => void renderPage(<CloudBeansList />, {}),
  },
  'GET /invite/list': {
    route: 'pages/user/invite',
    open: async () => void renderPage(<Invite />, session()),
  },
}
