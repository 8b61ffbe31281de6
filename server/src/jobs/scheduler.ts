import { and, asc, eq, lte, or, sql, type SQL } from 'drizzle-orm'
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
/** Jobs a run of the poll claims before it looks again. */
const POLL_BATCH = 100
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
  private stopped = false

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

  /**
   * Claims due jobs in one statement (no transaction round trips): the earliest pending job due now and
   * the earliest running one whose lease ran out, each locked FOR UPDATE SKIP LOCKED, so two instances
   * never claim the same row. Each half is one range of the (status, run_at) index: the claim costs
   * the same with 20 or 20,000 jobs waiting (the OR of both it replaces sorted every due row).
   */
  private async claim(most: number): Promise<(typeof jobs.$inferSelect)[]> {
    const now = this.clock.now()
    // `= any(array(…))` runs each subquery once (as `in (…)` the planner may rerun it in a join).
    const due = (where: SQL | undefined) =>
      sql`${jobs.id} = any(array(${this.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(where)
        .orderBy(asc(jobs.runAt))
        .limit(1)
        .for('update', { skipLocked: true })}))`
    const pending = due(and(eq(jobs.status, 'pending'), lte(jobs.runAt, now)))
    const lapsed = due(and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, now)))
    const take = (where: SQL | undefined) =>
      this.db
        .update(jobs)
        .set({
          status: 'running',
          lockedUntil: new Date(now.getTime() + LEASE_MS),
          attempts: sql`${jobs.attempts} + 1`,
        })
        .where(where)
        .returning()
    // asked for one job only (runDue(1)): a pending one, else one whose lease ran out
    if (most < 2) {
      const claimed = await take(pending)
      return claimed.length > 0 ? claimed : take(lapsed)
    }
    const claimed = await take(or(pending, lapsed))
    return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime())
  }

  /** Runs due jobs one by one until none is left; returns how many ran. */
  async runDue(limit = 100): Promise<number> {
    let ran = 0
    while (ran < limit) {
      const claimed = await this.claim(limit - ran)
      if (claimed.length === 0) break
      for (const job of claimed) {
        ran++
        await this.runOne(job)
      }
    }
    return ran
  }

  private async runOne(job: typeof jobs.$inferSelect) {
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
          runAt: new Date(now.getTime() + (definition?.everyMs ?? RETRY_BACKOFF_MS * job.attempts)),
          lockedUntil: null,
          lastError: message.slice(0, 2000),
        })
        .where(eq(jobs.id, job.id))
    }
  }

  /**
   * One poll: runs due jobs `batch` at a time, and while a run found a full batch (a backlog, such as a
   * studio's 10,000 sync jobs after its renewal) the next run starts at once instead of a poll later:
   * at 100 jobs a poll every 5 s, one instance ran at most 20 jobs a second however fast the jobs were
   * (500 s for the studio). Between runs the event loop gets a turn: on PGlite (in-process, its
   * queries resolve without I/O) a run holds the process, and the requests waiting are answered before
   * the next. Ends at the first run short of a batch, or once stop() is called.
   */
  async poll(batch = POLL_BATCH): Promise<number> {
    let total = 0
    for (;;) {
      const ran = await this.runDue(batch)
      total += ran
      if (ran < batch || this.stopped) return total
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  start(pollMs = 5_000): void {
    if (this.timer) return
    this.stopped = false
    this.timer = setInterval(() => {
      if (this.running) return
      this.running = this.poll().catch((error) => {
        this.log.error({ err: error }, 'job poll failed')
        return 0
      })
      void this.running.finally(() => (this.running = null))
    }, pollMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
  }
}
