/**
 * The operator console at /admin in a 1440×900 desktop window: the first operator (made on
 * the command line, `npm run admin:create`) signs in with password and a TOTP code computed here; a wrong
 * code shows the server's message; the shell shows the admin's pages, name and role; a second operator
 * is created (its TOTP secret and QR code shown once), listed, and audited in 操作日志; 退出登录 ends the
 * session; the support operator it made signs in and no admin page is in its menu or opens for it. axe finds no critical or serious violation on sign-in, 操作员 and 操作日志.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OPERATOR_ROLE_LABELS } from '#domain/console/operator-roles'
import { operatorMessages, OperatorCode } from '#domain/result-codes'
import { screenshot, consoleAxeReport, setupE2E, sleep } from './harness'
import { createOperator, submitSignIn, totp } from './console'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const ADMIN = { name: 'e2e-root', password: 'e2e-root-password-1' }
const SUPPORT = { name: 'e2e-support', password: 'e2e-support-password-2' }

test('an operator signs in with password and TOTP, creates an operator, sees it audited and signs out', async () => {
  const { secret } = await createOperator(e2e, { ...ADMIN, role: 'admin' })
  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []

  await page.goto('/admin')
  await page.getByRole('heading', { name: '云手机运营后台' }).waitFor()
  report.push(...(await consoleAxeReport(page, 'sign-in')))
  await screenshot(page, 'admin-sign-in')

  // a wrong code: the server's message, still on the sign-in page
  const good = totp(secret)
  const wrong = good === '000000' ? '111111' : '000000'
  await submitSignIn(page, ADMIN, wrong)
  await page
    .getByRole('alert')
    .filter({ hasText: operatorMessages[OperatorCode.SIGN_IN_FAILED] })
    .waitFor()
  await screenshot(page, 'admin-sign-in-refused')

  await page.getByLabel('动态码').fill(good)
  await page.getByRole('button', { name: /登\s*录/ }).click()

  // the shell: the admin's pages, its name and role; /admin opens the first page, 概览
  await page.getByText(`${ADMIN.name}（${OPERATOR_ROLE_LABELS.admin}）`).waitFor()
  await page.waitForURL('**/admin/overview')
  await page.getByText('今日收入（元）').waitFor()
  await page.getByText('各地区库存').waitFor()
  await page.locator('canvas').first().waitFor() // the lazily loaded revenue chart
  report.push(...(await consoleAxeReport(page, '概览')))
  await screenshot(page, 'admin-overview')
  const menu = page.getByRole('menu').first()
  await menu.getByText('操作日志', { exact: true }).waitFor()
  await menu.getByText('操作员', { exact: true }).click()
  await page.waitForURL('**/admin/operators')
  const firstRow = page.getByRole('row').filter({ hasText: ADMIN.name })
  await firstRow.getByText(OPERATOR_ROLE_LABELS.admin).waitFor()
  report.push(...(await consoleAxeReport(page, '操作员')))

  // a second operator: its TOTP secret and QR code are shown once
  await page.getByRole('button', { name: '新建操作员' }).click()
  const form = page.getByRole('dialog', { name: '新建操作员' })
  await form.getByLabel('账号').fill(SUPPORT.name)
  await form.getByLabel('角色').click()
  // antd's drop-down items (its role=option twins are hidden, for screen readers)
  await page.locator(`.ant-select-item-option[title="${OPERATOR_ROLE_LABELS.support}"]`).click()
  await form.getByLabel('初始密码').fill(SUPPORT.password)
  await form.getByRole('button', { name: /创\s*建/ }).click()
  const shown = page.getByRole('dialog', { name: `${SUPPORT.name} 的动态码密钥` })
  await shown.waitFor()
  const newSecret = (await shown.getByTestId('totp-secret').innerText()).trim()
  assert.match(newSecret, /^[A-Z2-7]{16,}$/, 'a base32 TOTP secret')
  assert.equal(await shown.locator('canvas').count(), 1, 'the QR code')
  report.push(...(await consoleAxeReport(page, '操作员 (new secret)')))
  await screenshot(page, 'admin-operator-created')
  await shown.getByRole('button', { name: '我已保存' }).click()
  await shown.waitFor({ state: 'hidden' })
  const supportRow = page.getByRole('row').filter({ hasText: SUPPORT.name })
  await supportRow.getByText(OPERATOR_ROLE_LABELS.support).waitFor()
  await supportRow.getByText('正常').waitFor()
  await screenshot(page, 'admin-operators')

  // the audit log: the creation, by whom, on which operator, with what it made
  await menu.getByText('操作日志', { exact: true }).click()
  await page.waitForURL('**/admin/audit')
  // (the command line's row names the first operator as its target: it is not this one)
  const created = page
    .getByRole('row')
    .filter({ hasText: '新建操作员' })
    .filter({ hasText: ADMIN.name })
    .filter({ hasText: SUPPORT.name })
  await created.first().waitFor()
  assert.equal(await created.count(), 1, 'one creation by the admin')
  // the target by name (a link to 操作员), what it made as a sentence, the time in 北京时间
  await created.getByRole('link', { name: SUPPORT.name }).waitFor()
  await created
    .getByText(`账号 ${SUPPORT.name}，角色 ${OPERATOR_ROLE_LABELS.support}`, { exact: false })
    .waitFor()
  await page.getByRole('columnheader', { name: '时间（北京时间）' }).waitFor()
  await created.getByRole('button', { name: /展开行|Expand row/ }).click()
  const diff = page.locator('.ant-table-expanded-row').first()
  await diff.getByRole('cell', { name: '账号', exact: true }).waitFor()
  await diff.getByRole('cell', { name: SUPPORT.name, exact: true }).waitFor()
  await diff.getByText(OPERATOR_ROLE_LABELS.support).waitFor()
  // signing in was audited too, and the command line's creation of the first operator
  await page.getByRole('row').filter({ hasText: '登录' }).first().waitFor()
  await page.getByRole('row').filter({ hasText: '命令行（admin:create）' }).first().waitFor()
  report.push(...(await consoleAxeReport(page, '操作日志')))
  await screenshot(page, 'admin-audit')

  // sign out: back to sign-in, and the session is gone for a reload too
  await page.getByRole('button', { name: '退出登录' }).click()
  await page.getByRole('heading', { name: '云手机运营后台' }).waitFor()
  await page.getByLabel('动态码').waitFor()
  await page.goto('/admin/operators')
  await page.getByLabel('动态码').waitFor()
  await sleep(300)
  assert.equal(await page.getByText(`${ADMIN.name}（`).count(), 0)

  // the new support operator signs in with its own secret: no admin page in its menu, none opens
  await submitSignIn(page, SUPPORT, totp(newSecret))
  await page.getByText(`${SUPPORT.name}（${OPERATOR_ROLE_LABELS.support}）`).waitFor()
  await page.getByText('你的角色无权打开此页面').waitFor()
  // its menu: the pages every role reads, none of the admin's
  await menu.getByText('用户', { exact: true }).waitFor()
  for (const adminPage of ['操作员', '操作日志']) {
    assert.equal(await menu.getByText(adminPage, { exact: true }).count(), 0, adminPage)
  }
  await page.goto('/admin/audit')
  await page.getByText('你的角色无权打开此页面').waitFor()
  await screenshot(page, 'admin-support-no-pages')

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
