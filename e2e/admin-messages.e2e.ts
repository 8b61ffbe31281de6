/**
 * The console's 消息 page and 修改密码 in a 1440×900 window, with a user signed in on the H5 site
 * in a phone-sized one: an operator (admin:create, password + TOTP) sends a message to the user's number;
 * the user's H5 shows the unread badge on 消息中心 and the message, its markup shown as text; a broadcast to
 * 全部用户 is confirmed once more and reaches the same user in the background. The operator
 * then changes their own password (a wrong TOTP code first: the server's 4007 is shown), signs out and signs
 * in with the new one. axe finds nothing critical or serious on 消息, the send form and 修改密码.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { generateSync } from 'otplib'
import type { Locator } from 'playwright-core'
import { operatorMessages, OperatorCode } from '#domain/result-codes'
import {
  api,
  apiLogin,
  screenshot,
  seedSession,
  consoleAxeReport,
  setupE2E,
  sleep,
} from './harness'
import { createOperator, signInToConsole } from './console'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const OPERATOR = { name: 'e2e-support', password: 'e2e-support-password-1' }
const NEW_PASSWORD = 'e2e-support-password-2'
const USER_MOBILE = '13812345670'
const TITLE = '工单已处理'
const CONTENT = '<b>您反馈的问题已解决</b>'
const BROADCAST_TITLE = '系统维护通知'

/**
 * Checks a radio of a form that has just opened again. ProForm applies the form's initial values in an
 * effect after the dialog's first frame, so a click in that frame can be undone (the last CI run's
 * "Clicking the checkbox did not change its state"); the click is repeated until the radio stays checked.
 */
async function checkOnceSettled(radio: Locator): Promise<void> {
  for (let tries = 0; tries < 10 && !(await radio.isChecked()); tries++) {
    await radio.click()
    await sleep(100)
  }
  assert.equal(await radio.isChecked(), true, 'the radio stays checked')
}

/**
 * A TOTP code of a later 30-second step than the last one used (the server refuses a code used before).
 * The server also takes the step before or after its own (clock drift), so the code is that of now, or
 * else of the next step, as an authenticator a little ahead shows it: waiting for a new step each time
 * cost this test up to a minute.
 */
let lastStep = 0
async function freshCode(secret: string): Promise<string> {
  const step = Math.max(lastStep + 1, Math.floor(Date.now() / 30_000))
  while (Math.floor(Date.now() / 30_000) < step - 1) await sleep(500)
  lastStep = step
  return generateSync({ secret, epoch: step * 30 })
}

