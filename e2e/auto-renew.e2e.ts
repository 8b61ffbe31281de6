/**
 * 自动续费 from H5: a studio's phone on the renewal page → 自动续费 switched on (one month, cloud beans)
 * → the phone card shows 自动续费 → the server's own auto-renew job (every 60 s) renews it, paid from the
 * beans, and the card's expiry moves a month on. The phones are due at once: the server runs with
 * AUTO_RENEW_DAYS_BEFORE past their expiries. Screens at 390×844 and 320×568.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E, sleep } from './harness'
import { ok } from './journeys'

const e2e = setupE2E({
  env: {
    RATE_LIMIT_PER_MINUTE: '0',
    SANDBOX_SUPPLIER_DELAY_MS: '0',
    // the studio's phones expire within 30 days: every one is due
    AUTO_RENEW_DAYS_BEFORE: '40',
  },
})

const DAY = 86_400_000
interface Phone {
  deviceId: number
  name: string
  expireAt: number
  autoRenew: { days: number; payMethod: number; failure: string | null } | null
}

test('自动续费 switched on for a phone on 续费 is shown on its card and renews it by itself', async () => {
  const session = await apiLogin('13912390451')
  const written = await e2e.operator([
    'e2e/fixtures/auto-renew-studio.ts',
    String(session.userId),
    '2',
    '100000',
  ])
  assert.match(written, /studio 2 phones, 100000 beans/)
  const list = async () =>
    ok('device list', await api<{ records: Phone[] }>('/device/list?rows=20', { session })).records
  const [phone, other] = await list()

  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session, { homeViewType: 0 })
  await e2e.open(page, `/pages/Renew/index?deviceIds=${phone.deviceId}`)
  await page.getByText('到期前按所选时长自动续费，从云豆扣款').waitFor()
  await screenshot(page, 'auto-renew-off-390')
  await page.getByRole('switch', { name: '自动续费' }).click()
  await page.getByText('每次续费1个月，从云豆扣款').waitFor()
  await screenshot(page, 'auto-renew-on-390')
  await page.setViewportSize({ width: 320, height: 568 })
  await screenshot(page, 'auto-renew-on-320')
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(width <= 320, `the renewal page fits 320 px (${width})`)

  // the card says so; the other phone's does not
  await page.setViewportSize({ width: 390, height: 844 })
  await e2e.open(page, '/pages/Home/index')
  const card = page.getByText('自动续费', { exact: true })
  await card.first().waitFor()
  assert.equal(await card.count(), 1, 'only the phone switched on')
  await screenshot(page, 'auto-renew-card-390')
  await page.setViewportSize({ width: 320, height: 568 })
  await card.first().scrollIntoViewIfNeeded()
  await screenshot(page, 'auto-renew-card-320')
  const badge = await card.first().boundingBox()
  assert.ok(
    badge && badge.x + badge.width <= 320,
    `the card's 自动续费 fits 320 px (${JSON.stringify(badge)})`,
  )

  // the job (every 60 s) renews it: a month on, paid from the beans; the other phone is untouched
  let renewed: Phone | undefined
  for (let waited = 0; waited < 150_000 && !renewed; waited += 3_000) {
    renewed = (await list()).find(
      (p) => p.deviceId === phone.deviceId && p.expireAt === phone.expireAt + 30 * DAY,
    )
    if (!renewed) await sleep(3_000)
  }
  assert.ok(renewed, 'the job renewed the phone within its period')
  assert.equal(renewed.autoRenew?.failure, null)
  const again = (await list()).find((p) => p.deviceId === other.deviceId)
  assert.equal(again?.expireAt, other.expireAt, 'the phone without 自动续费 is not renewed')
  const orders = ok(
    'orders',
    await api<{
      records: { kind: string; status: number; amount: number; remark: string | null }[]
    }>('/order/list?rows=20', { session }),
  ).records
  assert.equal(orders.length, 1)
  assert.equal(orders[0].kind, 'renew')
  assert.equal(orders[0].status, 2)
  const beans = ok('beans', await api<{ balance: number }>('/pay/beanBalance', { session }))
  assert.equal(beans.balance, 100000 - orders[0].amount)
  assert.deepEqual(errors, [])
})
