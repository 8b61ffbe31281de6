import { and, asc, eq, lte, or, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/client'
import { jobs } from '../db/schema'
import { enqueueJob } from './queue'
import type { Clock } from '../clock'

export interface JobDefinition<Payload = Record<string, unknown>> {
  kind: string
  /** Recurring jobs keep one row and are rescheduled this long after each run. */
  everyMs?: number
  maxAttempts?: number
  /** A one-off job may ask to run again later (polling something remote) instead of finishing. */
  run(payload: Payload, now: Date): Promise<void | { rerunAt: Date }>
}

const LEASE_MS = 5 * 60_000
const RETRY_BACKOFF_MS = 30_000

/**
 * A small database-backed job queue. Rows are claimed with FOR UPDATE SKIP LOCKED, so several server
 * instances can share one PostgreSQL; a claimed row carries a lease, and a job whose process died is
 * claimed again once the lease runs out. Add a job by passing another JobDefinition.
 */
export class JobScheduler {
  private readonly definitions = new Map<string, JobDefinition>()
  private timer: NodeJS.Timeout | null = null
  private running: Promise<number> | null = null

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    definitions: JobDefinition[],
  ) {
    for (const definition of definitions) this.definitions.set(definition.kind, definition)
  }

  /** Makes sure every recurring job has its row (idempotent, safe on every start of every instance). */
  async ensureRecurring(): Promise<void> {
    const now = this.clock.now()
    for (const definition of this.definitions.values()) {
      if (!definition.everyMs) continue
      await this.db
        .insert(jobs)
        .values({
          kind: definition.kind,
          uniqueKey: `recurring:${definition.kind}`,
          runAt: now,
          createdAt: now,
        })
        .onConflictDoNothing()
    }
  }

  async enqueue(
    kind: string,
    payload: Record<string, unknown>,
    options: { runAt?: Date; uniqueKey?: string } = {},
  ) {
    if (!this.definitions.has(kind)) throw new Error(`unknown job kind ${kind}`)
    await enqueueJob(this.db, this.clock.now(), kind, payload, options)
  }

  private async claim() {
    const now = this.clock.now()
    return this.db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(jobs)
        .where(
          or(
            and(eq(jobs.status, 'pending'), lte(jobs.runAt, now)),
            and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, now)),
          ),
        )
        .orderBy(asc(jobs.runAt))
        .limit(1)
        .for('update', { skipLocked: true })
      if (!due) return null
      await tx
        .update(jobs)
        .set({
          status: 'running',
          lockedUntil: new Date(now.getTime() + LEASE_MS),
          attempts: sql`${jobs.attempts} + 1`,
        })
        .where(eq(jobs.id, due.id))
      return { ...due, attempts: due.attempts + 1 }
    })
  }

  /** Runs due jobs one by one until none is left; returns how many ran. */
  async runDue(limit = 100): Promise<number> {
    let ran = 0
    while (ran < limit) {
      const job = await this.claim()
      if (!job) break
      ran++
      const definition = this.definitions.get(job.kind)
      const now = this.clock.now()
      try {
        if (!definition) throw new Error(`no handler for job kind ${job.kind}`)
        const outcome = await definition.run(job.payload as Record<string, unknown>, now)
        await this.db
          .update(jobs)
          .set(
            outcome?.rerunAt && !definition.everyMs
              ? { status: 'pending', runAt: outcome.rerunAt, attempts: 0, lockedUntil: null }
              : definition.everyMs
                ? {
                    status: 'pending',
                    runAt: new Date(now.getTime() + definition.everyMs),
                    attempts: 0,
                    lockedUntil: null,
                    lastError: null,
                  }
                : { status: 'done', lockedUntil: null, lastError: null },
          )
          .where(eq(jobs.id, job.id))
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        this.log.error({ err: error, jobId: job.id, kind: job.kind }, 'job failed')
        const retry = definition?.everyMs || job.attempts < (definition?.maxAttempts ?? 5)
        await this.db
          .update(jobs)
          .set({
            status: retry ? 'pending' : 'failed',
            runAt: new Date(
              now.getTime() + (definition?.everyMs ?? RETRY_BACKOFF_MS * job.attempts),
            ),
            lockedUntil: null,
            lastError: message.slice(0, 2000),
          })
          .where(eq(jobs.id, job.id))
      }
    }
    return ran
  }

  start(pollMs = 5_000): void {
    if (this.timer) return
    this.timer = setInterval(() => {
      if (this.running) return
      this.running = this.runDue().catch((error) => {
        this.log.error({ err: error }, 'job poll failed')
        return 0
      })
      void this.running.finally(() => (this.running = null))
    }, pollMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
  }
}
