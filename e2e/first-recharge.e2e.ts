/**
 * The 首充券 in the H5 build against the real server: a new account's first recharge on 我的云豆
 * preselects 首充立减3元 (¥27.00 instead of ¥30.00) → paid at the sandbox checkout → the full package
 * is credited, the coupon is used, and the next recharge shows it no more.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E } from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

test('first recharge with the 首充券: 3 元 off, full beans credited, the coupon used', async () => {
  const session = await apiLogin('13912360002')
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)

  await e2e.open(page, '/pages/user/recharge')
  await page.getByText('选择充值套餐').waitFor()
  await page.getByRole('radio', { name: /¥30\.00/ }).click()
  await page.getByText('已选：首充立减3元').waitFor()
  await page.getByLabel('合计金额').filter({ hasText: '¥27.00' }).waitFor()
  await screenshot(page, 'first-recharge-coupon')
  await button(page, '立即充值').click()

  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  const orderNo = new URL(page.url().replace('#', '')).searchParams.get('orderNo')
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
  await page.getByText('充值成功，云豆已到账').waitFor({ timeout: 20_000 })

  const info = await api<{ amount: number }>(`/order/getOrderInfo?orderNo=${orderNo}`, {
    session,
  })
  assert.equal(info.data.amount, 2700)
  const balance = await api<{ balance: number }>('/pay/beanBalance', { session })
  assert.equal(balance.data.balance, 3000 + 300)

  await e2e.open(page, '/pages/user/recharge')
  await page.getByRole('radio', { name: /¥30\.00/ }).click()
  await page.getByText(/暂无可用/).waitFor()
  await page.getByLabel('合计金额').filter({ hasText: '¥30.00' }).waitFor()
  await screenshot(page, 'first-recharge-used')
  assert.deepEqual(errors, [])
})
