/**
 * One scheduler instance in its own process with its own pool (bench/jobs-scale.ts, queue part): says
 * 'ready' once connected, drains every due 'bench-noop' job on 'go' and answers how many it ran.
 */
import pg from 'pg'
import { wrapPool } from '../../server/src/db/client'
import { JobScheduler } from '../../server/src/jobs/scheduler'

const database = wrapPool(
  new pg.Pool({ connectionString: process.env.DRAIN_DATABASE_URL, max: 10 }),
)
const at = new Date(Number(process.env.DRAIN_AT))
const log = { error: (...args: unknown[]) => console.error(...args) } as never
const scheduler = new JobScheduler(database.db, { now: () => at }, log, [
  { kind: 'bench-noop', maxAttempts: 1, async run() {} },
])

async function main() {
  await database.pool.query('select 1')
  process.send!('ready')
  await new Promise((resolve) => process.once('message', resolve))
  let ran = 0
  for (;;) {
    const n = await scheduler.runDue()
    if (n === 0) break
    ran += n
  }
  process.send!({ ran })
  await database.close()
  process.disconnect()
}

void main()
