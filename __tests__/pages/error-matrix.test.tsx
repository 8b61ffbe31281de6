/**
 * The error matrix (issue 25): for every API route and every SPEC 8 result code the server declares it
 * can answer (server/src/contract/route-codes.ts, kept truthful by the server suite), the page that
 * makes the call is rendered, the call runs through the real service and request layer to a transport
 * answering that code, and the page must show the SPEC's handling: the message (toast, dialog or page
 * text), 2017 → login (and back), 1015 → 去充值 to 我的云豆, 1025 its dialog, 1057 the frozen dialog;
 * never a success, never a TypeError. A route in the table without a driver here fails the first test,
 * so a new route or a new code is covered when the server adds it.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { ROUTE_CODES } from '../../server/src/contract/route-codes'
import { isPublicPage, ROUTES } from '@/constants/routes'
import { ResultCode, resultMessages } from '@/domain/result-codes'
import CloudBeanToMonthly from '@/pages/CloudBeanToMonthly/index'
import CustomerService from '@/pages/CustomerService/index'
import BigUserBuyGoods from '@/pages/create/bigUserBuyGoods'
import BuyGoods from '@/pages/create/buyGoods'
import SelectChangeZone from '@/pages/Device/selectChangeZone'
import PlayTrial from '@/pages/landing/play-trial/index'
import WechatAuth from '@/pages/auth/wechatAuth'
import GroupIndex from '@/pages/Group'
import MoveGroup from '@/pages/Group/pages/MoveGroup'
import Home from '@/pages/Home'
import Login from '@/pages/login/login'
import WechatLogin from '@/pages/login/WechatLogin'
import Pay from '@/pages/pay/pay'
import Renew from '@/pages/Renew/index'
import UpOrDownConfig from '@/pages/Device/upOrDownConfig'
import VideoChangeOpType from '@/pages/Device/videoChangeOpType'
import BuySpace from '@/pages/Space/BuySpace'
import DataCenter from '@/pages/Space/DataCenter'
import HistoryData from '@/pages/Space/HistoryData'
import SpaceIndex from '@/pages/Space/index'
import ActivateDevice from '@/pages/user/activateDevice'
import ChangePassword from '@/pages/user/changePassword'
import CouponPage from '@/pages/user/coupon'
import Invite from '@/pages/user/invite'
import MessageSet from '@/pages/user/messageSet'
import LogOut from '@/pages/user/logOut'
import Recharge from '@/pages/user/recharge'
import { SOFT_CODE_MESSAGES } from '@/services/order'
import { REFUSAL_DIALOGS } from '@/services/refusal-dialogs'
import { resolveApiBase } from '@/services/request'
import { api } from '@/services/api'
import platform from '@/platform'
import { newOAuthState } from '@/platform/oauth'
import { systemClock } from '@/stores/deps'
import { AppStore } from '@/stores/app-store'
import { FleetStore, VIEW_TYPE_KEY } from '@/stores/fleet-store'
import { SessionStore } from '@/stores/session-store'
import { STORAGE_KEYS } from '@/services/storage-keys'
import { renderPage, setRouteParams, typeInto } from './page-harness'
import { deviceSpace } from './Space/space-fixtures'
import { goods, noCoupons, order, quote as goodsQuote, session } from './buying/fixtures'
import { applicableCoupons, packageGoods } from './coupon-fixtures'
import { device, page } from './Home/fleet-fixtures'
import { memoryStorage } from '../stores/helpers'

jest.mock('@tarojs/taro', () => {
  const taro = jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro()
  // the page never hides in a test; unmounting stops the pay page's poll
  const useDidHide = () => undefined
  const useShareAppMessage = () => undefined
  Object.assign(taro.default, { useDidHide, useShareAppMessage })
  return { ...taro, useDidHide, useShareAppMessage }
})

interface Driver {
  /** the page's route (the current page, for 2017's login redirect) */
  route: string
  /** successful answers (data) to the page's other calls, by path */
  answers?: Record<string, unknown>
  /** renders the page and does what makes the call */
  open(): Promise<void>
  /**
   * The page shows no message for this call's refusals, on purpose (why). Only the request layer's
   * handling (2017, the dialogs) and "no success, no TypeError" are checked then.
   */
  quiet?: string
  /** what the page shows for a refusal with this code and message, when not the message itself */
  shows?(code: number, msg: string): string
  /** where the page goes for a refusal with this code (SPEC: the user has to do something first) */
  leadsTo?: Partial<Record<number, RegExp>>
}

