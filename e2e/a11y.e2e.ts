/**
 * Accessibility: axe-core on every page of the route table in the H5 build, logged in as a
 * user with one running phone (pages that take a phone get its id). No critical or serious violation
 * may remain: interactive elements have roles and names, images have text, contrast is readable.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ROUTES } from '#constants/routes'
import { apiLogin, seedSession, seriousAxeViolations, setupE2E } from './harness'
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