test('an operator messages a number: the H5 badge and message center show it; the operator changes their own password and signs in with it', async () => {
  const operator = await createOperator(e2e, { ...OPERATOR, role: 'support' })
  const { secret } = operator

  // the user, signed in on H5, with the welcome messages read: no badge
  const session = await apiLogin(USER_MOBILE)
  const read = await api('/message/read', { json: { all: true }, session })
  assert.equal(read.code, 200)
  const phone = await e2e.newPage()
  await seedSession(phone.context, session)
  await e2e.open(phone.page, '/pages/Home/user')
  const center = phone.page.locator('.nut-cell').filter({ hasText: '消息中心' })
  await center.waitFor()
  assert.equal(await center.locator('.nut-badge').count(), 0)

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator, await freshCode(secret))

  // 消息: send to the user's number
  await page.getByRole('menu').first().getByText('消息', { exact: true }).click()
  await page.waitForURL('**/admin/messages')
  await page.getByText('已发送的消息').waitFor()
  report.push(...(await consoleAxeReport(page, '消息')))
  await page.getByRole('button', { name: '发送消息' }).click()
  const form = page.getByRole('dialog', { name: '发送消息' })
  await form.getByRole('textbox', { name: '用户' }).fill(USER_MOBILE)
  await form.getByLabel('标题').fill(TITLE)
  await form.getByLabel('内容').fill(CONTENT)
  report.push(...(await consoleAxeReport(page, 'send form')))
  await screenshot(page, 'admin-message-send')
  await form.getByRole('button', { name: /发\s*送/ }).click()
  await form.waitFor({ state: 'hidden' })
  const row = page.getByRole('row').filter({ hasText: TITLE })
  // the user by masked number, a link to their page
  await row
    .getByRole('link', { name: `${USER_MOBILE.slice(0, 3)}****${USER_MOBILE.slice(7)}` })
    .waitFor()
  await row.getByText('1 / 0').waitFor()
  await screenshot(page, 'admin-messages')

  // the user: the badge on 消息中心, then the message, its markup as text
  await e2e.open(phone.page, '/pages/Home/user')
  await center.locator('.nut-badge').getByText('1', { exact: true }).waitFor()
  await screenshot(phone.page, 'h5-message-badge')
  await center.click()
  await phone.page.waitForURL(/pages\/user\/message/)
  const system = phone.page.locator('.nut-cell:visible').filter({ hasText: '系统消息' })
  await system.locator('.nut-badge').getByText('1', { exact: true }).waitFor()
  await e2e.open(phone.page, '/pages/user/messageList?type=5')
  await phone.page.getByText(TITLE).waitFor()
  await phone.page.getByText(CONTENT).waitFor()
  await screenshot(phone.page, 'h5-operator-message')

  // a broadcast: asked once more, then delivered in the background to every user, this one too
  await page.getByRole('button', { name: '发送消息' }).click()
  await checkOnceSettled(form.getByRole('radio', { name: '全部用户' }))
  await form.getByLabel('标题').fill(BROADCAST_TITLE)
  await form.getByLabel('内容').fill('周六凌晨 2:00–4:00 系统维护，期间云手机可正常使用')
  await form.getByRole('button', { name: /发\s*送/ }).click()
  const sure = page.getByRole('dialog', { name: '发送给全部用户？' })
  await sure
    .getByText(`「${BROADCAST_TITLE}」将发到每位已注册用户的消息中心，发送后无法撤回。`)
    .waitFor()
  report.push(...(await consoleAxeReport(page, 'broadcast confirmation')))
  await sure.getByRole('button', { name: '确认发送' }).click()
  await form.waitFor({ state: 'hidden' })
  const broadcast = page.getByRole('row').filter({ hasText: BROADCAST_TITLE })
  await broadcast.getByText('全部用户').waitFor()
  await broadcast.getByText('发送中').waitFor({ state: 'detached', timeout: 30_000 })
  await e2e.open(phone.page, '/pages/user/messageList?type=5')
  await phone.page.getByText(BROADCAST_TITLE).waitFor()

  // 修改密码: a wrong code gets the server's 4007 in the form; then the right one
  await page.getByRole('button', { name: '修改密码' }).click()
  const change = page.getByRole('dialog', { name: '修改密码' })
  await change.getByLabel('当前密码').fill(OPERATOR.password)
  await change.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD)
  await change.getByLabel('确认新密码').fill(NEW_PASSWORD)
  const code = generateSync({ secret })
  await change.getByLabel('动态码').fill(code === '000000' ? '111111' : '000000')
  await change.getByRole('button', { name: '确认修改' }).click()
  await change.getByText(operatorMessages[OperatorCode.CREDENTIALS_WRONG]).waitFor()
  report.push(...(await consoleAxeReport(page, '修改密码')))
  await screenshot(page, 'admin-own-password-refused')
  await change.getByLabel('动态码').fill(await freshCode(secret))
  await change.getByRole('button', { name: '确认修改' }).click()
  await change.waitFor({ state: 'hidden' })

  // sign out; the old password no longer works, the new one does
  await page.getByRole('button', { name: /退出登录/ }).click()
  await page.getByLabel('账号').waitFor()
  await signInToConsole(page, { ...operator, password: NEW_PASSWORD }, await freshCode(secret))
  await screenshot(page, 'admin-signed-in-new-password')

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