const DAY = 86_400_000
const quote = { deviceId: 7, days: 30, beans: 1500, balance: 2000, expireAt: 0, newExpireAt: DAY }
const payAnswers = {
  '/order/getOrderInfo': order(),
  '/pay/beanBalance': { balance: 500 },
  '/wallet/accountBalance': { balance: 0, enabled: false },
}
const openPay = async () => {
  setRouteParams({ orderNo: 'CP20261122000001' })
  renderPage(<Pay />, session())
  await screen.findByText('立即支付')
}
const openBeansToMonthly = async () => {
  renderPage(<CloudBeanToMonthly />, { fleet: { pickedDevice: { deviceId: 7, name: '云手机-7' } } })
  await screen.findByText('1500')
}

const rechargeAnswers = {
  '/wallet/rechargePackages': {
    balance: 1234,
    fenPerBean: 1,
    packages: [{ id: 2, price: 3000, beans: 3000, bonus: 300 }],
  },
  '/wallet/accountBalance': { balance: 0, enabled: true },
  '/coupon/applicable': applicableCoupons({
    total: 3000,
    businessType: 3,
    goods: packageGoods(3000, false),
    coupons: [],
  }),
}
const openRecharge = async () => {
  renderPage(<Recharge />, {})
  await screen.findByText('3000云豆')
}
const buyAnswers = {
  '/CommodityGroup/getGoodsDetail': goods(),
  '/CommodityGroup/getGoodPrice': goodsQuote(),
  '/coupon/applicable': noCoupons(9900),
}
const openBuy = async (params: Record<string, string> = {}) => {
  setRouteParams({ goodId: '1', priceId: '11', zoneId: '1', ...params })
  renderPage(<BuyGoods />, session())
  await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥99.00'))
}
/** a purchase's soft refusals in the buyer's words (services/order.ts) */
const purchaseText = (code: number, msg: string) => SOFT_CODE_MESSAGES[code] ?? msg

