/**
 * Account journeys in the H5 build against the real server: a gated page sends a logged-out visitor
 * to login and back; SMS-code login (code from the sandbox); Mine shows the profile; password login;
 * switching between two accounts; messages; a token revoked server-side lands on login; 退出登录 ends
 * the session on the server; deletion.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, apiLogin, screenshot, setupE2E, smsCode } from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const FIRST = '13912340001'
const SECOND = '13912340002'
const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(7)}`

async function loginWithCode(page: Page, mobile: string) {
  await page.locator('input[placeholder="请输入手机号"]').fill(mobile)
  await button(page, '获取验证码').click()
  await page.getByText(/s后重新获取/).waitFor()
  await page.locator('input[placeholder="请输入验证码"]').fill(await smsCode(mobile))
  await page.getByText('我已阅读并同意').click()
  await button(page, '登录 / 注册').click()
}

/** First logins offer to set a password; decline it. */
async function declinePasswordOffer(page: Page) {
  await page.getByText('设置登录密码', { exact: true }).waitFor()
  await page.getByText('稍后', { exact: true }).click()
}

test('a gated page sends a logged-out visitor to login, then back after an SMS-code login', async () => {
  const { page, errors } = await e2e.newPage()
  await e2e.open(page, '/pages/user/config')
  await page.waitForURL(/pages\/login\/login/)
  await screenshot(page, 'login')
  await loginWithCode(page, FIRST)
  await declinePasswordOffer(page)
  await page.waitForURL(/pages\/user\/config/)
  await page.getByText('退出登录').waitFor()

  await e2e.open(page, '/pages/Home/user')
  await page.getByText(masked(FIRST)).waitFor()
  await page.getByText('未实名').waitFor()
  await screenshot(page, 'mine-logged-in')
  assert.deepEqual(errors, [])
})

test('password login, account switch and the message center', async () => {
  const PASSWORD_USER = '13912340005'
  const first = await apiLogin(PASSWORD_USER)
  const set = await api('/user/firstUpdateUserPassword', {
    json: { newPassword: 'abc12345' },
    session: first,
  })
  assert.equal(set.code, 200, set.msg)

  const { page } = await e2e.newPage()
  await e2e.open(page, '/pages/login/login')
  await page.getByText('密码登录', { exact: true }).click()
  await page.locator('input[placeholder="请输入手机号"]').fill(PASSWORD_USER)
  await page.locator('input[placeholder="请输入密码"]').fill('wrong123')
  await page.getByText('我已阅读并同意').click()
  await button(page, '登录').click()
  await page
    .getByText('密码校验失败')
    .or(page.getByText(/密码错误/))
    .first()
    .waitFor()
  await page.locator('input[placeholder="请输入密码"]').fill('abc12345')
  await button(page, '登录').click()
  await page.waitForURL(/pages\/Home\/user/)
  await page.getByText(masked(PASSWORD_USER)).waitFor()

  // a second account on the same device
  await e2e.open(page, '/pages/login/login')
  await loginWithCode(page, SECOND)
  await declinePasswordOffer(page)
  await page.getByText(masked(SECOND)).waitFor()

  await e2e.open(page, '/pages/user/accountList')
  await page.getByLabel(`切换到 ${masked(PASSWORD_USER)}`).waitFor()
  await screenshot(page, 'account-list')
  await page.getByLabel(`切换到 ${masked(PASSWORD_USER)}`).click()
  await page.waitForURL(/pages\/Home\/user/)
  await page.getByText(masked(PASSWORD_USER)).waitFor()

  await e2e.open(page, '/pages/user/message')
  await page.getByText('系统消息').first().waitFor()
  await screenshot(page, 'messages')
})

test('a token revoked on the server sends the next call to login', async () => {
  const { page } = await e2e.newPage()
  await e2e.open(page, '/pages/login/login')
  await loginWithCode(page, '13912340004')
  await declinePasswordOffer(page)
  await page.waitForURL(/pages\/Home\/user/)
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('accessToken')!).data)
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('userId')!).data)
  const revoked = await api('/user/exitLogin', { json: {}, session: { token, userId } })
  assert.equal(revoked.code, 200)

  await e2e.open(page, '/pages/user/message')
  await page.waitForURL(/pages\/login\/login/)
  // the toast with the server's message was shown on the way (it may already have faded)
  await page.getByText('登录已过期，请重新登录').first().waitFor({ state: 'attached' })
})

test('退出登录 in 设置 ends the session on the server: the old token gets 2017', async () => {
  const { page, errors } = await e2e.newPage()
  await e2e.open(page, '/pages/login/login')
  const mobile = '13912340006'
  await loginWithCode(page, mobile)
  await declinePasswordOffer(page)
  await page.waitForURL(/pages\/Home\/user/)
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('accessToken')!).data)
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('userId')!).data)
  assert.equal((await api('/user/getUserInfo', { session: { token, userId } })).code, 200)

  await e2e.open(page, '/pages/user/config')
  // the call exactly as the app sends it: the server must answer it, not refuse its empty body
  const exitLogin = page.waitForResponse((response) => response.url().includes('/user/exitLogin'))
  await button(page, '退出登录').click()
  await page.locator('.taro-modal__foot').getByText('退出', { exact: true }).click()
  const answer = await (await exitLogin).json()
  assert.equal(answer.code, 200, answer.msg)
  await page.waitForURL(/pages\/Home\/user/)
  await page.getByText('未登录').first().waitFor()

  const after = await api('/user/getUserInfo', { session: { token, userId } })
  assert.equal(after.code, 2017, 'the token the app had is revoked on the server')
  assert.deepEqual(errors, [])
})

test('account deletion with an SMS code revokes the session', async () => {
  const { page } = await e2e.newPage()
  await e2e.open(page, '/pages/login/login')
  const mobile = '13912340003'
  await loginWithCode(page, mobile)
  await declinePasswordOffer(page)
  await page.waitForURL(/pages\/Home\/user/)
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('accessToken')!).data)
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('userId')!).data)

  await e2e.open(page, '/pages/user/logOut')
  await button(page, '获取验证码').click()
  await page.getByText(/s后重新获取/).waitFor()
  await page.locator('input[placeholder="请输入验证码"]').fill(await smsCode(mobile))
  await page.getByText('我已阅读并知晓注销后果').click()
  await button(page, '申请注销').click()
  await page
    .locator('.taro-modal__foot')
    .getByText(/注销|确定/)
    .last()
    .click()
  await page.waitForURL(/pages\/Home\/index|\/$/)

  await page.getByText('账号已注销').first().waitFor({ state: 'attached' })
  const after = await api('/user/getUserInfo', { session: { token, userId } })
  assert.equal(after.code, 2017, "the deleted account's session is revoked")
})
