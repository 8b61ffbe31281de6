import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import BuyGoods from '@/pages/create/buyGoods'
import { getGoodPrice, getGoodsDetail } from '@/api/goods'
import { goLogin, navigate } from '@/runtime/navigation'
import { createCloudOrder, purchaseActivationCode } from '@/api/order'
import { renderPage, setRouteParams } from '../page-harness'
import { getApplicableCoupons } from '@/api/coupon'
import { goods, heldCoupon, noCoupons, order, quote, session } from './fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/goods', () => ({ getGoodsDetail: jest.fn(), getGoodPrice: jest.fn() }))
jest.mock('@/api/order', () => ({
  createCloudOrder: jest.fn(),
  purchaseActivationCode: jest.fn(),
}))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn(), goLogin: jest.fn() }))
jest.mock('@/api/coupon', () => ({ getApplicableCoupons: jest.fn() }))

const mockPurchaseActivationCode = purchaseActivationCode as jest.Mock

jest.setTimeout(15_000)

const detail = getGoodsDetail as jest.Mock
const priceOf = getGoodPrice as jest.Mock
const create = createCloudOrder as jest.Mock
const total = () => screen.getByLabelText('合计金额').textContent
const applicable = getApplicableCoupons as jest.Mock

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ goodId: '1', priceId: '11', zoneId: '1' })
  detail.mockResolvedValue(goods())
  priceOf.mockImplementation(async (body: { quantity: number }) =>
    quote({ total: 9900 * body.quantity }),
  )
  applicable.mockImplementation(async (body: { quantity: number }) =>
    noCoupons(9900 * body.quantity),
  )
})

const submitButton = () => screen.getByText(/提交订单|登录后购买/)
const ready = async () => waitFor(() => expect(total()).toBe('¥99.00'))