const zoneAnswers = {
  '/device/detail': device({ deviceId: 7, name: '主力机', goodId: 11, zoneId: 1 }),
  '/CommodityGroup/getZones': [
    { zoneId: 1, name: '华东-上海', inventoryStatus: 1, statusText: '充足' },
    { zoneId: 2, name: '华南-广州', inventoryStatus: 3, statusText: '紧张' },
  ],
}
const openZones = () => {
  setRouteParams({ deviceId: '7' })
  renderPage(<SelectChangeZone />, {})
}
const activateAnswers = {
  '/activation/myCodes': { records: [], page: 1, totalPage: 1, total: 0 },
  '/CommodityGroup/getGoodsList': [],
}
const openActivate = () => {
  setRouteParams({})
  renderPage(<ActivateDevice />, { fleet: { pickedDevice: null, statusOf: () => undefined } })
}
const trialAnswers = {
  '/playTrial/getConfig': {
    gameName: '星海远征',
    description: '大型太空策略手游。',
    highlights: [],
    packageName: 'com.xinghai.expedition',
    packageSize: 1,
    version: '1',
    downloadUrl: 'https://download.example.cn/x.apk',
    trial: { offered: true, goodName: '畅享版 4核4G', configName: '4核 4G', minutes: 120 },
  },
}
const openTrial = () => renderPage(<PlayTrial />, { session: { isLoggedIn: true } })
const spaceAnswers = {
  '/space/packages': { packages: [{ id: 1, bytes: 10 * 1024 ** 3, days: 30, price: 990 }] },
  '/coupon/applicable': applicableCoupons({
    total: 990,
    businessType: 4,
    goods: packageGoods(990, false),
    coupons: [],
  }),
}
const renewAnswers = {
  '/device/detail': device({ deviceId: 7, name: '云手机-7', goodId: 1 }),
  '/CommodityGroup/getGoodsDetail': goods(),
  '/CommodityGroup/getGoodPrice': goodsQuote(),
  '/coupon/applicable': noCoupons(9900),
}
const openRenew = async () => {
  setRouteParams({ deviceIds: '7' })
  renderPage(<Renew />, session())
  await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥99.00'))
}
const videoAnswers = {
  '/device/detail': device({ deviceId: 9, name: '云手机-9', permissions: ['videoChangeOpType'] }),
  '/CommodityGroup/getGoodPrice': goodsQuote({ total: 1500, lines: [] }),
  '/coupon/applicable': noCoupons(1500),
}
const openVideo = async () => {
  setRouteParams({ deviceId: '9' })
  renderPage(<VideoChangeOpType />, session())
  await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥15.00'))
}
const upOrDownAnswers = {
  '/device/detail': device({ deviceId: 7, goodId: 2, permissions: ['upOrDownConfig'] }),
  '/CommodityGroup/getGoodsList': [
    { level: 1, name: '畅享版', themeColor: '#2F5FE8', description: '', goods: [goods()] },
    {
      level: 2,
      name: '尊享版',
      themeColor: '#6A45F0',
      description: '',
      goods: [
        goods({ goodId: 2, name: '尊享版 6核6G' }),
        goods({ goodId: 3, name: '尊享版 8核8G' }),
      ],
    },
  ],
  '/CommodityGroup/getGoodPrice': goodsQuote({
    total: 3300,
    lines: [],
    upgrade: { direction: 'up', newExpireAt: 0 },
  }),
  '/coupon/applicable': noCoupons(3300),
}
const openUpOrDown = async () => {
  setRouteParams({ deviceId: '7' })
  renderPage(<UpOrDownConfig />, session())
  fireEvent.click(await screen.findByRole('radio', { name: /^尊享版 8核8G/ }))
}
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
const dataCenterAnswers = { '/space/device': deviceSpace() }
/** 数据中心 of phone 7 with one finished backup; the confirm dialogs are answered 确定 */
const openDataCenter = async () => {
  setRouteParams({ deviceId: '7' })
  renderPage(<DataCenter />, {})
  await screen.findByText('云空间已用 1 GB / 2 GB')
}
const homeAnswers = {
  '/device/list': page([
    device({ deviceId: 1, name: '一号' }),
    device({ deviceId: 2, name: '二号' }),
  ]),
  '/device/detail': device({ deviceId: 1, name: '一号' }),
  '/device/cover': { url: '/cover.png', updatedAt: 1 },
  '/group/list': { groups: [], ungroupedCount: 2, totalCount: 2 },
  '/dict/getDeviceStatusList': [{ status: 1, name: '运行中', color: '#007d59' }],
}
/** 我的云机 on the real fleet store and services; `multi`: the many-phones view */
const renderHome = (multi = false) => {
  const { storage } = memoryStorage(multi ? { [VIEW_TYPE_KEY]: 1 } : {})
  const app = new AppStore(storage)
  const fleet = new FleetStore({ api, storage, app })
  const session = { isLoggedIn: true, token: 't', renewMsg: '', userInfo: { userId: 1 } }
  renderPage(<Home />, { app, fleet, session })
}
const openHome = async (multi = false) => {
  renderHome(multi)
  await (multi ? screen.findByLabelText('一号') : screen.findByText('一号'))
}
const groupAnswers = {
  '/group/list': {
    groups: [
      { groupId: 4, name: '工作室', sort: 0, deviceCount: 12 },
      { groupId: 9, name: '测试', sort: 1, deviceCount: 3 },
    ],
    ungroupedCount: 5,
    totalCount: 20,
  },
}
const openGroups = async () => {
  renderPage(<GroupIndex />, { app: new AppStore(memoryStorage().storage) })
  await screen.findByText('工作室')
}
const serviceAnswers = {
  '/customer/customerService/getUrl': { phone: '400-000-0000', hours: '9:00-21:00', url: null },
  '/customer/feedback/list': { records: [], page: 1, totalPage: 1, total: 0 },
}
/** 联系客服 on one of its tabs */
const openService = async (tab?: '意见反馈' | '我的反馈') => {
  renderPage(<CustomerService />, {})
  if (tab) fireEvent.click(await screen.findByText(tab))
}

