/**
 * Transfer center in the H5 build against the real server, two users in two browser contexts: the owner
 * transfers a running phone from Home (转移) with a code sent to their own number; the phone leaves the
 * owner's Home and appears on the receiver's, both get a 设备转移 message, and the history shows it.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E, smsCode, type Session } from './harness'
import { button, buyPhones, confirmModal, ok, type DeviceRow } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '300' },
})

const OWNER = '13912390001'
const RECEIVER = '13912390002'

async function transferMessages(session: Session) {
  const list = ok(
    'messages',
    await api<{ records: { title: string }[] }>('/message/list?type=3&rows=10', { session }),
  )
  return list.records.map((m) => m.title)
}

test('an owner transfers a phone with a code; it moves to the receiver, both are told', async () => {
  const owner = await apiLogin(OWNER)
  const receiver = await apiLogin(RECEIVER)
  ok(
    'set password',
    await api('/user/firstUpdateUserPassword', {
      session: owner,
      json: { newPassword: 'Transfer2026' },
    }),
  )
  const [phone] = await buyPhones(owner, 1, 30, 'transfer-e2e-phone')

  const sender = await e2e.newPage()
  await seedSession(sender.context, owner)
  const page = sender.page
  await e2e.open(page, '/pages/Home/index')
  await page.getByText(phone.name).first().waitFor()
  await button(page, '转移').click()
  await page.waitForURL(/pages\/Device\/transfer\?deviceIds=\d+/)
  const form = page.locator('.taro_page:visible')
  await form.getByText('转移的云手机（1台）').waitFor()
  await form.locator('input[placeholder="请输入对方的注册手机号"]').fill(RECEIVER)
  await button(page, '获取验证码').click()
  await page.getByText(/s后重新获取/).waitFor()
  await form.locator('input[placeholder="请输入验证码"]').fill(await smsCode(OWNER))
  await screenshot(page, 'transfer-form')
  await button(page, '确认转移').click()
  await page.getByText(/将1台云手机转移至 139\*\*\*\*0002/).waitFor()
  await confirmModal(page)
  await form.getByText('转给 139****0002', { exact: false }).waitFor()
  await screenshot(page, 'transfer-history')

  const gone = await api(`/device/detail?deviceId=${phone.deviceId}`, { session: owner })
  assert.notEqual(gone.code, 200, 'the owner no longer has the phone')
  const moved = ok(
    'receiver detail',
    await api<DeviceRow>(`/device/detail?deviceId=${phone.deviceId}`, { session: receiver }),
  )
  assert.equal(moved.groupId, null)
  assert.deepEqual(await transferMessages(owner), ['云手机已转出'])
  assert.deepEqual(await transferMessages(receiver), ['云手机已转入'])

  const other = await e2e.newPage()
  await seedSession(other.context, receiver)
  await e2e.open(other.page, '/pages/Home/index')
  await other.page.getByText(phone.name).first().waitFor()
  await screenshot(other.page, 'transfer-received')
  assert.deepEqual(sender.errors, [])
  assert.deepEqual(other.errors, [])
})
