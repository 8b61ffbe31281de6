/**
 * The console's 设置 page in a 1440×900 window, with a user on the H5 site in a 390×844 one: an
 * operations operator changes the customer-service hotline, and the user's 联系客服 shows it; renames the
 * seeded flash sale, rewrites its summary and changes its item's price and stock, and the user's activity page
 * shows the new title and summary, ¥2.00 and 剩余 8 件. axe finds nothing critical or serious on 设置 and its dialogs.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, consoleAxeReport, screenshot, seedSession, setupE2E } from './harness'
import { createOperator, signInToConsole } from './console'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const OPERATOR = { name: 'e2e-settings', password: 'e2e-settings-password' }
const USER_MOBILE = '13812340031'
const SECKILL_TITLE = '限时秒杀 · 1元抢畅享版云手机'
const NEW_TITLE = '周末秒杀 · 2元抢畅享版云手机'
const HOTLINE = '400-800-1234'
const NEW_SUMMARY = '畅享版 4核4G 云手机 7 天仅需 2 元，数量有限，先到先得'

test('an operator edits the hotline and the flash sale in 设置, and the H5 site shows them', async () => {
  const operator = await createOperator(e2e, { ...OPERATOR, role: 'operations' })
  const session = await apiLogin(USER_MOBILE)
  const phone = await e2e.newPage()
  await seedSession(phone.context, session)
  await e2e.open(phone.page, '/pages/CustomerService/index')
  await phone.page.getByText('400-820-8820').waitFor()

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator)
  await page.getByRole('menu').first().getByText('设置', { exact: true }).click()
  await page.waitForURL('**/admin/settings')
  await page.getByRole('cell', { name: SECKILL_TITLE, exact: true }).waitFor()
  await page.getByText('协议正文随用户端发布，不能在此修改').waitFor()
  report.push(...(await consoleAxeReport(page, '设置')))
  await screenshot(page, 'admin-settings')

  // 通用配置: the hotline
  await page.getByLabel('客服电话').fill(HOTLINE)
  await page.getByRole('button', { name: /保存通用配置/ }).click()
  await page.getByText('已保存，用户端下次读取时显示').waitFor()
  await e2e.open(phone.page, '/pages/CustomerService/index')
  await phone.page.getByText(HOTLINE).waitFor()
  await screenshot(phone.page, 'h5-customer-service-hotline')

  // the flash sale: its title and the line under it
  await page.getByRole('button', { name: `编辑活动 ${SECKILL_TITLE}` }).click()
  const activity = page.getByRole('dialog', { name: `编辑活动：${SECKILL_TITLE}` })
  await activity.getByLabel('活动标题').fill(NEW_TITLE)
  await activity.getByLabel('活动简介').fill(NEW_SUMMARY)
  report.push(...(await consoleAxeReport(page, 'activity dialog')))
  await activity.getByRole('button', { name: /保\s*存/ }).click()
  await activity.waitFor({ state: 'hidden' })
  await page.getByRole('cell', { name: NEW_TITLE, exact: true }).waitFor()

  // …and its item: ¥2.00, 8 in stock
  const activityRow = page.getByRole('row').filter({ hasText: NEW_TITLE })
  await activityRow.getByRole('button', { name: /展开行|Expand row/ }).click()
  await page
    .getByRole('button', { name: /^修改秒杀商品 / })
    .first()
    .click()
  const item = page.getByRole('dialog', { name: /^修改秒杀商品：/ })
  await item.getByLabel('秒杀价').fill('2')
  await item.getByLabel('库存').fill('8')
  report.push(...(await consoleAxeReport(page, 'seckill item dialog')))
  await screenshot(page, 'admin-settings-seckill')
  await item.getByRole('button', { name: /保\s*存/ }).click()
  await item.waitFor({ state: 'hidden' })
  await page.getByRole('cell', { name: '¥2.00', exact: true }).waitFor()

  const listed = await api<{ id: number; title: string }[]>('/activity/list', { session })
  const sale = listed.data.find((a) => a.title === NEW_TITLE)
  assert.ok(sale, `the renamed activity is listed: ${JSON.stringify(listed.data)}`)
  await e2e.open(phone.page, `/pages/webView/activity?id=${sale.id}`)
  const root = phone.page.locator('.taro_page:visible')
  await root.getByText(NEW_TITLE).first().waitFor()
  await root.getByText(NEW_SUMMARY).waitFor()
  await root.getByText('¥2.00').waitFor()
  await root.getByText(/剩余 8 件/).waitFor()
  await screenshot(phone.page, 'h5-seckill-edited')

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
