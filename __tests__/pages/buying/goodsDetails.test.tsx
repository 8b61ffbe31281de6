import { fireEvent, screen } from '@testing-library/react'
import GoodsDetails from '@/pages/create/goodsDetails'
import { getGoodsDetail } from '@/api/goods'
import { loginUrl, navigate, openPath } from '@/runtime/navigation'
import { isPublicPage } from '@/constants/routes'
import { renderPage, setRouteParams } from '../page-harness'
import { goods, session } from './fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/goods', () => ({ getGoodsDetail: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({
  navigate: jest.fn(),
  openPath: jest.fn(),
  loginUrl: jest.fn((to: string) => `/pages/login/login?redirect=${encodeURIComponent(to)}`),
}))

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ goodId: '1' })
  ;(getGoodsDetail as jest.Mock).mockResolvedValue(goods())
})

describe('goods details', () => {
  it('is open to visitors: prices and zones, and 立即购买 asks for a login, then buys what they chose', async () => {
    expect(isPublicPage('/pages/create/goodsDetails?goodId=1')).toBe(true)
    renderPage(<GoodsDetails />, session({ isLoggedIn: false }))
    await screen.findByText('购买时长')
    expect(screen.getByText('华东-上海')).toBeTruthy()
    fireEvent.click(screen.getByText('立即购买'))
    expect(navigate).not.toHaveBeenCalled()
    expect(loginUrl).toHaveBeenCalledWith('/pages/create/buyGoods?goodId=1&priceId=11&zoneId=1')
    expect(openPath).toHaveBeenCalledWith(
      `/pages/login/login?redirect=${encodeURIComponent('/pages/create/buyGoods?goodId=1&priceId=11&zoneId=1')}`,
    )
  })

  it('takes a signed-in user straight to the purchase', async () => {
    renderPage(<GoodsDetails />, session())
    fireEvent.click(await screen.findByText('立即购买'))
    expect(navigate).toHaveBeenCalledWith('buyGoods', { goodId: 1, priceId: 11, zoneId: 1 })
    expect(openPath).not.toHaveBeenCalled()
  })
})
