/**
 * Authorisation center in the H5 build against the real server, two users in two browser contexts: the
 * owner authorises a phone (可控制, 7 days) from Home; the grantee sees it on Home marked 已授权 and
 * reboots it; the owner revokes it in 授权管理; the grantee's Home no longer has it and a call is refused.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E } from './harness'
import { button, buyPhones, confirmModal } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', JOB_POLL_MS: '500', SANDBOX_SUPPLIER_DELAY_MS: '300' },
})

const OWNER = '13912391001'
const GRANTEE = '13912391002'

test('grant → the grantee sees and reboots the phone → revoke → gone', async () => {
  const owner = await apiLogin(OWNER)
  const grantee = await apiLogin(GRANTEE)
  const [phone] = await buyPhones(owner, 1, 30, 'empower-e2e-phone')

  // the owner authorises the phone from Home
  const ownerSide = await e2e.newPage()
  await seedSession(ownerSide.context, owner)
  const page = ownerSide.page
  await e2e.open(page, '/pages/Home/index')
  await page.getByText(phone.name).first().waitFor()
  await button(page, '授权').click()
  await page.waitForURL(/pages\/Device\/empower\?deviceIds=\d+/)
  const form = page.locator('.taro_page:visible')
  await form.getByText('授权的云手机（1台）').waitFor()
  await form.getByRole('radio', { name: '可控制' }).click()
  await form.locator('input[placeholder="请输入对方的注册手机号"]').fill(GRANTEE)
  await screenshot(page, 'empower-form')
  await button(page, '确认授权').click()
  await page.getByText(/授权给 139\*\*\*\*1002，可控制，7天/).waitFor()
  await confirmModal(page)
  await form.getByText(/授权给 139\*\*\*\*1002 · 到期/).waitFor()
  await screenshot(page, 'empower-granted')

  // the grantee sees it marked, and may reboot it
  const granteeSide = await e2e.newPage()
  await seedSession(granteeSide.context, grantee)
  const other = granteeSide.page
  await e2e.open(other, '/pages/Home/index')
  await other.getByText(phone.name).first().waitFor()
  await other.getByText('已授权·可控制').waitFor()
  await screenshot(other, 'empower-grantee-home')
  assert.equal(await button(other, '续费').count(), 0, 'no owner action for a grantee')
  await button(other, '重启').click()
  await confirmModal(other)
  await other.getByText('重启指令已发送').waitFor()

  // the owner revokes it: the grantee loses it at once
  await button(page, '撤销授权').click()
  await page.getByText(/将立即无法使用/).waitFor()
  await confirmModal(page)
  await form.getByText('暂无授权出去的云手机').waitFor()
  const refused = await api(`/device/detail?deviceId=${phone.deviceId}`, { session: grantee })
  assert.notEqual(refused.code, 200)
  await e2e.open(other, '/pages/Home/index')
  await other.getByText('已授权·可控制').waitFor({ state: 'detached' })
  assert.equal(await other.getByText(phone.name).count(), 0)
  assert.deepEqual(ownerSide.errors, [])
  assert.deepEqual(granteeSide.errors, [])
})
