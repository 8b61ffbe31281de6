import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import Create from '@/pages/Home/create'
import { takeGoodsList } from '@/api/goods'
import { navigate } from '@/runtime/navigation'
import { renderPage } from '../page-harness'
import { goods, price, session } from './fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/goods', () => ({ takeGoodsList: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn() }))

const list = takeGoodsList as jest.Mock

beforeEach(() => {
  jest.clearAllMocks()
  list.mockResolvedValue([
    {
      level: 1,
      name: '畅享版',
      themeColor: '#2F5FE8',
      description: '日常挂机、轻量应用',
      goods: [
        goods({
          prices: [
            price({ priceId: 10, goodTime: 7, durationLabel: '7天', goodPrice: 2900 }),
            price({ firstPurchasePrice: 4900, firstCount: 1 }),
          ],
        }),
      ],
    },
    {
      level: 3,
      name: '旗舰版',
      themeColor: '#B34D00',
      description: '',
      goods: [
        goods({
          goodId: 5,
          level: 3,
          name: '旗舰版 8核8G',
          themeColor: '#B34D00',
          prices: [
            price({
              goodId: 5,
              goodPrice: 19900,
              oldGoodPrice: 25900,
              activityId: 1,
              activityPrice: 15900,
              activityRunning: true,
            }),
          ],
        }),
      ],
    },
  ])
})

describe('创建云机 catalogue', () => {
  it('shows the five levels as tabs in their theme colours', async () => {
    renderPage(<Create />, session({ isLoggedIn: false }))
    const tabs = await screen.findAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual([
      '畅享版',
      '尊享版',
      '旗舰版',
      '至尊版',
      '游戏定制版',
    ])
    expect(tabs[2].getAttribute('style')).toMatch(/179, 77, 0|#B34D00/i)
    expect(tabs[0].getAttribute('aria-selected')).toBe('true')
  })

  it('shows a goods with its configuration, price from, struck old price, badge and stock per zone', async () => {
    renderPage(<Create />, session())
    const card = await screen.findByRole('button', { name: /^畅享版 4核4G/ })
    const c = within(card)
    expect(c.getByText('4核CPU 4G内存 64G存储')).toBeTruthy()
    expect(c.getByText('安卓10/B')).toBeTruthy()
    expect(c.getByText('基础镜像')).toBeTruthy()
    expect(c.getByText('¥99.00')).toBeTruthy()
    expect(c.getByText('/1个月 起')).toBeTruthy()
    expect(c.getByText('¥129.00')).toBeTruthy()
    expect(c.getByText('首购优惠')).toBeTruthy()
    expect(c.getByText('紧张').getAttribute('style')).toMatch(/179, 77, 0/)
    expect(c.getByText('售罄')).toBeTruthy()
  })

  it('shows the activity price and badge on another level, and opens goods details on tap', async () => {
    renderPage(<Create />, session())
    await screen.findAllByRole('tab')
    fireEvent.click(screen.getByRole('tab', { name: /^旗舰版/ }))
    const card = await screen.findByRole('button', { name: /^旗舰版 8核8G/ })
    expect(within(card).getByText('限时活动')).toBeTruthy()
    expect(within(card).getByText('¥159.00')).toBeTruthy()
    expect(within(card).getByText('¥259.00')).toBeTruthy()
    fireEvent.click(card)
    expect(navigate).toHaveBeenCalledWith('goodsDetails', { goodId: 5 })
  })

  it('says so when a level has nothing on sale, and keeps the customer-service entry', async () => {
    renderPage(<Create />, session())
    await screen.findAllByRole('tab')
    fireEvent.click(screen.getByRole('tab', { name: '至尊版' }))
    await waitFor(() => expect(screen.getByText('该系列暂无在售配置')).toBeTruthy())
    expect(screen.getByText('联系客服开通')).toBeTruthy()
  })

  it('shows 加载中 until the catalogue arrives, then the cards and the footer together', async () => {
    let arrive: (levels: unknown) => void = () => undefined
    list.mockReturnValue(new Promise((resolve) => (arrive = resolve)))
    renderPage(<Create />, session())
    expect(screen.getByRole('status').textContent).toBe('加载中')
    expect(screen.queryByText('企业采购')).toBeNull()

    arrive([{ level: 1, name: '畅享版', themeColor: '#2F5FE8', description: '', goods: [goods()] }])
    await screen.findByText('企业采购')
    expect(screen.queryByRole('status')).toBeNull()
    expect(screen.getAllByText(goods().name).length).toBeGreaterThan(0)
  })

  it('leads to 企业采购 (navigation sends a logged-out visitor through login)', async () => {
    renderPage(<Create />, session({ isLoggedIn: false }))
    await screen.findAllByRole('tab')
    fireEvent.click(screen.getByText('企业采购'))
    expect(navigate).toHaveBeenCalledWith('bigUserBuyGoods')
  })
})