/** 'METHOD /path' → how a page makes the call. */
const DRIVERS: Record<string, Driver> = {
  'POST /pay/createPayment': {
    route: 'pages/pay/pay',
    answers: payAnswers,
    async open() {
      await openPay()
      fireEvent.click(screen.getByText('立即支付'))
    },
  },
  'GET /order/getOrderInfo': {
    route: 'pages/pay/pay',
    answers: payAnswers,
    async open() {
      setRouteParams({ orderNo: 'CP20261122000001' })
      renderPage(<Pay />, session())
    },
  },
  'POST /order/cancel': {
    route: 'pages/pay/pay',
    answers: payAnswers,
    async open() {
      await openPay()
      fireEvent.click(screen.getByText('取消订单'))
    },
  },
  'GET /pay/beanBalance': {
    route: 'pages/pay/pay',
    answers: payAnswers,
    open: openPay,
    quiet: 'the beans method stays offered without the balance; the server checks it when paying',
  },
  'GET /wallet/accountBalance': {
    route: 'pages/pay/pay',
    answers: payAnswers,
    open: openPay,
    quiet: 'without the company balance only that pay method is left out',
  },
  'POST /order/createTimeToMonthOrder': {
    route: 'pages/CloudBeanToMonthly/index',
    answers: { '/wallet/timeToMonthQuote': quote },
    async open() {
      await openBeansToMonthly()
      fireEvent.click(screen.getByText('确认转包月'))
    },
  },
  'GET /wallet/timeToMonthQuote': {
    route: 'pages/CloudBeanToMonthly/index',
    async open() {
      renderPage(<CloudBeanToMonthly />, {
        fleet: { pickedDevice: { deviceId: 7, name: '云手机-7' } },
      })
    },
  },
  'GET /wallet/rechargePackages': {
    route: 'pages/user/recharge',
    answers: rechargeAnswers,
    async open() {
      renderPage(<Recharge />, {})
    },
  },
  'POST /order/createRechargeOrder': {
    route: 'pages/user/recharge',
    answers: rechargeAnswers,
    async open() {
      await openRecharge()
      fireEvent.click(screen.getByText('3000云豆'))
      fireEvent.click(screen.getByText('立即充值'))
    },
  },
  'POST /order/agentBalanceRecharge': {
    route: 'pages/user/recharge',
    answers: rechargeAnswers,
    async open() {
      await openRecharge()
      typeInto(document.body, '充值金额', '50')
      fireEvent.click(await screen.findByText('充值余额'))
    },
  },
  'GET /CommodityGroup/getGoodsDetail': {
    route: 'pages/create/buyGoods',
    answers: buyAnswers,
    async open() {
      setRouteParams({ goodId: '1', priceId: '11', zoneId: '1' })
      renderPage(<BuyGoods />, session())
    },
  },
  'POST /order/createCloudOrder': {
    route: 'pages/create/buyGoods',
    answers: buyAnswers,
    async open() {
      await openBuy()
      fireEvent.click(screen.getByText('提交订单'))
    },
    shows: purchaseText,
  },
  'POST /order/purchaseActivationCode': {
    route: 'pages/create/buyGoods',
    answers: buyAnswers,
    async open() {
      await openBuy({ purpose: 'activationCode' })
      fireEvent.click(screen.getByText('提交订单'))
    },
    shows: purchaseText,
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
  'GET /CommodityGroup/getZones': {
    route: 'pages/Device/selectChangeZone',
    answers: zoneAnswers,
    open: async () => openZones(),
  },
  'POST /device/changeZone': {
    route: 'pages/Device/selectChangeZone',
    answers: zoneAnswers,
    async open() {
      openZones()
      fireEvent.click(await screen.findByRole('button', { name: /华南-广州/ }))
    },
  },
  'GET /activation/myCodes': {
    route: 'pages/user/activateDevice',
    answers: activateAnswers,
    open: async () => openActivate(),
  },
  'POST /activation/activate': {
    route: 'pages/user/activateDevice',
    answers: activateAnswers,
    async open() {
      openActivate()
      typeInto(document.body, '激活码', 'ABCDEFGHJKMNPQRS')
      fireEvent.click(screen.getByText('立即激活'))
    },
  },
  'GET /playTrial/getConfig': {
    route: 'pages/landing/play-trial/index',
    answers: trialAnswers,
    open: async () => void openTrial(),
  },
  'GET /newUserGuide/getNewUserReceiveEquipment': {
    route: 'pages/landing/play-trial/index',
    answers: trialAnswers,
    async open() {
      openTrial()
      fireEvent.click(await screen.findByText('免费领取试玩云机'))
    },
  },
  'GET /space/packages': {
    route: 'pages/Space/BuySpace',
    answers: spaceAnswers,
    open: async () => void renderPage(<BuySpace />, {}),
  },
  'POST /order/createOrder': {
    route: 'pages/Space/BuySpace',
    answers: spaceAnswers,
    async open() {
      renderPage(<BuySpace />, {})
      fireEvent.click(await screen.findByText('10 GB'))
      fireEvent.click(screen.getByText('立即购买'))
    },
  },
  'POST /order/createRenewOrder': {
    route: 'pages/Renew/index',
    answers: renewAnswers,
    async open() {
      await openRenew()
      fireEvent.click(screen.getByText('确认续费'))
    },
    shows: purchaseText,
  },
  'POST /order/createVideoOrder': {
    route: 'pages/Device/videoChangeOpType',
    answers: videoAnswers,
    async open() {
      await openVideo()
      fireEvent.click(screen.getByText('立即升级'))
    },
    shows: purchaseText,
  },
  'POST /order/createUpOrDownOrder': {
    route: 'pages/Device/upOrDownConfig',
    answers: upOrDownAnswers,
    async open() {
      await openUpOrDown()
      fireEvent.click(await screen.findByText('去支付'))
    },
    shows: purchaseText,
  },
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
  'POST /space/backup': {
    route: 'pages/Space/DataCenter',
    answers: dataCenterAnswers,
    async open() {
      await openDataCenter()
      fireEvent.click(screen.getByText('立即备份'))
    },
    // 1026: the page says what to do instead of the server's words
    shows: (code, msg) =>
      code === ResultCode.OVER_CLOUD_SPACE ? '云空间容量不足，请先删除不需要的备份后再试' : msg,
  },
  'POST /space/restore': {
    route: 'pages/Space/DataCenter',
    answers: dataCenterAnswers,
    async open() {
      await openDataCenter()
      fireEvent.click(screen.getByText('恢复'))
    },
  },
  'POST /space/deleteBackup': {
    route: 'pages/Space/DataCenter',
    answers: dataCenterAnswers,
    async open() {
      await openDataCenter()
      fireEvent.click(screen.getByText('删除'))
    },
  },
  'POST /device/command': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    async open() {
      await openHome()
      fireEvent.click(screen.getByText('重启'))
    },
  },
  'POST /device/rename': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    async open() {
      await openHome()
      fireEvent.click(screen.getByText('重命名'))
      typeInto(document.body, '云手机名称', '新名字')
      fireEvent.click(screen.getByText('确定'))
    },
  },
  'POST /device/batchCommand': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    async open() {
      await openHome(true)
      fireEvent.click(screen.getByText('多选'))
      for (const name of ['一号', '二号']) fireEvent.click(screen.getByLabelText(name))
      fireEvent.click(screen.getByText('重启'))
    },
  },
  'POST /group/create': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByText('新建分组'))
      typeInto(document.body, '分组名称', '新组')
      fireEvent.click(await screen.findByText('确定'))
    },
  },
  'POST /group/rename': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByLabelText('重命名测试'))
      typeInto(document.body, '分组名称', '正式')
      fireEvent.click(await screen.findByText('确定'))
    },
  },
  'POST /group/delete': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByLabelText('删除工作室'))
    },
  },
  'POST /group/sort': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByLabelText('下移工作室'))
    },
  },
  'POST /group/moveDevices': {
    route: 'pages/Group/pages/MoveGroup',
    answers: groupAnswers,
    async open() {
      setRouteParams({ deviceIds: '3,5' })
      renderPage(<MoveGroup />, {})
      fireEvent.click(await screen.findByLabelText('工作室'))
      fireEvent.click(screen.getByText('确定'))
    },
  },
  'POST /CommodityGroup/getGoodPrice': {
    route: 'pages/create/buyGoods',
    answers: buyAnswers,
    async open() {
      setRouteParams({ goodId: '1', priceId: '11', zoneId: '1' })
      renderPage(<BuyGoods />, session())
    },
  },
  'POST /order/createBigUserLinkOrder': {
    route: 'pages/create/bigUserBuyGoods',
    answers: {
      '/CommodityGroup/getGoodsList': [
        { level: 1, name: '畅享版', themeColor: '#2F5FE8', description: '', goods: [goods()] },
      ],
      '/CommodityGroup/getGoodPrice': goodsQuote(),
      '/coupon/applicable': noCoupons(9900),
    },
    async open() {
      setRouteParams({})
      renderPage(<BigUserBuyGoods />, session({ userType: 2 }))
      await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥99.00'))
      fireEvent.click(screen.getByText('生成付款链接'))
    },
    shows: purchaseText,
  },
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
  'GET /space/device': {
    route: 'pages/Space/DataCenter',
    async open() {
      setRouteParams({ deviceId: '7' })
      renderPage(<DataCenter />, {})
    },
    // 1002: the phone is gone, which the page says in its own words
    shows: (code, msg) => (code === ResultCode.GET_DEVICE_FAILED ? '云手机不存在或已释放' : msg),
  },
  'GET /space/info': {
    route: 'pages/Space/index',
    open: async () => void renderPage(<SpaceIndex />, {}),
  },
  'GET /space/history': {
    route: 'pages/Space/HistoryData',
    open: async () => void renderPage(<HistoryData />, {}),
  },
  'GET /device/list': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    open: async () => renderHome(),
  },
  'GET /group/list': {
    route: 'pages/Group/index',
    open: async () =>
      void renderPage(<GroupIndex />, { app: new AppStore(memoryStorage().storage) }),
  },
  'GET /device/detail': {
    route: 'pages/Device/videoChangeOpType',
    answers: videoAnswers,
    async open() {
      setRouteParams({ deviceId: '9' })
      renderPage(<VideoChangeOpType />, session())
    },
  },
  'GET /device/cover': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    open: () => openHome(),
    quiet: 'the last frame stays and the phone is tried again when due (Home/fleet/cover-queue.ts)',
  },
  'GET /dict/getDeviceStatusList': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    open: () => openHome(),
    quiet: "without the dictionary the phones' statuses show the client's own labels",
  },
  'POST /coupon/applicable': {
    route: 'pages/create/buyGoods',
    answers: buyAnswers,
    async open() {
      setRouteParams({ goodId: '1', priceId: '11', zoneId: '1' })
      renderPage(<BuyGoods />, session())
    },
    quiet:
      'without the coupon list the purchase goes on without a coupon (CouponPicker/use-coupons.ts)',
  },
  'GET /coupon/list': {
    route: 'pages/user/coupon',
    open: async () => void renderPage(<CouponPage />, session()),
  },
  'GET /invite/list': {
    route: 'pages/user/invite',
    open: async () => void renderPage(<Invite />, session()),
  },
  'GET /message/getSettings': {
    route: 'pages/user/messageSet',
    open: async () => void renderPage(<MessageSet />, {}),
  },
}

