import { goodsBadges, priceFrom } from '@/pages/Home/parts/catalogue/price-from'
import { idParam, pickPriceId, pickZoneId } from '@/domain/goods-selection'
import { newIdempotencyKey } from '@/hooks/use-idempotency-key'
import { orderStage, payMethodsFor } from '@/pages/pay/parts/pay-flow'
import { commonGoodId } from '@/pages/Renew/parts/renew-plan'
import { loadAll } from '@/runtime/load-all'
import { price, zone } from './fixtures'

const NOW = Date.parse('2026-11-22T08:00:00Z')

describe('goods card price', () => {
  it('shows the 30-day price, the activity price while it runs, and the higher old price struck', () => {
    const rows = [
      price({ priceId: 1, goodTime: 1, goodPrice: 500 }),
      price({ priceId: 2, goodTime: 30, goodPrice: 9900, oldGoodPrice: 12900 }),
    ]
    expect(priceFrom(rows, NOW)).toMatchObject({ current: 9900, old: 12900 })
    const running = price({ activityId: 1, activityPrice: 7900, activityEndsAt: NOW + 1 })
    expect(priceFrom([running], NOW)).toMatchObject({ current: 7900, old: 12900 })
    const ended = price({ activityId: 1, activityPrice: 7900, activityEndsAt: NOW })
    expect(priceFrom([ended], NOW)).toMatchObject({ current: 9900 })
  })

  it('falls back to the cheapest per day without a 30-day price, and has no old price when not higher', () => {
    const rows = [
      price({ priceId: 1, goodTime: 7, goodPrice: 2900, oldGoodPrice: null }),
      price({ priceId: 2, goodTime: 365, goodPrice: 99900, oldGoodPrice: 99900 }),
    ]
    expect(priceFrom(rows, NOW)).toMatchObject({ price: { priceId: 2 }, old: null })
    expect(priceFrom([], NOW)).toBeNull()
  })

  it('badges first-purchase prices (with a count) and running activities', () => {
    expect(goodsBadges([price({ firstPurchasePrice: 100, firstCount: 0 })])).toEqual([])
    expect(
      goodsBadges([
        price({ firstPurchasePrice: 100, firstCount: 1 }),
        price({ activityRunning: true }),
      ]),
    ).toEqual(['首购优惠', '限时活动'])
  })
})

describe('initial choices', () => {
  const prices = [price({ priceId: 1, goodTime: 7 }), price({ priceId: 2, goodTime: 30 })]
  const zones = [
    zone({ zoneId: 1, inventoryStatus: 4 }),
    zone({ zoneId: 2, inventoryStatus: 3 }),
    zone({ zoneId: 3, inventoryStatus: 1 }),
  ]

  it('keeps a valid wanted duration, else 30 days', () => {
    expect(pickPriceId(prices, 1)).toBe(1)
    expect(pickPriceId(prices, 99)).toBe(2)
    expect(pickPriceId([], 1)).toBeUndefined()
  })

  it('never picks a sold-out zone', () => {
    expect(pickZoneId(zones, 1)).toBe(2)
    expect(pickZoneId(zones, 3)).toBe(3)
    expect(pickZoneId([zones[0]])).toBeUndefined()
  })

  it('reads only positive integer ids from the route', () => {
    expect(idParam('12')).toBe(12)
    expect(idParam('1.5')).toBeUndefined()
    expect(idParam('-3')).toBeUndefined()
    expect(idParam(undefined)).toBeUndefined()
  })

  it('makes idempotency keys the server accepts', () => {
    expect(newIdempotencyKey(NOW, () => 0.5)).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(newIdempotencyKey(NOW, () => 0.1)).not.toBe(newIdempotencyKey(NOW, () => 0.2))
  })
})

describe('pay page rules', () => {
  it('offers methods per runtime', () => {
    expect(payMethodsFor('h5').map((m) => m.label)).toEqual(['支付宝', '微信支付', '云豆'])
    expect(payMethodsFor('applet').map((m) => m.value)).toEqual([2, 3])
  })

  it('tells each order state', () => {
    expect(orderStage({ status: 0, kind: 'new' }).title).toBe('待支付')
    expect(orderStage({ status: 1, kind: 'new' }).text).toBe('支付成功，云手机创建中…')
    expect(orderStage({ status: 2, kind: 'renew' }).text).toBe('续费成功，新的到期时间已生效')
    expect(orderStage({ status: 3, kind: 'new' }).title).toBe('订单已取消')
    expect(orderStage({ status: 4, kind: 'new' }).title).toBe('订单已超时')
    expect(orderStage({ status: 5, kind: 'new' }).tone).toBe('closed')
  })
})

describe('renew plan', () => {
  it('needs one goods for all phones', () => {
    expect(commonGoodId([{ goodId: 4 }, { goodId: 4 }])).toBe(4)
    expect(commonGoodId([{ goodId: 4 }, { goodId: 5 }])).toBeNull()
  })

  it('loads a few at a time, in order', async () => {
    let inFlight = 0
    let peak = 0
    const result = await loadAll(
      [1, 2, 3, 4, 5],
      async (id) => {
        peak = Math.max(peak, ++inFlight)
        await new Promise((r) => setTimeout(r, 1))
        inFlight -= 1
        return id * 10
      },
      2,
    )
    expect(result).toEqual([10, 20, 30, 40, 50])
    expect(peak).toBe(2)
  })
})
