import {
  canPay,
  isFinal,
  OrderStatus,
  orderStatusLabels,
  PAY_WINDOW_MS,
  payCountdown,
  PayMethod,
  payMethodLabels,
} from '@/domain/order-status'

const NOW = 1_800_000_000_000

describe('order status', () => {
  it('has six states with their labels', () => {
    expect(OrderStatus).toEqual({
      unpaid: 0,
      paid: 1,
      completed: 2,
      cancelled: 3,
      timedOut: 4,
      refunded: 5,
    })
    expect(orderStatusLabels).toEqual({
      0: '待支付',
      1: '已支付',
      2: '已完成',
      3: '已取消',
      4: '已超时',
      5: '已退款',
    })
  })
  it('completed, cancelled, timed out and refunded are final; unpaid and paid are not', () => {
    expect([0, 1, 2, 3, 4, 5].filter(isFinal)).toEqual([2, 3, 4, 5])
  })
})

describe('paying', () => {
  const order = { status: OrderStatus.unpaid, payDeadline: NOW + PAY_WINDOW_MS }
  it('an unpaid order is payable until just before its deadline', () => {
    expect(canPay(order, NOW)).toBe(true)
    expect(canPay(order, order.payDeadline - 1)).toBe(true)
    expect(canPay(order, order.payDeadline)).toBe(false)
  })
  it('an order in any other state is not payable', () => {
    for (const status of [1, 2, 3, 4, 5]) expect(canPay({ ...order, status }, NOW)).toBe(false)
  })
  it('counts down mm:ss, rounding seconds up and stopping at 00:00', () => {
    expect(payCountdown(NOW + PAY_WINDOW_MS, NOW)).toBe('15:00')
    expect(payCountdown(NOW + 65_000, NOW)).toBe('01:05')
    expect(payCountdown(NOW + 500, NOW)).toBe('00:01')
    expect(payCountdown(NOW, NOW)).toBe('00:00')
    expect(payCountdown(NOW - 5000, NOW)).toBe('00:00')
  })
})

describe('pay methods', () => {
  it('alipay, wechat pay, cloud beans and (company users) the account balance', () => {
    expect(PayMethod).toEqual({ alipay: 1, wechatPay: 2, beans: 3, accountBalance: 4 })
    expect(payMethodLabels).toEqual({ 1: '支付宝', 2: '微信支付', 3: '云豆', 4: '账户余额' })
  })
})
