import type { Services } from '../services'
import { APP_INSTALL_JOB } from '../services/apps'
import type { JobDefinition } from './scheduler'

/**
 * Follows one batch install (payload `{ installId }`), queued in the transaction that recorded it:
 * sends its pending phones to the supplier and asks after the ones installing until every phone has
 * its result. After a crash the scheduler hands it out again; a phone already sent is only asked after.
 */
export function appInstallJob(services: Services): JobDefinition {
  return {
    kind: APP_INSTALL_JOB,
    maxAttempts: 10,
    async run(payload) {
      const installId = Number(payload.installId)
      if (!Number.isInteger(installId)) {
        throw new Error(`bad app-install payload ${JSON.stringify(payload)}`)
      }
      return services.appInstalls.advance(installId)
    },
  }
}
