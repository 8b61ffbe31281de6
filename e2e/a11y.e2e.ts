/**
 * Accessibility: axe-core on every page of the route table in the H5 build, logged in as a
 * user with one running phone (pages that take a phone get its id); and on every page of the operator
 * console at 1440×900, signed in as an admin (whose menu lists every page of admin/src/pages.tsx), with
 * the records it links to: an order, its user and its phone. No critical or serious violation may
 * remain: interactive elements have roles and names, images have text, contrast is readable.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ROUTES } from '#constants/routes'
import { apiLogin, consoleAxeReport, seedSession, seriousAxeViolations, setupE2E } from './harness'
import { createOperator, signInToConsole } from './console'
import { buyPhones } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '300' },
})

/** For a contrast finding: the colours and their ratio (what to change). */
const contrast = (checks: { data?: unknown }[]) => {
  const data = checks[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number }
  return data?.fgColor ? `${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}` : ''
}

test('axe finds no critical or serious violation on any page', async () => {
  const session = await apiLogin('13912380001')
  const [phone] = await buyPhones(session, 1, 30, 'a11y-e2e-phone')
  const { context, page } = await e2e.newPage()
  await seedSession(context, session)
  const report: string[] = []
  for (const [name, route] of Object.entries(ROUTES)) {
    const query = `deviceId=${phone.deviceId}&deviceIds=${phone.deviceId}`
    await e2e.open(page, `/${route.path}?${query}`)
    await page.waitForTimeout(300) // late renders after the data arrives
    for (const v of await seriousAxeViolations(page)) {
      const where = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${contrast(n.any)}`)
        .join('\n      ')
      report.push(`${name} (${route.path}): [${v.impact}] ${v.id} — ${v.help}\n      ${where}`)
    }
  }
  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
})

test('axe finds no critical or serious violation on any page of the operator console', async () => {
  const session = await apiLogin('13912380002')
  const [phone] = await buyPhones(session, 1, 30, 'a11y-e2e-console-phone')
  const operator = await createOperator(e2e, {
    name: 'e2e-a11y',
    password: 'e2e-a11y-password-1',
    role: 'admin',
  })
  const { page, errors } = await e2e.newDesktopPage()
  await signInToConsole(page, operator)
  const menu = page.getByRole('menu').first()
  const names = (await menu.getByRole('menuitem').allInnerTexts()).map((name) => name.trim())
  assert.ok(names.length >= 11, `the admin's menu lists every page: ${names.join('、')}`)
  const report: string[] = []
  for (const name of names) {
    await menu.getByText(name, { exact: true }).click()
    await page.locator('.ant-page-header-heading-title').filter({ hasText: name }).waitFor()
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(300) // late renders after the data arrives
    report.push(...(await consoleAxeReport(page, `${name} (${new URL(page.url()).pathname})`)))
  }
  // the record pages, reached by the links that name them: the order, its user, its phone
  await page.goto('/admin/orders')
  // the newest order: this test's phone
  await page.getByRole('link', { name: '查看' }).first().click()
  await page.getByText('支付记录').waitFor()
  report.push(...(await consoleAxeReport(page, 'order page')))
  await page.getByRole('link', { name: phone.name }).first().click()
  await page.waitForURL(`**/admin/devices/${phone.deviceId}`)
  await page.getByRole('tab').first().waitFor()
  report.push(...(await consoleAxeReport(page, 'phone page')))
  await page
    .getByRole('link', { name: /^1\d\d\*\*\*\*\d{4}/ })
    .first()
    .click()
  await page.waitForURL('**/admin/users/*')
  await page.getByRole('tab').first().waitFor()
  report.push(...(await consoleAxeReport(page, 'user page')))
  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
