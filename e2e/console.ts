/**
 * The operator console in e2e: an operator made on the command line as docs/operations.md says, and
 * signing in as one at /admin.
 */
import type { Page } from 'playwright-core'
import { generateSync } from 'otplib'
import { OPERATOR_ROLE_LABELS, type OperatorRole } from '#domain/console/operator-roles'
import type { E2E } from './harness'

export interface ConsoleOperator {
  name: string
  password: string
  role: OperatorRole
  /** The TOTP secret admin:create printed (as its otpauth:// URL), as an authenticator app keeps it. */
  secret: string
}

/**
 * `npm run admin:create -- <name> <role>` on the server's data, ADMIN_PASSWORD giving the password (the
 * server restarts around it); the secret is read from the otpauth:// URL it prints.
 */
export async function createOperator(
  e2e: E2E,
  who: Omit<ConsoleOperator, 'secret'>,
): Promise<ConsoleOperator> {
  const printed = await e2e.operator(['scripts/admin-create.ts', who.name, who.role], {
    ADMIN_PASSWORD: who.password,
  })
  const url = printed.match(/otpauth:\/\/totp\/\S+/)?.[0]
  const secret = url && new URL(url).searchParams.get('secret')
  if (!secret) throw new Error(`admin:create printed no otpauth URL:\n${printed}`)
  return { ...who, secret }
}

/** The TOTP code of now, as an authenticator app shows it. */
export const totp = (secret: string): string => generateSync({ secret })

/**
 * Fills in the sign-in form at /admin (name, password, a code: now's unless given) and sends it. The
 * caller waits for what should follow: the shell, or a refusal.
 */
export async function submitSignIn(
  page: Page,
  who: { name: string; password: string },
  code: string,
): Promise<void> {
  await page.getByLabel('账号').fill(who.name)
  await page.getByLabel('密码').fill(who.password)
  await page.getByLabel('动态码').fill(code)
  await page.getByRole('button', { name: /登\s*录/ }).click()
}

/** Opens /admin and signs in; answers once the shell names the operator and their role. */
export async function signInToConsole(
  page: Page,
  operator: ConsoleOperator,
  code = totp(operator.secret),
): Promise<void> {
  await page.goto('/admin')
  await submitSignIn(page, operator, code)
  await page.getByText(`${operator.name}（${OPERATOR_ROLE_LABELS[operator.role]}）`).waitFor()
}
