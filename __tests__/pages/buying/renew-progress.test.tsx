/**
 * A studio's renewal on the pay page: 续费中 n/N from the server's OrderInfo.progress, polled
 * every 2 s until every phone is renewed, then 续费成功.
 */
// first: it mocks what the page talks to
import { info, ORDER_NO } from '../../setup/pay-page'
import { act, screen } from '@testing-library/react'
import Pay from '@/pages/pay/pay'
import { MAX_RENEW_BATCH } from '@/domain/batch-results'
import { renderPage, setRouteParams } from '../page-harness'
import { order, session } from './fixtures'

const STUDIO = MAX_RENEW_BATCH
const T0 = Date.parse('2026-12-01T00:00:00+08:00')
const renewing = (done: number, status = 2) =>
  order({ kind: 'renew', status, quantity: STUDIO, progress: { done, total: STUDIO } })

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ orderNo: ORDER_NO })
})
afterEach(() => jest.useRealTimers())

describe('续费进度', () => {
  it('shows 续费中 n/N while the phones are renewed, polls on, then 续费成功 and stops', async () => {
    jest.useFakeTimers()
    info
      .mockResolvedValueOnce(renewing(0, 1))
      .mockResolvedValueOnce(renewing(0))
      .mockResolvedValueOnce(renewing(4200))
      .mockResolvedValue(renewing(STUDIO))
    renderPage(<Pay />, session())
    await act(async () => undefined)
    expect(screen.getByText(`续费中 0/${STUDIO}`)).toBeTruthy()
    await act(async () => void jest.advanceTimersByTime(2000))
    // completed, but no phone synced yet: still in progress, still polled
    expect(screen.getByText(`续费中 0/${STUDIO}`)).toBeTruthy()
    await act(async () => void jest.advanceTimersByTime(2000))
    expect(screen.getByText(`续费中 4200/${STUDIO}`)).toBeTruthy()
    const bar = screen.getByRole('progressbar', { name: '续费进度' })
    expect(bar.getAttribute('aria-valuenow')).toBe('4200')
    expect(bar.getAttribute('aria-valuemax')).toBe(String(STUDIO))
    await act(async () => void jest.advanceTimersByTime(2000))
    expect(screen.getByText('续费成功，新的到期时间已生效')).toBeTruthy()
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(screen.getByText('查看续费的云机')).toBeTruthy()
    const calls = info.mock.calls.length
    await act(async () => void jest.advanceTimersByTime(10_000))
    expect(info).toHaveBeenCalledTimes(calls)
  })

  it('a refunded renewal shows no progress and stops', async () => {
    info.mockResolvedValue(order({ kind: 'renew', status: 5, quantity: STUDIO }))
    renderPage(<Pay />, session())
    expect(await screen.findByText('订单已关闭，已支付的款项将原路退回')).toBeTruthy()
    expect(screen.queryByRole('progressbar')).toBeNull()
  })

  it('lists a studio renewal’s first phones and how many in all', async () => {
    const renewals = Array.from({ length: 100 }, (_, i) => ({
      deviceId: i + 1,
      newExpireAt: T0,
      amount: 19800,
      extraMs: 0,
    }))
    info.mockResolvedValue({ ...renewing(STUDIO), renewals })
    renderPage(<Pay />, session())
    expect(await screen.findByText(`共${STUDIO}台`)).toBeTruthy()
    expect(screen.getAllByText(/^云手机 \d+$/)).toHaveLength(20)
  })
})
