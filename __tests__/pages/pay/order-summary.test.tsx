/**
 * A renewal's phones on the pay page: each by the name its owner gave it (OrderInfo.renewals[].deviceName),
 * by its number where the server sends no name (a link holder who pays, a phone since transferred), and a
 * studio's renewal of more phones than are listed says how many in all.
 */
import { screen } from '@testing-library/react'
import OrderSummary from '@/pages/pay/parts/OrderSummary'
import { renderPage } from '../page-harness'
import { order } from '../buying/fixtures'

const line = (deviceId: number, deviceName: string | null) => ({
  deviceId,
  deviceName,
  newExpireAt: new Date(2026, 11, 31).getTime(),
  amount: 9900,
  extraMs: 0,
})

describe('a renewal on the pay page', () => {
  it('names each phone as its owner named it, else by its number', () => {
    const renewals = [line(21, '云手机-0001'), line(22, '直播间 2 号'), line(23, null)]
    renderPage(<OrderSummary order={order({ kind: 'renew', quantity: 3, renewals })} />, {})
    expect(screen.getByText('云手机-0001')).toBeTruthy()
    expect(screen.getByText('直播间 2 号')).toBeTruthy()
    expect(screen.getByText('云手机 23')).toBeTruthy()
    expect(screen.queryByText('云手机 21')).toBeNull()
    expect(screen.getAllByText('续至 2026-12-31')).toHaveLength(3)
    expect(screen.queryByText('续费云手机')).toBeNull()
  })

  it('a studio renewal lists its first 20 phones and says how many in all', () => {
    const renewals = Array.from({ length: 100 }, (_, i) => line(i + 1, `云手机-${i + 1}`))
    renderPage(<OrderSummary order={order({ kind: 'renew', quantity: 10000, renewals })} />, {})
    expect(screen.getByText('云手机-20')).toBeTruthy()
    expect(screen.queryByText('云手机-21')).toBeNull()
    expect(screen.getByText('共10000台')).toBeTruthy()
  })
})
