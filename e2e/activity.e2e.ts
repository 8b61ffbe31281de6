/**
 * Activities in the H5 build against the real server: Home's floating activity entry (openActivityBall
 * = 1) → the activity list → the seeded seckill → 立即抢购 → pay at the sandbox checkout → the new
 * phone on Home; a second attempt is refused with 每人限购1件.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E } from './harness'
import { button } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '1000' },
})

const SECKILL_TITLE = '限时秒杀 · 1元抢畅享版云手机'

test('from the activity ball: buy the seckill phone, pay, see it on Home; once per user', async () => {
  const session = await apiLogin('13912357001')
  const turnedOn = await api('/user/updateUserInfo', { session, json: { openActivityBall: 1 } })
  assert.equal(turnedOn.code, 200, turnedOn.msg)
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)

  await e2e.open(page, '/pages/Home/index')
  await page.getByRole('button', { name: '限时活动' }).click()
  await page.waitForURL(/pages\/webView\/activity/)
  const card = page.getByRole('button', { name: SECKILL_TITLE })
  await card.waitFor()
  await screenshot(page, 'activity-list')
  await card.click()

  await page.waitForURL(/pages\/webView\/activity\?id=\d+/)
  const root = page.locator('.taro_page:visible')
  await root.getByText('距结束').waitFor()
  await root.getByText('¥1.00').waitFor()
  await root.getByText(/剩余 5 件/).waitFor()
  await screenshot(page, 'activity-seckill')
  await button(page, '立即抢购').click()

  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  await page.locator('.taro_page:visible').getByText('支付剩余时间').waitFor()
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
  await page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })
  await page.getByText('云手机已开通，正在创建中，通常几秒后即可使用').waitFor({ timeout: 20_000 })

  await button(page, '查看我的云机').click()
  await page.waitForURL(/pages\/Home\/index/)
  await page
    .locator('.taro_page:visible')
    .getByText(/(创建中|运行中)/)
    .first()
    .waitFor({ timeout: 20_000 })
  await screenshot(page, 'activity-home-phone')
  const phones = await api<{ records: { goodName?: string }[] }>('/device/list', { session })
  assert.equal(phones.data.records.length, 1, 'one seckill phone')

  const detail = await api<{ items: { itemId: number; price: number; bought: boolean }[] }>(
    '/activity/detail?id=1',
    { session },
  )
  const [item] = detail.data.items
  assert.equal(item.bought, true)
  const again = await api('/order/createSeckillActivityOrder', {
    session,
    json: { itemId: item.itemId, expectedAmount: item.price, idempotencyKey: 'second-attempt-1' },
  })
  assert.equal(again.msg, '每人限购1件')

  await e2e.open(page, '/pages/webView/activity?id=1')
  await button(page, '已抢到').waitFor()
  assert.deepEqual(errors, [])
})
