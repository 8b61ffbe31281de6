import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import BuySpace from '@/pages/Space/BuySpace'
import { ApiError } from '@/services/api-error'
import * as spaceService from '@/services/space'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/services/space', () => ({ getSpacePackages: jest.fn(), createSpaceOrder: jest.fn() }))

const api = spaceService as jest.Mocked<typeof spaceService>
const GB = 1024 ** 3

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getSpacePackages.mockResolvedValue({
    packages: [
      { id: 1, bytes: 10 * GB, days: 30, price: 990 },
      { id: 3, bytes: 100 * GB, days: 90, price: 9900 },
    ],
  })
})

describe('购买空间', () => {
  it('shows each package’s size, days and price, the first one chosen', async () => {
    renderPage(<BuySpace />, {})
    expect(await screen.findByText('10 GB')).toBeTruthy()
    expect(screen.getByText('90天')).toBeTruthy()
    expect(screen.getByText('¥99.00')).toBeTruthy()
    expect(screen.getAllByText('¥9.90')).toHaveLength(2) // the package and the total
  })

  it('orders the chosen package at its price and opens the pay page', async () => {
    api.createSpaceOrder.mockResolvedValue({ orderNo: 'CP9' } as never)
    renderPage(<BuySpace />, {})
    fireEvent.click(await screen.findByText('100 GB'))
    fireEvent.click(screen.getByText('立即购买'))
    await waitFor(() => expect(api.createSpaceOrder).toHaveBeenCalled())
    expect(api.createSpaceOrder.mock.calls[0][0]).toMatchObject({
      packageId: 3,
      expectedAmount: 9900,
    })
    await waitFor(() =>
      expect((Taro.navigateTo as jest.Mock).mock.calls[0][0].url).toMatch(
        /pages\/pay\/pay\?orderNo=CP9/,
      ),
    )
  })

  it('shows the server’s refusal and stays on the page', async () => {
    api.createSpaceOrder.mockRejectedValue(new ApiError(1023, '订单价格已变化，请刷新后重新下单'))
    renderPage(<BuySpace />, {})
    fireEvent.click(await screen.findByText('立即购买'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '订单价格已变化，请刷新后重新下单' }),
      ),
    )
    expect(Taro.navigateTo).not.toHaveBeenCalled()
  })
})
