/**
 * A studio renews its whole fleet: the renewal page takes the fleet's 全选 of 10,000 phones
 * (FleetStore, `selection=1`) without asking for each phone, and orders them in one renewal.
 * The pay page's progress: renew-progress.test.tsx.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react'
import type { Device } from '@/types/api'
import Renew, { LISTED_PHONES } from '@/pages/Renew/index'
import { MAX_RENEW_BATCH } from '@/domain/batch-results'
import { getDevice } from '@/api/device'
import { getGoodPrice, getGoodsDetail } from '@/api/goods'
import { createRenewOrder } from '@/api/order'
import { renderPage, setRouteParams } from '../page-harness'
import { goods, order, quote, session } from './fixtures'

jest.mock('@/api/coupon', () => ({
  getApplicableCoupons: jest.fn(async () => {
    throw new Error('no coupons')
  }),
}))
jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({ getDevice: jest.fn() }))
jest.mock('@/api/order', () => ({ createRenewOrder: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn() }))
jest.mock('@/api/goods', () => ({ getGoodsDetail: jest.fn(), getGoodPrice: jest.fn() }))

const mockGetGoodPrice = getGoodPrice as jest.Mock
const DAY = 86_400_000
const T0 = Date.parse('2026-12-01T00:00:00+08:00')
const STUDIO = MAX_RENEW_BATCH
const phones = Array.from(
  { length: STUDIO },
  (_, i) =>
    ({
      deviceId: i + 1,
      name: `云手机-${i + 1}`,
      goodId: 1,
      status: 1,
      statusName: '运行中',
      expireAt: T0 + (i % 30) * DAY,
    }) as Device,
)
const studio = (selected = phones.map((d) => d.deviceId)) => ({
  ...session(),
  fleet: { devices: phones, selectedIds: selected },
})

beforeEach(() => {
  jest.clearAllMocks()
  ;(getGoodsDetail as jest.Mock).mockResolvedValue(goods())
  mockGetGoodPrice.mockResolvedValue(quote({ total: 19800 * STUDIO, renewals: [] }))
})

describe('工作室批量续费', () => {
  it('renews the fleet’s 全选 of 10,000 phones in one order, without asking for each phone', async () => {
    setRouteParams({ selection: '1' })
    ;(createRenewOrder as jest.Mock).mockResolvedValue({ ok: true, data: order({ kind: 'renew' }) })
    renderPage(<Renew />, studio())
    const phones = await screen.findByText(`续费云手机（${STUDIO}台）`)
    // the duration comes first; the phones wait behind N台 展开
    const duration = screen.getByText('续费时长')
    expect(duration.compareDocumentPosition(phones) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(screen.queryAllByText(/^到期：/)).toHaveLength(0)
    fireEvent.click(screen.getByRole('button', { name: `${STUDIO}台 展开` }))
    expect(screen.getByText(`等共${STUDIO}台云手机`)).toBeTruthy()
    expect(screen.getAllByText(/^到期：/)).toHaveLength(LISTED_PHONES)
    fireEvent.click(screen.getByRole('button', { name: '收起' }))
    expect(screen.queryAllByText(/^到期：/)).toHaveLength(0)
    expect(getDevice).not.toHaveBeenCalled()
    await waitFor(() => expect(mockGetGoodPrice).toHaveBeenCalled())
    expect(mockGetGoodPrice.mock.calls.at(-1)[0].deviceIds).toHaveLength(STUDIO)
    fireEvent.click(await screen.findByText('确认续费'))
    await waitFor(() => expect(createRenewOrder).toHaveBeenCalledTimes(1))
    const body = (createRenewOrder as jest.Mock).mock.calls[0][0]
    expect(body.deviceIds).toHaveLength(STUDIO)
    expect(body.expectedAmount).toBe(19800 * STUDIO)
  })

  it('refuses a selection over the bound before asking the server', async () => {
    setRouteParams({ selection: '1' })
    const over = [...phones.map((d) => d.deviceId), STUDIO + 1]
    ;(getDevice as jest.Mock).mockResolvedValue({ ...phones[0], deviceId: STUDIO + 1 })
    renderPage(<Renew />, studio(over))
    expect(await screen.findByText(`一次最多操作${MAX_RENEW_BATCH}台`)).toBeTruthy()
    expect(mockGetGoodPrice).not.toHaveBeenCalled()
    expect(getDevice).not.toHaveBeenCalled()
  })
})
