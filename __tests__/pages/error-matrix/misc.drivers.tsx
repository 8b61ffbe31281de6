/** Messages, scan login and the rest: the error matrix drivers of 消息, 扫码登录, 客服, activities and the new-user guide */
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import NewUserGuide from '@/components/NewUserGuide'
import CustomerService from '@/pages/CustomerService/index'
import ScanLogin, { SCAN_POLL_MS } from '@/pages/login/parts/ScanLogin'
import Message from '@/pages/user/message'
import MessageList from '@/pages/user/messageList'
import MessageSet from '@/pages/user/messageSet'
import ScanResult from '@/pages/user/scanResult'
import ActivityPage from '@/pages/webView/activity'
import { api } from '@/api'
import { SOFT_CODE_MESSAGES } from '@/api/order'
import { UnreadStore } from '@/stores/unread-store'
import { renderPage, setRouteParams } from '../page-harness'
import { page } from '../Home/fleet-fixtures'
import { jestTimers } from '../../stores/helpers'

import type { Driver } from './harness'

const serviceAnswers = {
  '/customer/customerService/getUrl': { phone: '400-000-0000', hours: '9:00-21:00', url: null },
  '/customer/feedback/list': { records: [], page: 1, totalPage: 1, total: 0 },
}

/** 联系客服 on one of its tabs */
const openService = async (tab?: '意见反馈' | '我的反馈') => {
  renderPage(<CustomerService />, {})
  if (tab) fireEvent.click(await screen.findByText(tab))
}

const unread = () => ({ refresh: jest.fn().mockResolvedValue(undefined) })
const messageListAnswers = {
  '/message/list': page([
    {
      id: 3,
      type: 1,
      title: '系统维护通知',
      content: '今晚维护',
      read: false,
      createdAt: Date.UTC(2026, 10, 20, 8),
    } as never,
  ]),
}
/** 公告 (type 1) */
const openMessageList = () => {
  setRouteParams({ type: '1' })
  renderPage(<MessageList />, { unread: unread() })
}
const SESSION = '7e'.repeat(32)
/** 扫码结果 of a login QR */
const openScannedLogin = () => {
  setRouteParams({ text: encodeURIComponent(`cloudphone:login:${SESSION}`) })
  renderPage(<ScanResult />, {})
}
const scannedAnswers = {
  '/user/scanLogin/scan': {
    requester: 'Chrome · Windows',
    ip: '10.0.0.8',
    createdAt: Date.now(),
    expiresAt: Date.now() + 120_000,
  },
}
/** 扫码登录 as the login page shows it in a browser */
const openScanLogin = () =>
  renderPage(<ScanLogin redirect={encodeURIComponent('/pages/user/coupon')} />, {
    session: { loginWithResult: jest.fn().mockResolvedValue(true) },
  })