/** Routes no page calls, and why. */
const NOT_FROM_PAGES: Record<string, string> = {
  'GET /health': "the load balancer's health check",
  'GET /sandbox/pay/checkout':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/sms/last': "the sandbox SMS's last code, for tests and demos",
  'GET /sandbox/supplier/control':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control/floatingBall':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control/floatingBall.js':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control/state':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/cover/{instanceId}':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/wechat/oauth2/authorize':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'POST /sandbox/supplier/control/command':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'POST /pay/notify/sandbox': "the payment provider's server-to-server notification",
  'POST /pay/notify/sandbox/refund': "the payment provider's server-to-server notification",
  'GET /device/summary': 'no page of this client calls it',
  'GET /order/list': 'no page of this client calls it',
  'POST /order/createCloudOrderNew':
    'SPEC 7 lists it; this client buys through /order/createCloudOrder',
  'POST /userUsageLog/saveUserUsageLog':
    "the app's usage log (stores/usage-log-store.ts): nothing is shown, and SPEC 8's error reporting ignores it",
}

/**
 * Routes a page calls that have no driver yet. Their codes reach the same request layer (2017, the
 * dialogs) but the page's own message is not proven here yet. The list only shrinks.
 */
const NOT_YET_DRIVEN: readonly string[] = [
  'GET /CommodityGroup/getGoodsList',
  'GET /activity/detail',
  'GET /activity/list',
  'GET /configure/getCommonConfig',
  'GET /coupon/usage',
  'GET /device/empower/list',
  'GET /device/empower/share',
  'GET /device/models',
  'GET /device/systemUpdateProgress',
  'GET /device/transfer/list',
  'GET /dict/getDictList',
  'GET /message/getUnreadCount',
  'GET /message/list',
  'GET /newUserGuide/getNewUserGuideConfig_V2',
  'GET /space/task',
  'GET /user/getAuthToken',
  'GET /user/getFloatingBall',
  'GET /user/getUserInfo',
  'GET /user/scanLogin/status',
  // defect: 云豆明细 (pages/user/cloudBeansList) answered 1080 shows only PagedList's 加载失败 / 重新加载,
  // never the server's message
  'GET /wallet/beanLedger',
  'POST /common/userLogin/confirm',
  'POST /device/empower',
  'POST /device/empower/acceptShare',
  'POST /device/empower/revoke',
  'POST /device/empower/share',
  'POST /device/replace',
  'POST /device/setModel',
  'POST /device/systemUpdate',
  'POST /device/transfer',
  'POST /file/upload',
  'POST /message/read',
  'POST /message/updateSettings',
  'POST /order/createSeckillActivityOrder',
  'POST /sandbox/pay/act',
  'POST /user/changeBindingMobile',
  'POST /user/checkOldMobile',
  'POST /user/exitLogin',
  'POST /user/firstUpdateUserPassword',
  'POST /user/realNameAuth',
  'POST /user/saveFloatingBall',
  'POST /user/scanLogin/confirm',
  'POST /user/scanLogin/create',
  'POST /user/scanLogin/refuse',
  'POST /user/scanLogin/scan',
  'POST /user/updateCompanyInfo',
  'POST /user/updateUserInfo',
]

