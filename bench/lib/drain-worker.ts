/**
 * One scheduler instance in its own process with its own pool (bench/jobs-scale.ts, queue part): says
 * 'ready' once connected, drains every due 'bench-noop' job on 'go' and answers how many it ran and
 * the CPU it used.
 */
import pg from 'pg'
import { wrapPool } from '../../server/src/db/client'
import { JobScheduler } from '../../server/src/jobs/scheduler'

const pool = new pg.Pool({ connectionString: process.env.DRAIN_DATABASE_URL, max: 10 })
const database = wrapPool(pool)
const at = new Date(Number(process.env.DRAIN_AT))
const log = { error: (...args: unknown[]) => console.error(...args) } as never
/** A job that waits this long on something remote (a supplier call); 0: pure queue overhead. */
const JOB_MS = Number(process.env.DRAIN_JOB_MS ?? 0)
const scheduler = new JobScheduler(database.db, { now: () => at }, log, [
  {
    kind: 'bench-noop',
    maxAttempts: 1,
    async run() {
      if (JOB_MS > 0) await new Promise((resolve) => setTimeout(resolve, JOB_MS))
    },
  },
])

async function main() {
  await pool.query('select 1')
  process.send!('ready')
  await new Promise((resolve) => process.once('message', resolve))
  let ran = 0
  const cpu = process.cpuUsage()
  for (;;) {
    const n = await scheduler.runDue()
    if (n === 0) break
    ran += n
  }
  const used = process.cpuUsage(cpu)
  process.send!({ ran, cpuMs: (used.user + used.system) / 1000 })
  await database.close()
  process.disconnect()
}

void main()
