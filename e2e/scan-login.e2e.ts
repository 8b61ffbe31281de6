/**
 * Scan-login in the H5 build against the real server, two browser contexts: a logged-out browser opens
 * 登录 → 扫码登录 and shows a QR; a logged-in user saves that QR as a picture and reads it on 扫一扫 with
 * 从相册选择 (the in-page jsqr decoder), sees 登录确认 and taps 确认登录; the first browser is then logged in as
 * that user (Mine shows their number). A malformed QR shows 无法识别该二维码.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { ARTIFACT_DIR, apiLogin, readStorage, screenshot, seedSession, setupE2E } from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const SCANNER = '13912395001'
/** One SMS login for the file (a second code for the same number would have to wait a minute). */
let scannerLogin: ReturnType<typeof apiLogin> | undefined
const scanner = () => (scannerLogin ??= apiLogin(SCANNER))

test('扫码登录: the phone confirms, the browser is logged in as that account', async () => {
  const phone = await scanner()

  // the logged-out browser shows a login QR
  const desk = await e2e.newPage()
  await e2e.open(desk.page, '/pages/login/login')
  await desk.page.getByText('扫码登录', { exact: true }).click()
  const qr = desk.page.locator('img[alt="扫码登录二维码"]')
  await qr.waitFor()
  await desk.page.getByText(/扫描二维码登录/).waitFor()
  await screenshot(desk.page, 'scan-login-qr')
  const dataUrl = await qr.getAttribute('src')
  assert.match(dataUrl ?? '', /^data:image\/png;base64,/)
  fs.mkdirSync(ARTIFACT_DIR, { recursive: true })
  const picture = path.join(ARTIFACT_DIR, 'scan-login-qr.png')
  fs.writeFileSync(picture, Buffer.from(dataUrl!.split(',')[1], 'base64'))

  // the logged-in phone reads it from the album on 扫一扫
  const hand = await e2e.newPage()
  await seedSession(hand.context, phone)
  await e2e.open(hand.page, '/pages/user/scan')
  await button(hand.page, '从相册选择').click()
  // Taro's H5 image picker asks 拍摄 or 从相册选择 (a file input either way)
  const chooser = hand.page.waitForEvent('filechooser')
  await hand.page.locator('.taro-actionsheet__cell').filter({ hasText: '从相册选择' }).click()
  await (await chooser).setFiles(picture)
  await hand.page.waitForURL(/pages\/user\/scanResult\?text=cloudphone%3Alogin%3A[0-9a-f]{64}/)
  const result = hand.page.locator('.taro_page:visible')
  await result.getByText(/确认在 Chrome · \S+ 上登录？/).waitFor()
  await desk.page.getByText('已扫码，请在手机上确认').waitFor()
  await screenshot(hand.page, 'scan-login-confirm')
  await button(hand.page, '确认登录').click()
  await result.getByText('已确认，电脑端已登录').waitFor()

  // the browser's next poll logs it in as that account
  const later = desk.page.locator('.taro-modal__foot').getByText('稍后')
  await later.waitFor({ timeout: 10_000 })
  await later.click()
  await desk.page.waitForURL(/pages\/Home\/user/)
  await desk.page.getByText('139****5001').first().waitFor()
  assert.equal(String(await readStorage(desk.page, 'userId')), String(phone.userId))
  await screenshot(desk.page, 'scan-login-done')
  assert.deepEqual(desk.errors, [])
  assert.deepEqual(hand.errors, [])
})

test('a malformed QR: 无法识别该二维码 and its raw text', async () => {
  const phone = await scanner()
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, phone)
  await e2e.open(page, `/pages/user/scanResult?text=${encodeURIComponent('cloudphone:login:oops')}`)
  const result = page.locator('.taro_page:visible')
  await result.getByText('无法识别该二维码').waitFor()
  await result.getByText('cloudphone:login:oops').waitFor()
  await screenshot(page, 'scan-result-unknown')
  assert.deepEqual(errors, [])
})
