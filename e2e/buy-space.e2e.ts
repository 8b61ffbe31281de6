/**
 * Buying cloud space in the H5 build against the real server: 云空间 → 购买空间 → a package → pay/pay →
 * sandbox checkout → paid → back on 云空间 the quota is 2 GB + the package, with the bought space's expiry.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E } from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

test('buy 50 GB of cloud space, pay in the sandbox, and see the larger quota with its expiry', async () => {
  const session = await apiLogin('13912360031')
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)

  await e2e.open(page, '/pages/Space/index')
  await page.getByText('0 B / 2 GB').waitFor()
  await button(page, '购买空间').click()
  await page.waitForURL(/pages\/Space\/BuySpace/)
  await page.getByRole('radio', { name: /50 GB/ }).click()
  await screenshot(page, 'space-buy')
  await button(page, '立即购买').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  await page.getByText('购买云空间').first().waitFor()
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
  await page.getByText('购买成功，云空间容量已增加').waitFor({ timeout: 20_000 })

  const info = await api<{ quotaBytes: number; grants: { bytes: number }[] }>('/space/info', {
    session,
  })
  assert.equal(info.data.quotaBytes, 52 * 1024 ** 3)
  await e2e.open(page, '/pages/Space/index')
  await page.getByText('0 B / 52 GB').waitFor()
  await page.getByText(/^已购空间 50 GB，\d{4}-\d{2}-\d{2} 到期$/).waitFor()
  await screenshot(page, 'space-bought')
  assert.deepEqual(errors, [])
})
