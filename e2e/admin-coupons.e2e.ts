/**
 * The console's 优惠券 page in a 1440×900 window, with a user signed in on the H5 site in a
 * phone-sized one: an operator creates a ¥8 无门槛券 template, issues it to the user's number (and one
 * with no account, reported back), the dialog closes and a notice says how many got it, 已发放 counts
 * it, and Esc closes the dialog unsent; the user finds
 * it in the H5 coupon list, the checkout preselects it and the order's total drops by ¥8. axe finds
 * nothing critical or serious on 优惠券, the template form and the issue dialog.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, consoleAxeReport, setupE2E } from './harness'
import { createOperator, signInToConsole } from './console'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const OPERATOR = { name: 'e2e-coupons', password: 'e2e-coupons-password-12' }
const USER_MOBILE = '13812340028'
const NO_ACCOUNT = '13800009999'
const NAME = '运营立减8元'

test('an operator issues a coupon to a number: the user sees it on H5 and the checkout total drops by it', async () => {
  const operator = await createOperator(e2e, { ...OPERATOR, role: 'operations' })

  const session = await apiLogin(USER_MOBILE)
  const phone = await e2e.newPage()
  await seedSession(phone.context, session)
  await e2e.open(phone.page, '/pages/user/coupon')
  await phone.page.getByText('新人无门槛券').waitFor()
  assert.equal(await phone.page.getByText(NAME).count(), 0)

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator)

  await page.getByRole('menu').first().getByText('优惠券', { exact: true }).click()
  await page.waitForURL('**/admin/coupons')
  await page.getByRole('row').filter({ hasText: '新人无门槛券' }).waitFor()
  report.push(...(await consoleAxeReport(page, '优惠券')))

  // a new template: 无门槛券 ¥8, cloud phones, every product, 7 days
  await page.getByRole('button', { name: '新建模板' }).click()
  const form = page.getByRole('dialog', { name: '新建优惠券模板' })
  await form.getByLabel('名称').fill(NAME)
  await form.getByTitle('满减券').click() // the shown value (the default type) opens antd's list
  await page.locator('.ant-select-item-option').filter({ hasText: '无门槛券' }).click()
  await form.getByLabel(/面额/).fill('8')
  await form.getByLabel('有效天数').fill('7')
  report.push(...(await consoleAxeReport(page, 'template form')))
  await screenshot(page, 'admin-coupon-template')
  await form.getByRole('button', { name: /保\s*存/ }).click()
  await form.waitFor({ state: 'hidden' })
  const row = page.getByRole('row').filter({ hasText: NAME })
  await row.waitFor()

  // issue it to the user's number and one with no account
  await row.getByText('发放', { exact: true }).click()
  const dialog = page.getByRole('dialog', { name: `发放「${NAME}」` })
  await dialog
    .getByLabel('手机号（每行一个）')
    .fill(`${USER_MOBILE}\n${NO_ACCOUNT}\n${USER_MOBILE}`)
  report.push(...(await consoleAxeReport(page, 'issue dialog')))
  await screenshot(page, 'admin-coupon-issue')
  // on success the dialog closes; how many got it, and the numbers without an account, in a notice
  await dialog.getByRole('button', { name: /发\s*放/ }).click()
  await dialog.waitFor({ state: 'hidden' })
  const notice = page.getByRole('dialog').filter({ hasText: `「${NAME}」已发放 1 人` })
  await notice.getByText(`以下号码没有账号，未发放：${NO_ACCOUNT}`).waitFor()
  report.push(...(await consoleAxeReport(page, 'issue notice')))
  await screenshot(page, 'admin-coupon-issued')
  await notice.getByRole('button', { name: '知道了' }).click()
  await notice.waitFor({ state: 'hidden' })
  // Esc closes the dialog too, and what was typed is gone with it (nothing issued)
  await row.getByText('发放', { exact: true }).click()
  await dialog.getByLabel('手机号（每行一个）').fill(USER_MOBILE)
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  // 已发放 1, 未使用 1
  await row.getByRole('cell', { name: '1', exact: true }).first().waitFor()
  await screenshot(page, 'admin-coupons')

  // the user: in the coupon list, preselected at checkout (¥15.00 first purchase − ¥8.00)
  await e2e.open(phone.page, '/pages/user/coupon')
  await phone.page.getByText(NAME).waitFor()
  await screenshot(phone.page, 'h5-coupon-issued')
  await e2e.open(phone.page, '/pages/create/buyGoods?goodId=101&priceId=1013&zoneId=1')
  await phone.page.getByText(`已选：${NAME}`).waitFor()
  await phone.page.getByLabel('合计金额').filter({ hasText: '¥7.00' }).waitFor()
  await screenshot(phone.page, 'h5-coupon-issued-checkout')
  await button(phone.page, '提交订单').click()
  await phone.page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  const orderNo = new URL(phone.page.url().replace('#', '')).searchParams.get('orderNo')
  const info = await api<{ amount: number }>(`/order/getOrderInfo?orderNo=${orderNo}`, { session })
  assert.equal(info.data.amount, 700)

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
  assert.deepEqual(phone.errors, [])
})
