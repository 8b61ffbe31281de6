/**
 * Coupons in the H5 build against the real server: a new account holds the 新人券 set (user/coupon) →
 * buying a phone preselects the best coupon and the total drops → paid at the sandbox checkout → the
 * coupon is under 已使用 and in 使用记录 with the order.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E } from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '1000' } })

test('buy with a coupon: price drops, the coupon moves to used', async () => {
  const session = await apiLogin('13912360001')
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)

  await e2e.open(page, '/pages/user/coupon')
  await page.getByText('新人无门槛券').waitFor()
  await page.getByText('满50.00元可用').waitFor()
  await screenshot(page, 'coupon-list')

  // 畅享版 4核4G, one month: 15.00 first purchase, 5.00 off with the no-threshold coupon
  await e2e.open(page, '/pages/create/buyGoods?goodId=101&priceId=1013&zoneId=1')
  await page.getByText('已选：新人无门槛券').waitFor()
  await page.getByLabel('合计金额').filter({ hasText: '¥10.00' }).waitFor()
  await page.getByText(/-¥5\.00/).click()
  await page.getByText('距离可用门槛还差35.00元').waitFor()
  // the 8.5折 旗舰版 coupon and the 首充券 (bean recharges only) both say why they do not apply
  await page.getByText('所购买商品不在适用范围内').first().waitFor()
  await screenshot(page, 'coupon-checkout')
  await page.getByText(/-¥5\.00/).click()
  await button(page, '提交订单').click()

  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  const orderNo = new URL(page.url().replace('#', '')).searchParams.get('orderNo')
  await page.getByText('支付剩余时间').waitFor()
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
  await page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })

  const info = await api<{ amount: number }>(`/order/getOrderInfo?orderNo=${orderNo}`, {
    session,
  })
  assert.equal(info.data.amount, 1000)

  await e2e.open(page, '/pages/user/coupon')
  await page.getByText('已使用', { exact: true }).click()
  await page.getByText('新人无门槛券').waitFor()
  await screenshot(page, 'coupon-used')
  await e2e.open(page, '/pages/user/couponUse')
  await page.getByText('-¥5.00').waitFor()
  await page.getByText(`订单号：${orderNo}`).waitFor()
  await screenshot(page, 'coupon-usage')
  assert.deepEqual(errors, [])
})
