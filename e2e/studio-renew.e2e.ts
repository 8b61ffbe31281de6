/**
 * A studio renews its whole fleet from H5 ("The 10,000-phone studio in H5"), with a batch big
 * enough that the pay page follows the renewal phone by phone: 我的云机 in the multi view → 多选 → 全选 →
 * 续费 → the renewal page's quote for every phone → 确认续费 (one order) → 立即支付 at the sandbox
 * checkout → 支付成功, 续费中 n/N while the supplier sync runs → 续费成功; then every phone's new expiry,
 * read through the API. The phones are written directly into the server's database
 * (e2e/fixtures/studio-phones.ts through e2e.operator); bench/studio-renew-h5.mjs times the same journey
 * at 10,000 phones on PostgreSQL.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E, type Session } from './harness'
import { button, ok } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '0' } })

/** Enough phones that their supplier sync takes several of the pay page's polls. */
const STUDIO = 300
const DAY = 86_400_000

interface Phone {
  deviceId: number
  expireAt: number
}
interface Order {
  orderNo: string
  kind: string
  status: number
  amount: number
  originalAmount: number
  quantity: number
  goodTime: number | null
  deviceIds: number[]
  renewals: { deviceId: number; newExpireAt: number }[]
  progress?: { done: number; total: number }
}

async function fleet(session: Session): Promise<Map<number, number>> {
  const phones = new Map<number, number>()
  for (let page = 1; ; page += 1) {
    const list = ok(
      'device list',
      await api<{ records: Phone[]; totalPage: number }>(`/device/list?rows=100&page=${page}`, {
        session,
      }),
    )
    for (const phone of list.records) phones.set(phone.deviceId, phone.expireAt)
    if (page >= list.totalPage) return phones
  }
}

test(`a studio of ${STUDIO} phones renews them all from 全选, following 续费中 n/N to 续费成功`, async () => {
  const session = await apiLogin('13912390301')
  const written = await e2e.operator([
    'e2e/fixtures/studio-phones.ts',
    String(session.userId),
    String(STUDIO),
  ])
  assert.match(written, new RegExp(`studio ${STUDIO} phones`))
  const before = await fleet(session)
  assert.equal(before.size, STUDIO)

  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session, { homeViewType: 1 })
  // every 续费中 n/N the pay page shows, however briefly (the page polls every 2 s)
  await context.addInitScript(() => {
    const seen: string[] = []
    Object.assign(window, { __progress: seen })
    new MutationObserver(() => {
      if (!location.pathname.includes('/pages/pay/pay')) return
      const shown = /续费中 \d+\/\d+/.exec(document.body?.innerText ?? '')?.[0]
      if (shown && seen.at(-1) !== shown) seen.push(shown)
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })

  await e2e.open(page, '/pages/Home/index')
  await page.locator('[aria-label$="的画面"]').first().waitFor()
  await page.getByText('多选', { exact: true }).click()
  await page.getByRole('checkbox', { name: '全选' }).click()
  await page.getByText(`已选${STUDIO}台`, { exact: true }).waitFor()

  // the renewal page: every phone counted, the quote for all of them
  const quoteAnswer = page.waitForResponse((r) => r.url().includes('/CommodityGroup/getGoodPrice'))
  await button(page, '续费').click()
  await page.waitForURL(/pages\/Renew\/index\?selection=1/)
  await page.getByText(`续费云手机（${STUDIO}台）`).waitFor()
  // the duration first, the phones behind N台 展开
  await page.getByText('续费时长').waitFor()
  await screenshot(page, 'studio-renew-collapsed')
  await page.getByRole('button', { name: `${STUDIO}台 展开` }).click()
  await page.getByText(`等共${STUDIO}台云手机`).waitFor()
  const quote = ((await (await quoteAnswer).json()) as { data: { total: number } }).data
  const shownTotal = page.getByLabel('合计金额').filter({ hasText: '¥' })
  await shownTotal.waitFor()
  await page
    .getByText(/续费后：/)
    .first()
    .waitFor()
  await screenshot(page, 'studio-renew-quote')

  // one order for the whole studio
  await button(page, '确认续费').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!
  const placed = ok(
    'order',
    await api<Order>(`/order/getOrderInfo?orderNo=${orderNo}`, { session }),
  )
  assert.equal(placed.kind, 'renew')
  assert.equal(placed.quantity, STUDIO)
  assert.equal(placed.deviceIds.length, STUDIO)
  assert.deepEqual(new Set(placed.deviceIds), new Set(before.keys()))
  // the quote, less the new user's coupon the page picked for it, is what the order costs
  assert.equal(placed.originalAmount, quote.total, 'the order is the quote')
  assert.equal(
    (await shownTotal.textContent())?.trim(),
    `¥${(placed.amount / 100).toFixed(2)}`,
    'the page showed what the order costs',
  )
  const orders = ok('orders', await api<{ records: Order[] }>('/order/list?rows=100', { session }))
  assert.deepEqual(
    orders.records.map((o) => o.orderNo),
    [orderNo],
    'one order',
  )

  // paid at the sandbox checkout (支付宝, the pay page's first method in a browser)
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
  await page.getByText('支付成功', { exact: true }).first().waitFor({ timeout: 20_000 })
  await page.getByText('续费成功，新的到期时间已生效').waitFor({ timeout: 45_000 })
  await screenshot(page, 'studio-renew-done')
  const progress = await page.evaluate(
    () => (window as unknown as { __progress: string[] }).__progress,
  )
  console.log(`studio-renew: the pay page showed ${progress.join(', ')}`)
  assert.ok(
    progress.some((text) => new RegExp(`^续费中 \\d+/${STUDIO}$`).test(text)),
    `续费中 n/${STUDIO} was shown (saw ${JSON.stringify(progress)})`,
  )

  // every phone renewed by the order's duration, as the order's lines said
  const done = ok('order', await api<Order>(`/order/getOrderInfo?orderNo=${orderNo}`, { session }))
  assert.equal(done.status, 2)
  assert.deepEqual(done.progress, { done: STUDIO, total: STUDIO })
  const after = await fleet(session)
  const days = placed.goodTime!
  for (const [deviceId, expireAt] of before) {
    assert.equal(
      after.get(deviceId),
      expireAt + days * DAY,
      `phone ${deviceId} renewed ${days} days`,
    )
  }
  for (const line of placed.renewals) assert.equal(after.get(line.deviceId), line.newExpireAt)
  assert.deepEqual(errors, [])
})