const NAVIGATIONS = ['navigateTo', 'navigateBack', 'redirectTo', 'reLaunch', 'switchTab'] as const

describe('the error matrix covers every route the server declares', () => {
  it('each route in route-codes.ts has a driver, or says why no page calls it', () => {
    const listed = [...Object.keys(DRIVERS), ...Object.keys(NOT_FROM_PAGES), ...NOT_YET_DRIVEN]
    expect(listed.filter((key) => !(key in ROUTE_CODES))).toEqual([])
    expect(Object.keys(ROUTE_CODES).filter((key) => !listed.includes(key))).toEqual([])
    expect(listed.length).toBe(new Set(listed).size)
  })
})

/** the request layer's base, as it was made (an applet login driver switches TARO_ENV meanwhile) */
const API_BASE = resolveApiBase()
let answer: { key: string; code: number; msg: string }
let requested: string[]
let driverAnswers: Record<string, unknown>

const toasts = () =>
  (Taro.showToast as jest.Mock).mock.calls.map(([o]) => o as Taro.showToast.Option)
const modals = () =>
  (Taro.showModal as jest.Mock).mock.calls.map(([o]) => o as Taro.showModal.Option)
const seen = () =>
  [
    ...toasts().map((t) => t.title),
    ...modals().map((m) => `${m.title}\n${m.content}`),
    document.body.textContent ?? '',
  ].join('\n')

