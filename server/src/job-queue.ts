/**
 * The job queue's port: services add job rows with these, inside their own transaction. It imports
 * only the database, so services never reach up into the scheduler that runs the jobs (jobs/scheduler.ts).
 */
import type { Db } from './db/client'
import { chunks } from './db/id-arrays'
import { jobs } from './db/schema'

/**
 * Adds a job row with the given query layer, so a caller can enqueue inside its own transaction and
 * the job exists exactly when the work that needs it was committed. A duplicate uniqueKey is ignored.
 */
export async function enqueueJob(
  db: Db,
  now: Date,
  kind: string,
  payload: Record<string, unknown>,
  options: { runAt?: Date; uniqueKey?: string } = {},
) {
  await enqueueJobs(db, now, [{ kind, payload, ...options }])
}

/** Several jobs in one insert (e.g. one per phone of a batch); duplicate uniqueKeys are ignored. */
export async function enqueueJobs(
  db: Db,
  now: Date,
  rows: { kind: string; payload: Record<string, unknown>; runAt?: Date; uniqueKey?: string }[],
) {
  // In chunks: a 10,000-phone renewal's sync jobs are ten inserts, not one with 60,000 parameters.
  for (const chunk of chunks(rows)) {
    await db
      .insert(jobs)
      .values(
        chunk.map((row) => ({
          kind: row.kind,
          payload: row.payload,
          runAt: row.runAt ?? now,
          uniqueKey: row.uniqueKey ?? null,
          createdAt: now,
        })),
      )
      .onConflictDoNothing()
  }
}
