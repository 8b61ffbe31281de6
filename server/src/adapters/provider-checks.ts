/**
 * The go-live smoke check's runner (`npm run providers:check`, scripts/providers-check.ts): each
 * configured provider's own check (in its adapter folder), run one after another, and what is printed of
 * each. A provider left on its sandbox is not asked, and printed as such.
 */
import type { ServerConfig } from '../config'
import type { ProviderCheckResult } from './provider-check'

/** One provider's check: whether the configuration has it real, and the check itself. */
export interface ProviderCheck {
  provider: ProviderCheckResult['provider']
  /** False: the provider is on its sandbox, which has nothing to check. */
  isReal(config: ServerConfig): boolean
  run(env: NodeJS.ProcessEnv): Promise<ProviderCheckResult>
}

export type ProviderCheckOutcome =
  | { provider: string; sandbox: true }
  | { provider: string; sandbox: false; result: ProviderCheckResult }

/** A check's result before it learns anything: not reached, nothing known. */
export const notReached = (provider: ProviderCheckResult['provider']): ProviderCheckResult => ({
  provider,
  reachable: false,
  credentialsAccepted: null,
  signatureVerified: null,
  missing: [],
  notes: [],
})

/** A real provider failed when it was not reached, refused us, signed wrong or something is missing. */
export const checkFailed = (result: ProviderCheckResult) =>
  !result.reachable ||
  result.credentialsAccepted !== true ||
  result.signatureVerified === false ||
  result.missing.length > 0

export async function runProviderChecks(
  checks: readonly ProviderCheck[],
  config: ServerConfig,
  env: NodeJS.ProcessEnv,
): Promise<ProviderCheckOutcome[]> {
  const outcomes: ProviderCheckOutcome[] = []
  for (const check of checks) {
    if (!check.isReal(config)) outcomes.push({ provider: check.provider, sandbox: true })
    else outcomes.push({ provider: check.provider, sandbox: false, result: await check.run(env) })
  }
  return outcomes
}

const yesNo = (value: boolean | null) => (value === null ? '—' : value ? 'yes' : 'NO')

/** The lines printed for one provider. */
export function formatOutcome(outcome: ProviderCheckOutcome): string[] {
  if (outcome.sandbox) return [`${outcome.provider}: sandbox (not checked)`]
  const { result } = outcome
  return [
    `${result.provider}: ${checkFailed(result) ? 'FAILED' : 'ok'}`,
    `  reachable: ${yesNo(result.reachable)}`,
    `  credentials accepted: ${yesNo(result.credentialsAccepted)}`,
    `  signature verified: ${yesNo(result.signatureVerified)}`,
    ...result.missing.map((line) => `  missing: ${line}`),
    ...result.notes.map((line) => `  note: ${line}`),
  ]
}