const HOUR = 3_600_000
const activityAnswers = {
  '/activity/detail': {
    id: 1,
    title: '限时秒杀 · 1元抢畅享版云手机',
    summary: '数量有限，先到先得',
    banner: null,
    kind: 'seckill',
    startsAt: Date.now() - HOUR,
    endsAt: Date.now() + 2 * HOUR,
    running: true,
    rules: '1. 每个账号限购 1 件',
    serverTime: Date.now(),
    items: [
      {
        itemId: 1,
        goodId: 101,
        priceId: 1012,
        goodsName: '畅享版 4核4G',
        configName: '4核CPU · 4GB内存 · 64GB存储',
        goodTime: 7,
        durationLabel: '7天',
        price: 100,
        originalPrice: 900,
        stock: 5,
        left: 3,
        perUserLimit: 1,
        bought: false,
        orderNo: null,
        orderStatus: null,
      },
    ],
  },
}

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /customer/customerService/getUrl': {
    route: 'pages/CustomerService/index',
    answers: serviceAnswers,
    open: () => openService(),
  },
  'GET /customer/feedback/list': {
    route: 'pages/CustomerService/index',
    answers: serviceAnswers,
    open: () => openService('我的反馈'),
  },
  'POST /customer/feedback': {
    route: 'pages/CustomerService/index',
    answers: serviceAnswers,
    async open() {
      await openService('意见反馈')
      // Taro's <Textarea> renders <taro-textarea-core>; React reads `detail.value` of its input
      // event (its unhydrated inner <textarea> makes Stencil log a TypeError here, harmlessly)
      const input = document.querySelector('taro-textarea-core[aria-label="反馈内容"]')!
      fireEvent(input, Object.assign(new Event('input'), { detail: { value: '云手机打不开了' } }))
      fireEvent.click(screen.getByText('提交反馈'))
    },
  },
  'GET /message/getSettings': {
    route: 'pages/user/messageSet',
    open: async () => void renderPage(<MessageSet />, {}),
  },
  'GET /message/getUnreadCount': {
    route: 'pages/user/message',
    async open() {
      const store = new UnreadStore({ api, timers: jestTimers, session: { token: '' } as never })
      renderPage(<Message />, { unread: store })
    },
    quiet: 'the unread counts are badges: they keep their last value and the 60 s poll tries again',
  },
  'POST /message/read': {
    route: 'pages/user/messageList',
    answers: messageListAnswers,
    async open() {
      openMessageList()
      await screen.findByText('系统维护通知')
      fireEvent.click(screen.getByText('全部已读'))
    },
  },
  'GET /message/list': {
    route: 'pages/user/messageList',
    open: async () => openMessageList(),
  },
  'POST /message/updateSettings': {
    route: 'pages/user/messageSet',
    answers: {
      '/message/getSettings': {
        notice: true,
        renewal: true,
        transfer: false,
        create: true,
        system: true,
      },
    },
    async open() {
      renderPage(<MessageSet />, {})
      const notice = await screen.findByLabelText('接收公告')
      await screen.findByText('续费提醒')
      fireEvent.click(notice)
    },
  },
  'POST /user/scanLogin/create': {
    route: 'pages/login/login',
    open: async () => void openScanLogin(),
  },
  'GET /user/scanLogin/status': {
    route: 'pages/login/login',
    answers: {
      '/user/scanLogin/create': {
        sessionId: SESSION,
        pollKey: 'poll-1',
        qrImage: 'data:image/png;base64,AAAA',
        expiresAt: Date.now() + 120_000,
      },
    },
    async open() {
      const { container } = openScanLogin()
      await waitFor(() => expect(container.querySelector('[src]')).not.toBeNull())
      // the first poll comes after one interval
      await act(() => new Promise((resolve) => setTimeout(resolve, SCAN_POLL_MS + 200)))
    },
  },
  'POST /user/scanLogin/scan': {
    route: 'pages/user/scanResult',
    open: async () => openScannedLogin(),
  },
  'POST /user/scanLogin/confirm': {
    route: 'pages/user/scanResult',
    answers: scannedAnswers,
    async open() {
      openScannedLogin()
      fireEvent.click(await screen.findByText('确认登录'))
    },
  },
  'POST /user/scanLogin/refuse': {
    route: 'pages/user/scanResult',
    answers: scannedAnswers,
    async open() {
      openScannedLogin()
      fireEvent.click(await screen.findByText('拒绝'))
    },
  },
  'GET /activity/list': {
    route: 'pages/webView/activity',
    async open() {
      setRouteParams({})
      renderPage(<ActivityPage />, { session: { isLoggedIn: true } })
    },
  },
  'GET /activity/detail': {
    route: 'pages/webView/activity',
    async open() {
      setRouteParams({ id: '1' })
      renderPage(<ActivityPage />, { session: { isLoggedIn: true } })
    },
  },
  'POST /order/createSeckillActivityOrder': {
    route: 'pages/webView/activity',
    answers: activityAnswers,
    async open() {
      setRouteParams({ id: '1' })
      renderPage(<ActivityPage />, { session: { isLoggedIn: true } })
      await screen.findByText('限时秒杀 · 1元抢畅享版云手机')
      // NutUI renders a taro-button-core, which has no role in jsdom
      fireEvent.click(document.querySelector<HTMLElement>('taro-button-core')!)
    },
    /** a purchase's soft refusals in the buyer's words (api/order.ts) */
    shows: (code, msg) => SOFT_CODE_MESSAGES[code] ?? msg,
  },
  'GET /newUserGuide/getNewUserGuideConfig_V2': {
    route: 'pages/Home/index',
    // the guide SignedInHome shows after a first login
    open: async () =>
      void renderPage(<NewUserGuide />, {
        session: { isLoggedIn: true, firstLogin: 1, userId: 1 },
        fleet: {},
      }),
    quiet: 'the guide is a welcome: without its config the home page shows no guide',
  },
}
