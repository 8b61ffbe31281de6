/**
 * Cloud space in the H5 build against the real server and the sandbox supplier: a user with a running
 * phone (the free trial phone) backs it up in 数据中心, restores the backup onto it, and sees both in
 * 备份与恢复记录 and the used space on 云空间.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E, sleep } from './harness'
import { button } from './journeys'

const e2e = setupE2E({
  // each step's outcome is read, not how long it lasts: jobs looked for every 0.5 s, not 5
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '800', JOB_POLL_MS: '500' },
})

test('back up a phone, restore it, see both in the history and the used space', async () => {
  const session = await apiLogin('13912370001')
  const claimed = await api<{ deviceId: number }>('/newUserGuide/getNewUserReceiveEquipment', {
    session,
  })
  assert.equal(claimed.code, 200, claimed.msg)
  const deviceId = claimed.data.deviceId
  for (let i = 0; i < 120; i += 1) {
    const detail = await api<{ status: number }>(`/device/detail?deviceId=${deviceId}`, { session })
    if (detail.data.status === 1) break
    await sleep(250)
  }

  const { page, context, errors } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, `/pages/Space/DataCenter?deviceId=${deviceId}`)
  await page.getByText('暂无备份').waitFor()
  await button(page, '立即备份').click()
  await page.getByText('正在备份数据，请稍候…').waitFor()
  await screenshot(page, 'space-backup-running')
  await page.getByText('备份成功').first().waitFor({ timeout: 30_000 })

  await button(page, '恢复').click()
  await page.locator('.taro-modal__foot').getByText('确定').click()
  await page.getByText(/正在恢复数据/).waitFor()
  await button(page, '立即备份').waitFor({ timeout: 30_000 })
  await screenshot(page, 'space-data-center')

  await button(page, '备份与恢复记录').click()
  await page.waitForURL(/pages\/Space\/HistoryData/)
  await page.getByText('云手机-1 · 恢复').waitFor()
  await page.getByText('云手机-1 · 备份').waitFor()
  assert.equal(await page.getByText('恢复成功').count(), 1)
  await screenshot(page, 'space-history')

  await e2e.open(page, '/pages/Space/index')
  await page.getByText('1 份备份').waitFor()
  await screenshot(page, 'space-index')
  assert.deepEqual(errors, [])
})
