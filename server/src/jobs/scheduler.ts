import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, lte, or, sql, type SQL } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/client'
import { jobs } from '../db/schema'
import { enqueueJob } from '../job-queue'
import type { Clock } from '../clock'

export interface JobDefinition<Payload = Record<string, unknown>> {
  kind: string
  /** Recurring jobs keep one row and are rescheduled this long after each run. */
  everyMs?: number
  maxAttempts?: number
  /** A one-off job may ask to run again later (polling something remote) instead of finishing. */
  run(payload: Payload, now: Date): Promise<void | { rerunAt: Date }>
}

/**
 * A claimed job's lease, and how often its holder extends it while the job waits or runs. A process
 * that dies leaves its jobs to another (or to itself restarted) once the lease runs out: within a
 * minute, not the five it was; a job that runs longer than the lease keeps it as long as its process
 * lives, however long it takes.
 */
export interface LeaseTimes {
  leaseMs: number
  heartbeatMs: number
}
export const JOB_LEASE: LeaseTimes = { leaseMs: 45_000, heartbeatMs: 15_000 }
/** Jobs a run of the poll claims before it looks again. */
const POLL_BATCH = 100
const RETRY_BACKOFF_MS = 30_000

type Job = typeof jobs.$inferSelect

/**
 * A small database-backed job queue. Rows are claimed with FOR UPDATE SKIP LOCKED, so several server
 * instances can share one PostgreSQL; a claimed row carries a lease under a token of its claim, and a
 * job whose process died is claimed again once the lease runs out. While this process holds a job
 * (claimed, waiting its turn in the batch, or running) a heartbeat extends the lease, so a slow job
 * is never taken over; before each job starts, and when it ends, the token says whether the lease is
 * still ours, so no instance starts a job another holds, and one that lost its lease (it stalled past
 * it inside the job: jobs stay safe to run again) writes nothing over its new holder's work. Add a job
 * by passing another JobDefinition.
 */
export class JobScheduler {
  private readonly definitions = new Map<string, JobDefinition>()
  private timer: NodeJS.Timeout | null = null
  private running: Promise<number> | null = null
  private stopped = false
  /** The jobs this process holds: id → its claim's token, and the lease it last wrote for them. */
  private readonly held = new Map<number, { token: string; until: Date }>()
  private heartbeat: NodeJS.Timeout | null = null
  private beating: Promise<void> | null = null

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    definitions: JobDefinition[],
    private readonly lease: LeaseTimes = JOB_LEASE,
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
  private async claim(most: number): Promise<Job[]> {
    const now = this.clock.now()
    const token = randomUUID()
    const until = new Date(now.getTime() + this.lease.leaseMs)
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
          lockedUntil: until,
          leaseToken: token,
          attempts: sql`${jobs.attempts} + 1`,
        })
        .where(where)
        .returning()
    // asked for one job only (runDue(1)): a pending one, else one whose lease ran out
    let claimed = most < 2 ? await take(pending) : await take(or(pending, lapsed))
    if (most < 2 && claimed.length === 0) claimed = await take(lapsed)
    for (const job of claimed) this.held.set(job.id, { token, until })
    if (claimed.length > 0)
      this.heartbeat ??= setInterval(() => void this.beat(), this.lease.heartbeatMs)
    this.heartbeat?.unref()
    return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime())
  }

  /**
   * Extends the lease of every job this process holds, in one statement by their ids, where the token
   * is still the one of our claim; a job whose lease was taken over meanwhile (this process stalled past
   * it) is ours no more. One beat at a time.
   */
  private beat(): Promise<void> {
    this.beating ??= (async () => {
      const ids = [...this.held.keys()]
      if (ids.length === 0) return
      const until = new Date(this.clock.now().getTime() + this.lease.leaseMs)
      const tokens = [...new Set([...this.held.values()].map((lease) => lease.token))]
      const kept = await this.db
        .update(jobs)
        .set({ lockedUntil: until })
        .where(
          and(inArray(jobs.id, ids), inArray(jobs.leaseToken, tokens), eq(jobs.status, 'running')),
        )
        .returning({ id: jobs.id })
      const ours = new Set(kept.map((job) => job.id))
      for (const id of ids) {
        const lease = this.held.get(id)
        if (!lease) continue // ended while the beat was under way
        if (ours.has(id)) lease.until = until
        else {
          this.held.delete(id)
          this.log.warn({ jobId: id }, 'job lease taken over: this process no longer holds it')
        }
      }
    })()
      .catch((error: unknown) => {
        this.log.warn({ err: error }, 'job heartbeat failed; tried again on the next beat')
      })
      .finally(() => (this.beating = null))
    return this.beating
  }

  /** Lets a job go (it ended, or is no longer ours); the heartbeat stops with the last one. */
  private letGo(jobId: number) {
    this.held.delete(jobId)
    if (this.held.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat)
      this.heartbeat = null
    }
  }

  /**
   * Whether this process may start the job now: it still holds it, and its lease is not about to run
   * out. A lease close to its end (the heartbeat is late: the process stalled) is extended first, and
   * the job is left alone if that finds it taken over.
   */
  private async stillHeld(jobId: number): Promise<boolean> {
    const lease = this.held.get(jobId)
    if (!lease) return false
    // less than a beat's interval left: at least one beat came late
    if (lease.until.getTime() - this.clock.now().getTime() < this.lease.heartbeatMs) {
      await this.beat()
    }
    return this.held.has(jobId)
  }

  /** Runs due jobs one by one until none is left; returns how many ran. */
  async runDue(limit = 100): Promise<number> {
    let ran = 0
    while (ran < limit) {
      const claimed = await this.claim(limit - ran)
      if (claimed.length === 0) break
      try {
        for (const job of claimed) {
          if (!(await this.stillHeld(job.id))) continue
          ran++
          await this.runOne(job)
        }
      } finally {
        // a run that failed part-way leaves the rest of its batch to whoever claims them next
        for (const job of claimed) this.letGo(job.id)
      }
    }
    return ran
  }

  private async runOne(job: Job) {
    const definition = this.definitions.get(job.kind)
    const now = this.clock.now()
    // the job's row as it ends, only while our claim's token is on it (else its new holder's)
    const end = async (values: Partial<Job>) => {
      const ended = await this.db
        .update(jobs)
        .set({ ...values, lockedUntil: null, leaseToken: null })
        .where(and(eq(jobs.id, job.id), eq(jobs.leaseToken, job.leaseToken!)))
        .returning({ id: jobs.id })
      if (ended.length === 0) {
        this.log.warn({ jobId: job.id, kind: job.kind }, 'job ended after its lease was taken over')
      }
    }
    try {
      if (!definition) throw new Error(`no handler for job kind ${job.kind}`)
      const outcome = await definition.run(job.payload as Record<string, unknown>, now)
      await end(
        outcome?.rerunAt && !definition.everyMs
          ? { status: 'pending', runAt: outcome.rerunAt, attempts: 0 }
          : definition.everyMs
            ? {
                status: 'pending',
                runAt: new Date(now.getTime() + definition.everyMs),
                attempts: 0,
                lastError: null,
              }
            : { status: 'done', lastError: null },
      )
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      this.log.error({ err: error, jobId: job.id, kind: job.kind }, 'job failed')
      const retry = definition?.everyMs || job.attempts < (definition?.maxAttempts ?? 5)
      await end({
        status: retry ? 'pending' : 'failed',
        runAt: new Date(now.getTime() + (definition?.everyMs ?? RETRY_BACKOFF_MS * job.attempts)),
        lastError: message.slice(0, 2000),
      })
    } finally {
      this.letGo(job.id)
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
