/** Paying: the error matrix drivers of the pay page, 充值 and 云豆转包月 */
import { fireEvent, screen } from '@testing-library/react'
import CloudBeanToMonthly from '@/pages/CloudBeanToMonthly/index'
import Pay from '@/pages/pay/pay'
import Recharge from '@/pages/user/recharge'
import { renderPage, setRouteParams, typeInto } from '../page-harness'
import { order, session } from '../buying/fixtures'
import { applicableCoupons, packageGoods } from '../coupon-fixtures'
import type { Driver } from './harness'

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

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
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
  'POST /sandbox/pay/act': {
    // the mini-program has no sandbox checkout page: its three choices come in an action sheet
    route: 'pages/pay/pay',
    answers: {
      ...payAnswers,
      '/pay/createPayment': {
        tradeNo: 'T2',
        orderNo: 'CP20261122000001',
        payMethod: 2,
        checkoutUrl: '/co?t=T2',
        paid: false,
      },
    },
    async open() {
      setRouteParams({ orderNo: 'CP20261122000001' })
      renderPage(<Pay />, session({ runtime: 'applet' }))
      fireEvent.click(await screen.findByText('立即支付'))
      fireEvent.click(await screen.findByText('确认支付'))
    },
  },
}