afterEach(() => {
  process.env.TARO_ENV = 'h5' // the mini-program's WeChat login drivers switch it
})

beforeEach(() => {
  jest.clearAllMocks()
  // the request layer logs every refusal; 36 of them per route are noise here
  jest.spyOn(console, 'warn').mockImplementation(() => undefined)
  Taro.clearStorageSync()
  Taro.setStorageSync(STORAGE_KEYS.token, 'token-1')
  Taro.setStorageSync(STORAGE_KEYS.userId, '1')
  requested = []
  jest.spyOn(Taro, 'request').mockImplementation(((o: { url: string; method: string }) => {
    const path = o.url.split('?')[0].replace(API_BASE, '')
    requested.push(`${o.method} ${path}`)
    if (`${o.method} ${path}` === answer.key) {
      return Promise.resolve({
        statusCode: 200,
        data: { code: answer.code, msg: answer.msg, data: null, ts: 1 },
      })
    }
    if (!(path in driverAnswers)) {
      return Promise.resolve({
        statusCode: 200,
        data: { code: 1080, msg: `测试未应答 ${path}`, data: null, ts: 1 },
      })
    }
    return Promise.resolve({
      statusCode: 200,
      data: { code: 200, msg: '成功', data: driverAnswers[path], ts: 1 },
    })
  }) as never)
  for (const fn of ['showToast', 'showLoading', 'hideLoading'] as const)
    jest.spyOn(Taro, fn).mockResolvedValue({ errMsg: 'ok' } as never)
  for (const fn of NAVIGATIONS) jest.spyOn(Taro, fn).mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
})

