/** Cloud space: the error matrix drivers of 云空间, 数据中心, history and 购买云空间 */
import { fireEvent, screen } from '@testing-library/react'
import { ResultCode } from '@/domain/result-codes'
import BuySpace from '@/pages/Space/BuySpace'
import DataCenter from '@/pages/Space/DataCenter'
import HistoryData from '@/pages/Space/HistoryData'
import SpaceIndex from '@/pages/Space/index'
import { renderPage, setRouteParams } from '../page-harness'
import { deviceSpace } from '../Space/space-fixtures'
import { applicableCoupons, packageGoods } from '../coupon-fixtures'

import type { Driver } from './harness'

const spaceAnswers = {
  '/space/packages': { packages: [{ id: 1, bytes: 10 * 1024 ** 3, days: 30, price: 990 }] },
  '/coupon/applicable': applicableCoupons({
    total: 990,
    businessType: 4,
    goods: packageGoods(990, false),
    coupons: [],
  }),
}

const dataCenterAnswers = { '/space/device': deviceSpace() }

/** 数据中心 of phone 7 with one finished backup; the confirm dialogs are answered 确定 */
const openDataCenter = async () => {
  setRouteParams({ deviceId: '7' })
  renderPage(<DataCenter />, {})
  await screen.findByText('云空间已用 1 GB / 2 GB')
}

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /space/info': {
    route: 'pages/Space/index',
    open: async () => void renderPage(<SpaceIndex />, {}),
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
  'GET /space/history': {
    route: 'pages/Space/HistoryData',
    open: async () => void renderPage(<HistoryData />, {}),
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
}
