import type { Services } from '../services'
import type { JobDefinition } from './scheduler'

/** Every 10 minutes: usable coupons past their end (and not held by an unpaid order) become expired. */
export function expireCouponsJob(services: Services): JobDefinition {
  return {
    kind: 'expire-coupons',
    everyMs: 10 * 60_000,
    async run(_payload, now) {
      const expired = await services.coupons.expire(now)
      if (expired > 0) services.ctx.log.info({ expired }, 'expired coupons')
    },
  }
}
