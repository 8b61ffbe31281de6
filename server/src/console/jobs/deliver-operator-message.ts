import type { ConsoleServices } from '../services'
import { DELIVER_OPERATOR_MESSAGE_JOB } from '../services/messages'
import type { JobDefinition } from '../../jobs/scheduler'

/**
 * Delivers an operator's broadcast, batch after batch (console/services/messages.ts); queued in the
 * transaction that recorded it. Each batch commits with its cursor, so a run cut short resumes.
 */
export function deliverOperatorMessageJob(services: ConsoleServices): JobDefinition {
  return {
    kind: DELIVER_OPERATOR_MESSAGE_JOB,
    maxAttempts: 20,
    async run(payload) {
      const id = Number(payload.operatorMessageId)
      if (!Number.isInteger(id)) throw new Error(`bad ${DELIVER_OPERATOR_MESSAGE_JOB} payload`)
      while (await services.messages.deliverBatch(id)) {
        // next batch
      }
    },
  }
}
