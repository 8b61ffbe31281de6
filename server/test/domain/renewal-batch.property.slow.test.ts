/**
 * A studio's renewal priced at once: for any batch up to MAX_RENEW_BATCH phones, what the
 * order charges is exactly the sum of what each phone gets — its period at the period price, plus (when
 * aligned) its extra time pro rata — and every phone gets the time it is charged for.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { MAX_RENEW_BATCH } from '#domain/batch-results'
import { DAY_MS, proRata, renewalQuote, type PriceRow } from '#domain/pricing'

const NOW = Date.parse('2026-12-01T00:00:00Z')

const price = (goodTime: number, goodPrice: number): PriceRow => ({
  priceId: 1,
  goodId: 1,
  goodTime,
  goodPrice,
  oldGoodPrice: null,
  firstPurchasePrice: null,
  firstCount: 0,
  activityId: null,
  activityPrice: null,
  activityEndsAt: null,
})

test('a large renewal charges exactly the sum of what each phone gets', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: MAX_RENEW_BATCH }),
      fc.constantFrom(1, 7, 30, 90, 180, 365),
      fc.integer({ min: 1, max: 200_000 }),
      fc.boolean(),
      fc.integer({ min: 0, max: 2 ** 31 }),
      (count, goodTime, goodPrice, alignToLatest, seed) => {
        // expiries from 10 days ago to 60 days ahead, drawn from the seed (fast at 10,000 phones)
        let state = seed
        const devices = Array.from({ length: count }, (_, i) => {
          state = (state * 1_103_515_245 + 12_345) % 2 ** 31
          return { deviceId: i + 1, expireAt: NOW + ((state % (70 * 24)) - 10 * 24) * 3_600_000 }
        })
        const row = price(goodTime, goodPrice)
        const quote = renewalQuote(devices, row, { alignToLatest, now: NOW })
        assert.equal(quote.lines.length, count)
        let sum = 0
        let latest = 0
        for (const [i, line] of quote.lines.entries()) {
          const from = Math.max(devices[i].expireAt, NOW)
          assert.equal(line.deviceId, devices[i].deviceId)
          assert.equal(line.newExpireAt, from + goodTime * DAY_MS + line.extraMs)
          assert.equal(line.amount, goodPrice + proRata(row, line.extraMs))
          if (!alignToLatest) assert.equal(line.extraMs, 0)
          sum += line.amount
          latest = Math.max(latest, line.newExpireAt)
        }
        assert.equal(quote.total, sum)
        if (alignToLatest) for (const line of quote.lines) assert.equal(line.newExpireAt, latest)
        assert.ok(Number.isSafeInteger(quote.total))
      },
    ),
    { numRuns: 60 },
  )
})
