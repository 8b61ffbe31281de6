/**
 * Accessibility (issue 6): axe-core on every page of the route table in the H5 build, logged in as a
 * user with one running phone (pages that take a phone get its id). No critical or serious violation
 * may remain: interactive elements have roles and names, images have text, contrast is readable.
 */
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { ROUTES } from '#constants/routes'
import { apiLogin, runScriptFile, seedSession, setupE2E } from './harness'
import { buyPhones } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '300' },
})
const AXE_SOURCE = createRequire(__filename).resolve('axe-core/axe.min.js')

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[]; html: string; any: { data?: unknown }[] }[]
}

/** axe's critical and serious findings on the page as it is now. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  await runScriptFile(page, AXE_SOURCE)
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: unknown, o: unknown) => Promise<unknown> } }
    ).axe
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: Violation[]
    }
    return result.violations
  })
  return violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
}

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
    for (const v of await seriousViolations(page)) {
      const where = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${contrast(n.any)}`)
        .join('\n      ')
      report.push(`${name} (${route.path}): [${v.impact}] ${v.id} — ${v.help}\n      ${where}`)
    }
  }
  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
})