const cases = Object.entries(DRIVERS).flatMap(([key, driver]) =>
  (ROUTE_CODES[key] ?? []).map((code) => ({ key, driver, code })),
)

describe.each(cases)('$key answered $code', ({ key, driver, code }) => {
  beforeEach(() => {
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: driver.route }] as never)
    driverAnswers = driver.answers ?? {}
  })

  it('is handled as SPEC 8 says', async () => {
    const msg = `服务端说明${code}`
    answer = { key, code, msg }
    await driver.open()
    await waitFor(() => expect(requested).toContain(key))
    const dialog = REFUSAL_DIALOGS[code]
    if (code === ResultCode.LOGIN_TOKEN_INVALID) {
      await waitFor(() => expect(toasts().map((t) => t.title)).toContain(msg))
      // on login itself the user is already where 2017 sends them
      if (!isPublicPage(driver.route) && driver.route !== ROUTES.login.path) {
        await waitFor(() =>
          expect(Taro.redirectTo).toHaveBeenCalledWith({
            url: expect.stringMatching(
              new RegExp(
                `^/pages/login/login\\?redirect=${encodeURIComponent(`/${driver.route}`)}`,
              ),
            ),
          }),
        )
      }
      expect(Taro.getStorageSync(STORAGE_KEYS.token)).toBeFalsy()
    } else if (dialog) {
      // the dialog with the server's message, and no toast on top of its buttons
      await waitFor(() =>
        expect(modals()).toContainEqual(
          expect.objectContaining({ title: dialog.title, content: expect.stringContaining(msg) }),
        ),
      )
      expect(toasts()).toEqual([])
      if (dialog.action) {
        await waitFor(() =>
          expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/user/recharge' }),
        )
      }
    } else if (!driver.quiet) {
      const expected = driver.shows?.(code, msg) ?? msg
      await waitFor(() => expect(seen()).toContain(expected))
    }
    // never a success (toast or dialog), never a TypeError's text
    expect(toasts().filter((t) => t.icon === 'success' || /成功/.test(t.title))).toEqual([])
    expect(modals().filter((m) => /成功/.test(`${m.title}${m.content}`))).toEqual([])
    expect(seen()).not.toMatch(/TypeError|Cannot read|undefined|null/)
    // only 2017's login, a dialog's 去充值 and the driver's named destinations navigate
    const leadsTo = driver.leadsTo?.[code]
    if (leadsTo) {
      await waitFor(() =>
        expect(NAVIGATIONS.flatMap((fn) => (Taro[fn] as jest.Mock).mock.calls)).toContainEqual([
          { url: expect.stringMatching(leadsTo) },
        ]),
      )
    }
    const allowed = code === ResultCode.LOGIN_TOKEN_INVALID || Boolean(dialog?.action || leadsTo)
    if (!allowed) for (const fn of NAVIGATIONS) expect(Taro[fn]).not.toHaveBeenCalled()
  })
})
