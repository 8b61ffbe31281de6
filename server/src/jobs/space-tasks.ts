import type { Services } from '../services'
import { SPACE_TASK_JOB } from '../services/space'
import type { JobDefinition } from './scheduler'

/**
 * Follows one backup or restore at the supplier (payload `{ taskId }`), queued in the transaction that
 * recorded the task; after a crash the scheduler hands it out again once its lease is over, and the
 * supplier call is keyed by the task, so it picks up the same supplier work.
 */
export function spaceTaskJob(services: Services): JobDefinition {
  return {
    kind: SPACE_TASK_JOB,
    maxAttempts: 10,
    async run(payload) {
      const taskId = Number(payload.taskId)
      if (!Number.isInteger(taskId))
        throw new Error(`bad space-task payload ${JSON.stringify(payload)}`)
      return services.space.advance(taskId)
    },
  }
}
