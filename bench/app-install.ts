/**
 * One app installed on a studio's phones (应用管理, docs/apps.md "Batch install"), 20 vs 10,000 phones
 * in the same run, on the sandbox supplier (the fake): POST /app/install with 全选, then the app-install
 * job drained by one worker as one server instance does, while the page's progress is read, until
 * every phone has its result. The job looks again INSTALL_POLL_MS (3 s) after each run, so that wait is
 * in the time until every result is in. Printed per size: the supplier's calls (installs, with the most phones
 * in one, and task-state asks), the job's runs, the time to accept the batch and until every result is
 * in, and per phone.
 *
 *   node --import tsx bench/app-install.ts            (PGlite; TEST_DATABASE_URL=… for PostgreSQL)
 *
 * SIZES=20,10000 by default; BENCH_SHORT=1 (scripts/bench-smoke.mjs): 20 vs 200. DELAY_MS is the
 * sandbox's install time (default 0: what is measured is our side, not the fake's wait). The phones
 * and their sandbox instances are written directly (e2e/fixtures/studio-phones.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildApp, type App } from '../server/src/app'
import type { AppInstaller } from '../server/src/adapters/supplier/app-installer'
import { buildApk } from '../server/test/helpers/apk'
import { createTestDatabase } from '../server/test/helpers/test-database'
import { testConfig } from '../server/test/helpers/test-config'
import { writeStudioPhones } from '../e2e/fixtures/studio-phones'
import { call, login } from './lib/api-load'

const SHORT = process.env.BENCH_SHORT === '1'
const SIZES = (process.env.SIZES ?? (SHORT ? '20,200' : '20,10000')).split(',').map(Number)
const DELAY_MS = Number(process.env.DELAY_MS ?? 0)
/** How often the bench reads the progress (the page reads it every 2 s; this sees the end sooner). */
const READ_EVERY_MS = 100

interface Progress {
  installId: number
  total: number
  done: number
  installed: number
  failed: number
  skipped: number
  finished: boolean
  text: string
}

interface Figures {
  size: number
  installCalls: number
  largestCall: number
  stateCalls: number
  jobRuns: number
  progressReads: number
  acceptMs: number
  allResultsMs: number
  installed: number
}

/** Counts the supplier's calls by wrapping the sandbox installer's two methods. */
function countCalls(installer: AppInstaller) {
  const counts = { install: 0, largest: 0, states: 0 }
  const install = installer.install.bind(installer)
  const taskStates = installer.taskStates.bind(installer)
  Object.assign(installer, {
    install: (ids: string[], app: Parameters<typeof install>[1]) => {
      counts.install += 1
      counts.largest = Math.max(counts.largest, ids.length)
      return install(ids, app)
    },
    taskStates: (tasks: Parameters<typeof taskStates>[0]) => {
      counts.states += 1
      return taskStates(tasks)
    },
  })
  return counts
}

async function measure(app: App, size: number, mobilePhone: string): Promise<Figures> {
  const session = await login(app, mobilePhone)
  const headers = { token: session.token, userid: String(session.userId) }
  await writeStudioPhones(app.services.ctx.db, session.userId, size)
  const item = await app.services.apps.upload(
    session.userId,
    buildApk({ packageName: `com.bench.studio${size}` }),
  )
  // only this batch's job is due: anything left from setting up is done first
  while ((await app.jobs.runDue(1000)) > 0);
  const counts = countCalls(app.services.ctx.supplier.apps!)
  const before = { ...counts }

  const t0 = performance.now()
  const started = (await call(app, 'POST', '/app/install', headers, {
    appId: item.appId,
    all: true,
  })) as Progress
  const t1 = performance.now()
  let jobRuns = 0
  let reads = 0
  let progress = started
  while (!progress.finished) {
    jobRuns += await app.jobs.runDue(10)
    progress = (await call(
      app,
      'GET',
      `/app/install/progress?installId=${started.installId}`,
      headers,
    )) as Progress
    reads += 1
    if (!progress.finished) await new Promise((resolve) => setTimeout(resolve, READ_EVERY_MS))
    if (reads > 3_000) throw new Error(`install ${started.installId} never finished`)
  }
  const t2 = performance.now()
  if (progress.total !== size || progress.installed !== size) {
    throw new Error(`${size} phones: ${progress.text} (${progress.installed} installed)`)
  }
  return {
    size,
    installCalls: counts.install - before.install,
    largestCall: counts.largest,
    stateCalls: counts.states - before.states,
    jobRuns,
    progressReads: reads,
    acceptMs: t1 - t0,
    allResultsMs: t2 - t0,
    installed: progress.installed,
  }
}

async function main() {
  const database = await createTestDatabase()
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-app-install-files-'))
  const privateFilesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-app-install-private-'))
  const app = await buildApp({
    config: testConfig({
      filesDir,
      privateFilesDir,
      sandboxSupplierDelayMs: DELAY_MS,
      sandboxSupplierFailureRate: 0,
    }),
    database,
    overrides: { logger: false },
  })
  try {
    await app.ready()
    const rows: Figures[] = []
    for (const [i, size] of SIZES.entries()) {
      rows.push(await measure(app, size, `1390000${String(4600 + i).padStart(4, '0')}`))
    }
    console.log(
      `app-install: ${SIZES.join(' vs ')} phones, ${os.cpus().length} cores, ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, sandbox install ${DELAY_MS} ms${SHORT ? ' (short mode: figures mean nothing)' : ''}`,
    )
    console.table(
      rows.map((r) => ({
        phones: r.size,
        'install calls': r.installCalls,
        'most phones a call': r.largestCall,
        'state asks': r.stateCalls,
        'job runs': r.jobRuns,
        'progress reads': r.progressReads,
        'accept ms': Math.round(r.acceptMs),
        'all results ms': Math.round(r.allResultsMs),
        'ms per phone': (r.allResultsMs / r.size).toFixed(2),
      })),
    )
  } finally {
    await app.close()
    await database.close()
    fs.rmSync(filesDir, { recursive: true, force: true })
    fs.rmSync(privateFilesDir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
