import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import BigUserBuyGoods from '@/pages/create/bigUserBuyGoods'
import { getGoodPrice, getGoodsList } from '@/api/goods'
import { navigate, openPath } from '@/runtime/navigation'
import { createBigUserLinkOrder } from '@/api/order'
import { getApplicableCoupons } from '@/api/coupon'
import { renderPage } from '../page-harness'
import { goods, heldCoupon, noCoupons, order, quote, session } from './fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/goods', () => ({ getGoodsList: jest.fn(), getGoodPrice: jest.fn() }))
jest.mock('@/api/order', () => ({ createBigUserLinkOrder: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn(), openPath: jest.fn() }))
jest.mock('@/api/coupon', () => ({ getApplicableCoupons: jest.fn() }))

const mockList = getGoodsList as jest.Mock
const mockCreate = createBigUserLinkOrder as jest.Mock
const mockPrice = getGoodPrice as jest.Mock
const mockApplicable = getApplicableCoupons as jest.Mock

beforeEach(() => {
  jest.clearAllMocks()
  mockList.mockResolvedValue([
    { level: 1, name: '畅享版', themeColor: '#2F5FE8', description: '', goods: [goods()] },
  ])
  mockPrice.mockResolvedValue(quote())
  mockApplicable.mockResolvedValue(noCoupons(9900))
})

describe('企业采购', () => {
  it('loads the account type before deciding', async () => {
    const stores = session({ userType: null })
    renderPage(<BigUserBuyGoods />, stores)
    expect(screen.getByText('正在确认账号信息…')).toBeTruthy()
    await waitFor(() => expect(stores.session.loadUserInfo).toHaveBeenCalled())
  })

  it('asks a personal user to complete the company details first', async () => {
    renderPage(<BigUserBuyGoods />, session({ userType: 1 }))
    fireEvent.click(await screen.findByText('去完善企业信息'))
    expect(navigate).toHaveBeenCalledWith('personalData')
  })

  it('makes a payment link a company user can copy or pay', async () => {
    jest.spyOn(Taro, 'setClipboardData').mockResolvedValue({ errMsg: 'ok' } as never)
    jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
    mockCreate.mockResolvedValue({
      ok: true,
      data: order({ payLink: '/pages/pay/pay?link=tok123', remark: '市场部' }),
    })
    renderPage(<BigUserBuyGoods />, session({ userType: 2 }))
    await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥99.00'))
    fireEvent.click(screen.getByText('生成付款链接'))
    await screen.findByText('付款链接已生成')
    expect(mockCreate).toHaveBeenCalledWith(
      expect.objectContaining({
        goodId: 1,
        priceId: 11,
        zoneId: 1,
        quantity: 1,
        expectedAmount: 9900,
      }),
    )
    fireEvent.click(screen.getByText('复制链接'))
    await waitFor(() =>
      expect(Taro.setClipboardData).toHaveBeenCalledWith({
        data: 'http://localhost/pages/pay/pay?link=tok123',
      }),
    )
    fireEvent.click(screen.getByText('去支付'))
    expect(openPath).toHaveBeenCalledWith('/pages/pay/pay?link=tok123')
  })
  it('takes the company’s best coupon off the link order', async () => {
    mockApplicable.mockResolvedValue({ ...noCoupons(9900), coupons: [heldCoupon({})] })
    mockCreate.mockResolvedValue({ ok: true, data: order({ payLink: '/pages/pay/pay?link=t' }) })
    renderPage(<BigUserBuyGoods />, session({ userType: 2 }))
    await waitFor(() => expect(screen.getByLabelText('合计金额').textContent).toBe('¥94.00'))
    expect(mockApplicable).toHaveBeenCalledWith(
      { kind: 'new', goodId: 1, priceId: 11, quantity: 1 },
      { loading: false },
    )
    fireEvent.click(screen.getByText('生成付款链接'))
    await screen.findByText('付款链接已生成')
    expect(mockCreate).toHaveBeenCalledWith(
      expect.objectContaining({ expectedAmount: 9400, couponId: 1 }),
    )
  })
})

describe('企业采购 picker', () => {
  const levels = () => [
    {
      level: 1,
      name: '畅享版',
      themeColor: '#2F5FE8',
      description: '',
      goods: [goods(), goods({ goodId: 2, androidVersion: 'H', androidVersionLabel: '安卓10/H' })],
    },
    {
      level: 3,
      name: '旗舰版',
      themeColor: '#B8860B',
      description: '',
      goods: [
        goods({ goodId: 31, level: 3, levelName: '旗舰版', name: '旗舰版 8核8G', maxPerOrder: 5 }),
        goods({ goodId: 32, level: 3, levelName: '旗舰版', name: '旗舰版 16核16G' }),
      ],
    },
    { level: 4, name: '至尊版', themeColor: '#000', description: '', goods: [] },
  ]

  it('shows the levels as tabs and only the chosen level’s configurations, the first chosen', async () => {
    const first = { goodId: 1, priceId: 11 }
    mockList.mockResolvedValue(levels())
    renderPage(<BigUserBuyGoods />, session({ userType: 2 }))
    const tab = await screen.findByRole('tab', { name: '畅享版' })
    expect(tab.getAttribute('aria-selected')).toBe('true')
    // a level with nothing on sale has no tab
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['畅享版', '旗舰版'])
    const configs = screen.getAllByRole('radio', { name: /^畅享版|^旗舰版/ })
    expect(configs.map((c) => c.getAttribute('aria-label'))).toEqual([
      '畅享版 4核4G 安卓10/B',
      '畅享版 4核4G 安卓10/H',
    ])
    expect(configs[0].getAttribute('aria-checked')).toBe('true')
    // the level's name is the tab's: the chip says what differs
    expect(configs[0].textContent).toContain('4核4G · 安卓10/B')
    await waitFor(() => expect(mockPrice).toHaveBeenLastCalledWith(expect.objectContaining(first)))
  })

  it('another level chooses its first configuration; a chip chooses within the level', async () => {
    mockList.mockResolvedValue(levels())
    renderPage(<BigUserBuyGoods />, session({ userType: 2 }))
    fireEvent.click(await screen.findByRole('tab', { name: '旗舰版' }))
    expect(screen.getByRole('tab', { name: '旗舰版' }).getAttribute('aria-selected')).toBe('true')
    expect(
      screen.getByRole('radio', { name: '旗舰版 8核8G 安卓10/B' }).getAttribute('aria-checked'),
    ).toBe('true')
    expect(screen.queryByRole('radio', { name: /^畅享版/ })).toBeNull()
    await waitFor(() =>
      expect(mockPrice).toHaveBeenLastCalledWith(expect.objectContaining({ goodId: 31 })),
    )
    fireEvent.click(screen.getByRole('radio', { name: '旗舰版 16核16G 安卓10/B' }))
    await waitFor(() =>
      expect(mockPrice).toHaveBeenLastCalledWith(expect.objectContaining({ goodId: 32 })),
    )
  })
})
