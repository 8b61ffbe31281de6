#!/usr/bin/env node
/**
 * `node scripts/test-files.mjs [--workers=N] [--exclude=<glob>]… <file or glob>…` — runs node:test files (TypeScript through
 * tsx) in N long-lived worker processes (scripts/lib/test-worker.mjs), each taking the next file when it
 * has finished the last, longest first by the previous run's times. `node --test` starts a process per
 * file, and a server test file's start costs about 9 s of CPU (docs/performance.md, "Tests"); here it is
 * paid once per worker. Files share a worker's process one after another, never at once, so a file owns
 * its data as it did; what a process keeps between files (compiled validators, the spare PGlite of
 * server/test/helpers/test-database.ts) is made to be reused.
 *
 * Output is TAP, each file's tests printed together, then the sums in node:test's own summary lines
 * (`# tests`, `# pass`, `# fail`, … which scripts/test.mjs reads) and the slowest files. Exits 1 when a
 * test failed, a worker died, or no file matched. N defaults to TEST_WORKERS or 2 (this 2-core machine:
 * three at a time was slower).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { END_OF_FILE } from './lib/test-worker.mjs'
import { expandGlob, repoRoot } from './lib/script-command.mjs'

const args = process.argv.slice(2)
const workersArg = args.find((a) => a.startsWith('--workers='))
const workerCount = Number(workersArg?.split('=')[1] ?? process.env.TEST_WORKERS ?? 2)
const expand = (patterns) => patterns.flatMap((a) => (/[*?{[]/.test(a) ? expandGlob(a) : [a]))
const excluded = new Set(
  expand(args.filter((a) => a.startsWith('--exclude=')).map((a) => a.slice('--exclude='.length))),
)
const files = [...new Set(expand(args.filter((a) => !a.startsWith('--'))))].filter(
  (f) => !excluded.has(f),
)
if (files.length === 0) {
  console.error(`test-files: no test files match ${args.join(' ')}`)
  process.exit(1)
}

// Longest first (the last run's times; a file without one first of all), so no worker ends with a long file alone.
const timesPath = path.join(repoRoot, 'node_modules/.cache/test-files-times.json')
let lastTimes = {}
try {
  lastTimes = JSON.parse(fs.readFileSync(timesPath, 'utf8'))
} catch {
  // first run on this clone
}
const queue = [...files].sort(
  (a, b) => (lastTimes[b] ?? Infinity) - (lastTimes[a] ?? Infinity) || a.localeCompare(b),
)

const SUMMARY = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']
const totals = Object.fromEntries(SUMMARY.map((k) => [k, 0]))
const times = {}
let endOfFileTests = 0
let workersFailed = 0
const started = performance.now()

console.log(`TAP version 13\n# ${files.length} files, ${workerCount} workers`)

function runWorker(id) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test-reporter=tap', 'scripts/lib/test-worker.mjs'],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
        env: { ...process.env, TEST_WORKER_ID: String(id) },
      },
    )
    let current = null
    const next = () => {
      current = queue.shift() ?? null
      child.send(current ? { file: current } : { done: true })
    }
    child.on('message', (message) => {
      if (message.finished) times[message.finished] = message.ms
      next()
    })

    // A top-level test's block runs from its `# Subtest:` line to the next one; printed whole, so the
    // workers' output does not interleave inside a test.
    let pending = ''
    let block = []
    const flush = () => {
      if (block.length === 0) return
      const text = block.join('\n')
      if (block[0].startsWith(`# Subtest: ${END_OF_FILE}`)) {
        endOfFileTests += 1
        if (!/^ok /m.test(text)) process.stdout.write(`${text}\n`) // never expected; shown if it happens
      } else process.stdout.write(`${text}\n`)
      block = []
    }
    let failedHere = 0
    const onLine = (line) => {
      const summary = line.match(/^# (\w+) (\d+)$/)
      if (summary && SUMMARY.includes(summary[1])) {
        totals[summary[1]] += Number(summary[2])
        if (summary[1] === 'fail' || summary[1] === 'cancelled') failedHere += Number(summary[2])
        return
      }
      if (line === 'TAP version 13' || /^1\.\.\d+$/.test(line) || /^# duration_ms /.test(line))
        return
      if (line.startsWith('# Subtest: ')) flush()
      block.push(line)
      // the end-of-file test's block ends with its YAML: what the next file prints is not part of it
      if (line === '  ...' && block[0].startsWith(`# Subtest: ${END_OF_FILE}`)) flush()
    }
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk) => {
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop()
      lines.forEach(onLine)
    })
    child.on('close', (code, signal) => {
      if (pending) onLine(pending)
      flush()
      if (current) {
        // died inside a file: that file and the worker count as failed
        console.log(
          `not ok - ${current}: worker ${id} exited (${signal ?? code}) before it finished`,
        )
        workersFailed += 1
      } else if (signal || (code !== 0 && failedHere === 0)) {
        console.log(`not ok - worker ${id} ended with ${signal ?? `exit ${code}`} after its files`)
        workersFailed += 1
      }
      resolve()
    })
  })
}

await Promise.all(Array.from({ length: workerCount }, (_, i) => runWorker(i + 1)))

// The worker's end-of-file tests are its own, not the files': out of the counts.
totals.tests -= endOfFileTests
totals.pass -= endOfFileTests
totals.fail += workersFailed
fs.mkdirSync(path.dirname(timesPath), { recursive: true })
fs.writeFileSync(timesPath, JSON.stringify({ ...lastTimes, ...times }, null, 1))

const slowest = Object.entries(times)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8)
console.log(`1..${totals.tests}`)
for (const key of SUMMARY) console.log(`# ${key} ${totals[key]}`)
console.log(`# duration_ms ${Math.round(performance.now() - started)}`)
console.log(
  `# slowest files: ${slowest.map(([f, ms]) => `${f} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
)
// exitCode, not exit(): exit() drops what a full pipe has not taken yet (the summary lines above)
process.exitCode = totals.fail > 0 || totals.cancelled > 0 ? 1 : 0
