/**
 * Engagement journeys in the H5 build against the real server: the play-trial landing
 * pages open without a login; a new user gets the new-user guide once and claims the free trial
 * phone, which appears on Home and starts; the floating-ball settings reach the control page.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, apiLogin, screenshot, seedSession, setupE2E, smsCode } from './harness'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', JOB_POLL_MS: '500', SANDBOX_SUPPLIER_DELAY_MS: '1500' },
})

/** A NutUI button by its exact text (its inner text node does not take clicks in Chromium). */
const button = (page: Page, text: string) =>
  page.locator('taro-button-core:visible').filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) })

test('the play-trial landing pages load without a login', async () => {
  const { page, errors } = await e2e.newPage()
  await e2e.open(page, '/pages/landing/play-trial/index')
  await page.getByText('星海远征').first().waitFor()
  await page.getByText(/免费领取一台畅享版/).waitFor()
  await button(page, '登录领取试玩云机').waitFor()
  assert.match(page.url(), /pages\/landing\/play-trial\/index/)
  await screenshot(page, 'play-trial')

  await button(page, '下载游戏').click()
  await page.waitForURL(/pages\/landing\/play-trial\/download/)
  await page.getByText('com.xinghai.expedition').waitFor()
  await page.getByText('v3.6.2').waitFor()
  await screenshot(page, 'play-trial-download')
  assert.deepEqual(errors, [])
})

test('a new user gets the guide once, claims the trial phone and sees it start on Home', async () => {
  const MOBILE = '13712340021'
  const { page, errors } = await e2e.newPage()
  await e2e.open(page, '/pages/Home/index')
  await page.getByRole('button', { name: '登录 / 注册' }).click()
  await page.waitForURL(/pages\/login\/login/)
  await page.locator('input[placeholder="请输入手机号"]').fill(MOBILE)
  await button(page, '获取验证码').click()
  await page.getByText(/s后重新获取/).waitFor()
  await page.locator('input[placeholder="请输入验证码"]').fill(await smsCode(MOBILE))
  await page.getByText('我已阅读并同意').click()
  await button(page, '登录 / 注册').click()
  await page.getByText('设置登录密码', { exact: true }).waitFor()
  await page.getByText('稍后', { exact: true }).click()
  await page.waitForURL(/pages\/Home\/index/)

  const guide = page.getByLabel('新手指引')
  await guide.waitFor()
  // the login page, still in the H5 page stack, has the same greeting
  await guide.getByText('欢迎使用云手机').waitFor()
  await screenshot(page, 'new-user-guide')
  await button(page, '下一步').click()
  await button(page, '下一步').click()
  await page.getByText(/免费使用2小时/).waitFor()
  await button(page, '免费领取试用云机').click()
  await page
    .getByText(/已领取云手机-/)
    .first()
    .waitFor()
  const phone = page.getByText(/^云手机-\d+$/).first()
  await phone.waitFor({ timeout: 15_000 })
  await page.getByText('运行中').first().waitFor({ timeout: 20_000 })
  await screenshot(page, 'trial-phone-on-home')

  // the guide does not come back, and the trial is once: the landing page says so
  await e2e.open(page, '/pages/Home/index')
  await phone.waitFor()
  assert.equal(await page.getByText('欢迎使用云手机').count(), 0)
  await e2e.open(page, '/pages/landing/play-trial/index')
  await button(page, '免费领取试玩云机').click()
  await page.getByText('您已领取过免费试用云机').waitFor()
  assert.deepEqual(errors, [])
})

test('floating-ball settings reach the control page', async () => {
  const session = await apiLogin('13712340022')
  const claimed = await api<{ deviceId: number }>('/newUserGuide/getNewUserReceiveEquipment', {
    session,
  })
  assert.equal(claimed.code, 200, claimed.msg)
  const { page, context } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, '/pages/user/floatingBall')
  await page.getByText('80%').waitFor()
  await page.getByText('左侧', { exact: true }).click()
  await page.getByLabel('降低透明度').click()
  await page.getByText('重启', { exact: true }).click()
  await button(page, '保存').click()
  await page.getByText('已保存').waitFor()
  await page.getByText('已保存').waitFor({ state: 'hidden' })
  await screenshot(page, 'floating-ball-settings')
  const saved = await api<{ side: string; opacity: number; shortcuts: string[] }>(
    '/user/getFloatingBall',
    { session },
  )
  assert.deepEqual(saved.data, {
    visible: true,
    side: 'left',
    opacity: 70,
    shortcuts: ['返回', '主页', '多任务', '重启'],
  })

  // the phone is running after the sandbox's provisioning delay
  let token: { code: number; data: { authToken: string; controlUrl: string } | null } | undefined
  for (let i = 0; i < 40; i++) {
    token = await api(`/user/getAuthToken?deviceId=${claimed.data!.deviceId}`, { session })
    if (token.code === 200) break
    await new Promise((r) => setTimeout(r, 500))
  }
  assert.equal(token?.code, 200)
  const { authToken, controlUrl } = token!.data!
  await page.goto(
    `${e2e.server.url}${controlUrl}&token=${encodeURIComponent(authToken)}&userId=${session.userId}&userType=2&isWeb=1`,
  )
  const ball = page.locator('#floating-ball')
  await ball.waitFor()
  assert.equal(await ball.getAttribute('data-side'), 'left')
  await ball.click()
  await page.locator('#floating-menu button', { hasText: '重启' }).waitFor()
  // 返回 presses the phone's key now (/control/key; e2e/control-page.e2e.ts clicks it)
  assert.equal(await page.locator('#floating-menu button', { hasText: '返回' }).isDisabled(), false)
  await screenshot(page, 'floating-ball-control-page')
})
