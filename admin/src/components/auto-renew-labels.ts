/** How the console names 自动续费's settings: the client's own words (src/domain/auto-renew.ts). */
import { autoRenewPayLabels } from '#domain/auto-renew'
import { durationLabel } from '#domain/catalogue'

export const AUTO_RENEW_PAY_LABELS: Record<number, string> = autoRenewPayLabels

export const autoRenewDuration = (days: number) => `每次${durationLabel(days)}`