describe('购买云机', () => {
  it('quotes the choice on the server without the loading overlay and refreshes it on change', async () => {
    renderPage(<BuyGoods />, session())
    await ready()
    expect(priceOf).toHaveBeenLastCalledWith({ kind: 'new', goodId: 1, priceId: 11, quantity: 1 })
    fireEvent.click(screen.getByRole('radio', { name: '7天' }))
    await waitFor(() =>
      expect(priceOf).toHaveBeenLastCalledWith({
        kind: 'new',
        goodId: 1,
        priceId: 10,
        quantity: 1,
      }),
    )
    fireEvent.click(document.querySelector('.nut-inputnumber-add') as Element)
    await waitFor(() => expect(total()).toBe('¥198.00'))
  })

  it('shows why a quantity cannot be ordered and does not quote it', async () => {
    renderPage(<BuyGoods />, session())
    await ready()
    const input = document.querySelector('.nut-inputnumber input') as HTMLInputElement
    fireEvent.input(input, { target: { value: '25' } })
    expect(await screen.findByText('单次最多购买20台')).toBeTruthy()
    fireEvent.input(input, { target: { value: '2' } })
    await waitFor(() => expect(screen.queryByText('单次最多购买20台')).toBeNull())
    const minus = document.querySelector('.nut-inputnumber-minus') as Element
    fireEvent.click(minus)
    await waitFor(() => expect(input.value).toBe('1'))
    fireEvent.click(minus)
    expect(await screen.findByText('购买数量至少为1')).toBeTruthy()
    expect(priceOf).not.toHaveBeenCalledWith(expect.objectContaining({ quantity: 25 }))
  })

  it('cannot choose a sold-out zone', async () => {
    renderPage(<BuyGoods />, session())
    await ready()
    const soldOut = screen.getByRole('radio', { name: '华北-北京 售罄' })
    expect(soldOut.getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(soldOut)
    expect(soldOut.getAttribute('aria-checked')).toBe('false')
    expect(screen.getByRole('radio', { name: '华东-上海 充足' }).getAttribute('aria-checked')).toBe(
      'true',
    )
  })

  it('preselects the best coupon, shows why others do not apply, and orders with it', async () => {
    applicable.mockResolvedValue({
      ...noCoupons(9900),
      coupons: [
        heldCoupon({}),
        heldCoupon({
          id: 2,
          name: '大额满减券',
          couponType: 1,
          parValue: 2000,
          conditionsUse: 20000,
          usable: false,
          reason: '距离可用门槛还差101.00元',
          discount: 0,
        }),
        heldCoupon({ id: 3, name: '八折券', couponType: 3, parValue: 80, discount: 1980 }),
      ],
    })
    create.mockResolvedValue({ ok: true, data: order() })
    renderPage(<BuyGoods />, session())
    await waitFor(() => expect(total()).toBe('¥79.20'))
    expect(applicable).toHaveBeenCalledWith(
      { kind: 'new', goodId: 1, priceId: 11, quantity: 1 },
      { loading: false },
    )
    expect(screen.getByText('已选：八折券')).toBeTruthy()
    fireEvent.click(screen.getByText(/-¥19.80/))
    expect(screen.getByText('距离可用门槛还差101.00元')).toBeTruthy()
    fireEvent.click(screen.getByText('新人无门槛券'))
    await waitFor(() => expect(total()).toBe('¥94.00'))
    fireEvent.click(submitButton())
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1))
    expect(create.mock.calls[0][0]).toMatchObject({ expectedAmount: 9400, couponId: 1 })
  })

  it('不使用优惠券 orders at the full price without a coupon', async () => {
    applicable.mockResolvedValue({ ...noCoupons(9900), coupons: [heldCoupon({})] })
    create.mockResolvedValue({ ok: true, data: order() })
    renderPage(<BuyGoods />, session())
    await waitFor(() => expect(total()).toBe('¥94.00'))
    fireEvent.click(screen.getByText(/-¥5.00/))
    fireEvent.click(screen.getByText('不使用优惠券'))
    await waitFor(() => expect(total()).toBe('¥99.00'))
    fireEvent.click(submitButton())
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1))
    expect(create.mock.calls[0][0]).toMatchObject({ expectedAmount: 9900, couponId: undefined })
  })

  it('sends a logged-out visitor to login with the choice kept, and orders nothing', async () => {
    renderPage(<BuyGoods />, session({ isLoggedIn: false }))
    await ready()
    fireEvent.click(submitButton())
    expect(goLogin).toHaveBeenCalledWith('/pages/create/buyGoods?goodId=1&priceId=11&zoneId=1')
    expect(create).not.toHaveBeenCalled()
  })

  it('makes one order on a double tap, with the quoted amount, then opens payment', async () => {
    let answer: (value: unknown) => void = () => undefined
    create.mockReturnValue(new Promise((resolve) => (answer = resolve)))
    renderPage(<BuyGoods />, session())
    await ready()
    fireEvent.click(submitButton())
    fireEvent.click(submitButton())
    await act(async () => answer({ ok: true, data: order() }))
    expect(create).toHaveBeenCalledTimes(1)
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({
        goodId: 1,
        priceId: 11,
        zoneId: 1,
        quantity: 1,
        expectedAmount: 9900,
      }),
    )
    expect(navigate).toHaveBeenCalledWith('pay', { orderNo: 'CP20261122000001' })
  })

  it('retries with the same idempotency key after a lost answer', async () => {
    create.mockRejectedValueOnce({ code: -1, msg: '网络异常，请检查网络后重试' })
    create.mockResolvedValueOnce({ ok: true, data: order() })
    renderPage(<BuyGoods />, session())
    await ready()
    fireEvent.click(submitButton())
    expect(await screen.findByText('网络异常，请检查网络后重试')).toBeTruthy()
    fireEvent.click(submitButton())
    await waitFor(() => expect(create).toHaveBeenCalledTimes(2))
    const [first, second] = create.mock.calls.map(([body]) => body.idempotencyKey)
    expect(first).toMatch(/^[A-Za-z0-9_-]{8,}$/)
    expect(second).toBe(first)
  })

  it('shows the out-of-stock answer and reloads the zones', async () => {
    create.mockResolvedValue({
      ok: false,
      code: 1017,
      msg: '所选地区库存不足，请更换地区或减少购买数量',
    })
    renderPage(<BuyGoods />, session())
    await ready()
    fireEvent.click(submitButton())
    expect(await screen.findByText('所选地区库存不足，请更换地区或减少购买数量')).toBeTruthy()
    await waitFor(() => expect(detail).toHaveBeenCalledTimes(2))
    expect(navigate).not.toHaveBeenCalled()
  })

  it('buys activation codes without a zone when purpose=activationCode', async () => {
    setRouteParams({ goodId: '1', purpose: 'activationCode' })
    mockPurchaseActivationCode.mockResolvedValue({
      ok: true,
      data: order({ kind: 'activationCode' }),
    })
    renderPage(<BuyGoods />, session())
    await ready()
    expect(screen.queryByText('选择地区')).toBeNull()
    expect(priceOf).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'activationCode' }))
    fireEvent.click(submitButton())
    await waitFor(() => expect(purchaseActivationCode).toHaveBeenCalled())
    expect(mockPurchaseActivationCode.mock.calls[0][0]).not.toHaveProperty('zoneId')
    expect(create).not.toHaveBeenCalled()
  })
})
