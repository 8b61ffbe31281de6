/** Buying: the error matrix drivers of 选购, the purchase, renewal and upgrade pages, 激活码 and the trial */
import { fireEvent, screen, waitFor } from '@testing-library/react'
import BigUserBuyGoods from '@/pages/create/bigUserBuyGoods'
import BuyGoods from '@/pages/create/buyGoods'
import Create from '@/pages/Home/create'
import PlayTrial from '@/pages/landing/play-trial/index'
import Renew from '@/pages/Renew/index'
import UpOrDownConfig from '@/pages/Device/upOrDownConfig'
import VideoChangeOpType from '@/pages/Device/videoChangeOpType'
import ActivateDevice from '@/pages/user/activateDevice'
import { SOFT_CODE_MESSAGES } from '@/api/order'
import { renderPage, setRouteParams, typeInto } from '../page-harness'
import { goods, noCoupons, quote as goodsQuote, session } from '../buying/fixtures'
import { device } from '../Home/fleet-fixtures'
import type { Driver } from './harness'

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

/** a purchase's soft refusals in the buyer's words (api/order.ts) */
const purchaseText = (code: number, msg: string) => SOFT_CODE_MESSAGES[code] ?? msg

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

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /CommodityGroup/getGoodsDetail': {
    route: 'pages/create/buyGoods',
    answers: buyAnswers,
    async open() {
      setRouteParams({ goodId: '1', priceId: '11', zoneId: '1' })
      renderPage(<BuyGoods />, session())
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
  'POST /order/createRenewOrder': {
    route: 'pages/Renew/index',
    answers: renewAnswers,
    async open() {
      await openRenew()
      fireEvent.click(screen.getByText('确认续费'))
    },
    shows: purchaseText,
  },
  'POST /device/autoRenew': {
    route: 'pages/Renew/index',
    answers: renewAnswers,
    async open() {
      await openRenew()
      fireEvent.click(screen.getByRole('switch', { name: '自动续费' }))
    },
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
  'GET /device/detail': {
    route: 'pages/Device/videoChangeOpType',
    answers: videoAnswers,
    async open() {
      setRouteParams({ deviceId: '9' })
      renderPage(<VideoChangeOpType />, session())
    },
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
  'GET /CommodityGroup/getGoodsList': {
    // the 选购 tab, where most buyers meet the catalogue
    route: 'pages/Home/create',
    open: async () => void renderPage(<Create />, session()),
  },
}
