/**
 * The console's 用户 pages in a 1440×900 window, with a user signed in on the H5 site in a
 * phone-sized one: an operator (admin:create, password + TOTP) finds the user by the last digits of the
 * number, opens the user's page, freezes the account after a confirmation naming the consequence; the
 * user's next action on H5 shows 账号已被冻结; unfreezing lets the same session work again. axe finds nothing critical or serious on 用户, the user's page and the freeze dialog.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { resultMessages, ResultCode } from '#domain/result-codes'
import { apiLogin, screenshot, seedSession, consoleAxeReport, setupE2E } from './harness'
import { createOperator, signInToConsole } from './console'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const OPERATOR = { name: 'e2e-ops', password: 'e2e-ops-password-12' }
const USER_MOBILE = '13812345678'
/** How the console names the user (masked number; no nickname set). */
const SHOWN = '138****5678'
const FROZEN = resultMessages[ResultCode.ACCOUNT_HAS_BEEN_FROZEN]

test('an operator freezes a user: the H5 session shows 账号已被冻结 on its next action; unfreezing restores it', async () => {
  // the operator, made on the command line (the server restarts around it)
  const operator = await createOperator(e2e, { ...OPERATOR, role: 'operations' })

  // the user, signed in on H5
  const session = await apiLogin(USER_MOBILE)
  const phone = await e2e.newPage()
  await seedSession(phone.context, session)
  await e2e.open(phone.page, '/pages/Home/user')
  await phone.page.getByText('未实名').waitFor()

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator)

  // 用户: search by the number's last four digits
  await page.getByRole('menu').first().getByText('用户', { exact: true }).click()
  await page.waitForURL('**/admin/users')
  await page.getByPlaceholder('完整手机号、尾号、用户ID或公司名称').fill('5678')
  await page.getByRole('button', { name: /搜\s*索/ }).click()
  const row = page.getByRole('row').filter({ hasText: USER_MOBILE })
  await row.getByText('正常').waitFor()
  report.push(...(await consoleAxeReport(page, '用户')))
  await screenshot(page, 'admin-users')

  // the user's page: the profile and its tabs
  await row.getByRole('link', { name: '查看' }).click()
  await page.waitForURL(`**/admin/users/${session.userId}`)
  // titled by the masked number (and nickname), not an id
  await page.locator('.ant-descriptions-title', { hasText: SHOWN }).waitFor()
  await page.getByRole('tab', { name: /优惠券（\d+）/ }).click()
  await page.getByRole('tab', { name: /云手机（0）/ }).waitFor()
  report.push(...(await consoleAxeReport(page, 'user page')))
  await screenshot(page, 'admin-user-detail')

  // 冻结: the dialog names the consequence and wants a reason
  await page.getByRole('button', { name: /冻\s*结/ }).click()
  const dialog = page.getByRole('dialog', { name: `冻结用户 ${SHOWN}？` })
  await dialog.getByText('该用户将无法登录和使用云手机，直到解冻。').waitFor()
  report.push(...(await consoleAxeReport(page, 'freeze dialog')))
  await dialog.getByRole('button', { name: /冻\s*结/ }).click()
  await dialog.getByText('请填写原因').waitFor()
  await dialog.getByLabel('原因（记入操作日志）').fill('用户投诉账号被盗，先行冻结')
  await screenshot(page, 'admin-user-freeze')
  await dialog.getByRole('button', { name: /冻\s*结/ }).click()
  await dialog.waitFor({ state: 'hidden' })
  await page.getByText('已冻结').first().waitFor()

  // the user's next action: the SPEC's frozen message
  await phone.page
    .locator('.nut-cell')
    .filter({ has: phone.page.getByText('云豆明细', { exact: true }) })
    .click()
  const modal = phone.page.locator('.taro-modal__content')
  await modal.getByText(FROZEN).waitFor()
  await modal.getByText('如有疑问请联系客服').waitFor()
  await screenshot(phone.page, 'h5-account-frozen')
  // 联系客服 leads on; 知道了 closes it where the user is
  await phone.page.locator('.taro-modal__foot').getByText('联系客服').waitFor()
  await phone.page.locator('.taro-modal__foot').getByText('知道了').click()

  // 解冻: the same session works again
  await page.getByRole('button', { name: /解\s*冻/ }).click()
  const undo = page.getByRole('dialog', { name: `解冻用户 ${SHOWN}？` })
  await undo.getByLabel('原因（记入操作日志）').fill('已核实为本人')
  await undo.getByRole('button', { name: /解\s*冻/ }).click()
  await undo.waitFor({ state: 'hidden' })
  await page.getByText('正常').first().waitFor()
  await e2e.open(phone.page, '/pages/Home/user')
  await phone.page.getByText('未实名').waitFor()
  assert.equal(await phone.page.getByText(FROZEN).count(), 0)

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
