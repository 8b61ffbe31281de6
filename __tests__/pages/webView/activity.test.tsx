import { fireEvent, screen, waitFor } from '@testing-library/react'
import ActivityPage from '@/pages/webView/activity'
import * as activity from '@/api/activity'
import { navigate, openPath } from '@/runtime/navigation'
import { renderPage, setRouteParams } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/activity', () => ({
  listActivities: jest.fn(),
  getActivityDetail: jest.fn(),
  createSeckillOrder: jest.fn(),
}))
jest.mock('@/runtime/navigation', () => ({
  navigate: jest.fn(),
  openPath: jest.fn(),
  loginUrl: (to: string) => `/pages/login/login?redirect=${encodeURIComponent(to)}`,
}))

const api = activity as jest.Mocked<typeof activity>
const HOUR = 3_600_000
const NOW = Date.now()

const item = (over: Record<string, unknown> = {}) => ({
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
  ...over,
})

const detail = (over: Record<string, unknown> = {}, itemOver: Record<string, unknown> = {}) => ({
  id: 1,
  title: '限时秒杀 · 1元抢畅享版云手机',
  summary: '数量有限，先到先得',
  banner: null,
  kind: 'seckill' as const,
  startsAt: NOW - HOUR,
  endsAt: NOW + 2 * HOUR,
  running: true,
  rules: '1. 每个账号限购 1 件',
  serverTime: NOW,
  items: [item(itemOver)],
  ...over,
})

const loggedIn = { session: { isLoggedIn: true } }
const loggedOut = { session: { isLoggedIn: false } }
/** The item's button (NutUI renders a taro-button-core, which has no role in jsdom). */
const buyButton = () => {
  const button = document.querySelector<HTMLElement>('taro-button-core')
  if (!button) throw new Error('no button')
  return button
}

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ id: '1' })
})

describe('webView/activity', () => {
  it('shows a running seckill: price, 原价, units left, countdown to the end, rules', async () => {
    api.getActivityDetail.mockResolvedValue(detail())
    renderPage(<ActivityPage />, loggedIn)
    await screen.findByText('限时秒杀 · 1元抢畅享版云手机')
    expect(screen.getByText('¥1.00')).toBeTruthy()
    expect(screen.getByText('原价 ¥9.00')).toBeTruthy()
    expect(screen.getByText(/剩余 3 件/)).toBeTruthy()
    expect(screen.getByText('距结束')).toBeTruthy()
    expect(screen.getByText(/^0?1:59:5\d|^02:00:00$/)).toBeTruthy()
    expect(screen.getByText('1. 每个账号限购 1 件')).toBeTruthy()
    expect(buyButton().textContent).toContain('立即抢购')
    expect(api.getActivityDetail).toHaveBeenCalledWith(1, { loading: false })
  })

  it('before the start: counts down to it and the button says 未开始', async () => {
    api.getActivityDetail.mockResolvedValue(
      detail({ startsAt: NOW + HOUR, endsAt: NOW + 3 * HOUR, running: false }),
    )
    renderPage(<ActivityPage />, loggedIn)
    await screen.findByText('距开始')
    expect(buyButton().textContent).toContain('未开始')
    expect(buyButton().className).toContain('disabled')
    fireEvent.click(buyButton())
    expect(api.createSeckillOrder).not.toHaveBeenCalled()
  })

  it('sold out and already bought disable the button with the reason', async () => {
    api.getActivityDetail.mockResolvedValue(detail({}, { left: 0 }))
    const { unmount } = renderPage(<ActivityPage />, loggedIn)
    await screen.findByText(/^已抢光 ·/)
    expect(buyButton().textContent).toContain('已抢光')
    expect(buyButton().className).toContain('disabled')
    unmount()

    api.getActivityDetail.mockResolvedValue(
      detail({}, { bought: true, orderNo: 'CP1', orderStatus: 2 }),
    )
    renderPage(<ActivityPage />, loggedIn)
    await waitFor(() => expect(buyButton().textContent).toContain('已抢到'))
  })

  it('an unpaid unit of mine offers to pay it', async () => {
    api.getActivityDetail.mockResolvedValue(
      detail({}, { bought: true, orderNo: 'CP9', orderStatus: 0 }),
    )
    renderPage(<ActivityPage />, loggedIn)
    fireEvent.click(await screen.findByText('已抢到，去支付'))
    expect(navigate).toHaveBeenCalledWith('pay', { orderNo: 'CP9' })
  })

  it('立即抢购 creates the seckill order at the shown price and goes to pay', async () => {
    api.getActivityDetail.mockResolvedValue(detail())
    api.createSeckillOrder.mockResolvedValue({
      ok: true,
      data: { orderNo: 'CP20261122000001', status: 0 } as never,
    })
    renderPage(<ActivityPage />, loggedIn)
    await screen.findByText('¥1.00')
    fireEvent.click(buyButton())
    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith('pay', { orderNo: 'CP20261122000001' }),
    )
    expect(api.createSeckillOrder).toHaveBeenCalledWith({
      itemId: 1,
      expectedAmount: 100,
      idempotencyKey: expect.any(String),
    })
  })

  it('a refusal is shown and the stock reloaded', async () => {
    api.getActivityDetail.mockResolvedValue(detail())
    api.createSeckillOrder.mockRejectedValue({ code: 1080, msg: '每人限购1件' })
    renderPage(<ActivityPage />, loggedIn)
    await screen.findByText('¥1.00')
    fireEvent.click(buyButton())
    expect(await screen.findByText('每人限购1件')).toBeTruthy()
    expect(navigate).not.toHaveBeenCalled()
    await waitFor(() => expect(api.getActivityDetail).toHaveBeenCalledTimes(2))
  })

  it('a visitor sees the sale and is sent to login (and back) to buy', async () => {
    api.getActivityDetail.mockResolvedValue(detail())
    renderPage(<ActivityPage />, loggedOut)
    await screen.findByText('¥1.00')
    fireEvent.click(buyButton())
    await waitFor(() =>
      expect(openPath).toHaveBeenCalledWith(
        `/pages/login/login?redirect=${encodeURIComponent('/pages/webView/activity?id=1')}`,
      ),
    )
    expect(api.createSeckillOrder).not.toHaveBeenCalled()
  })

  it('without an id: several activities are listed, with the game trial', async () => {
    setRouteParams({})
    api.listActivities.mockResolvedValue([
      { ...detail(), id: 1 },
      { ...detail(), id: 2, title: '新人福利', kind: 'info' },
    ])
    renderPage(<ActivityPage />, loggedIn)
    fireEvent.click(await screen.findByRole('button', { name: /^新人福利/ }))
    expect(navigate).toHaveBeenCalledWith('activity', { id: 2 })
    fireEvent.click(screen.getByRole('button', { name: /^免费试玩游戏/ }))
    expect(navigate).toHaveBeenCalledWith('playTrial')
    expect(api.getActivityDetail).not.toHaveBeenCalled()
  })
})
