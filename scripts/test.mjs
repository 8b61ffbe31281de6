#!/usr/bin/env node
/**
 * `npm test` — client tests (`jest --ci`) beside the server tests (the `test:server` script, globs
 * expanded for Node 20): the server's output streamed as it comes, then jest's, whole. Ends with one
 * line `N passed, N failed` summed over both runners, after the skipped count and the reasons tests were skipped (e.g. the PostgreSQL-only
 * tests when no TEST_DATABASE_URL is given). Exits 1 when a test failed, a runner failed without reporting a failed test
 * (e.g. a suite that does not compile), or a runner found no tests.
 */
import { spawn } from 'node:child_process'
import { repoRoot, scriptCommand } from './lib/script-command.mjs'

/**
 * Runs a command, keeping a copy of its output to parse (with its banner first, as `log`); `stream`
 * also prints it as it comes.
 */
function run(label, command, args, { stream }) {
  const banner = `\n=== ${label}: ${[command === process.execPath ? 'node' : command, ...args].join(' ')}\n`
  if (stream) console.log(banner)
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const keep = (to) => (chunk) => {
      output += chunk
      if (stream) to.write(chunk)
    }
    child.stdout.on('data', keep(process.stdout))
    child.stderr.on('data', keep(process.stderr))
    const end = (result) => resolve({ ...result, log: `${banner}\n${result.output}\n` })
    child.on('error', (error) => end({ code: 127, output: `${output}\n${error.message}` }))
    child.on('close', (code, signal) => end({ code: code ?? (signal ? 1 : 0), output }))
  })
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;]*m/g, '')

/** Jest: `Tests:       1 failed, 2 skipped, 40 passed, 43 total` (the last such line wins). */
function parseJest(text) {
  const line = stripAnsi(text)
    .split('\n')
    .filter((l) => /^Tests:\s/.test(l.trim()))
    .pop()
  if (!line) return null
  const count = (word) => Number(line.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0)
  const suites = stripAnsi(text)
    .split('\n')
    .filter((l) => /^Test Suites:\s/.test(l.trim()))
    .pop()
  const suitesFailed = Number(suites?.match(/(\d+) failed/)?.[1] ?? 0)
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    total: count('total'),
    suitesFailed,
  }
}

/** node:test: TAP `# pass N` / `# fail N` (non-TTY default on Node 20) or spec `ℹ pass N`. */
function parseNode(text) {
  const clean = stripAnsi(text)
  const count = (word) => {
    const all = [...clean.matchAll(new RegExp(`^(?:#|ℹ) ${word} (\\d+)\\s*$`, 'gm'))]
    return all.length ? Number(all[all.length - 1][1]) : null
  }
  const total = count('tests')
  const passed = count('pass')
  if (passed === null && total === null) return null
  const failed = (count('fail') ?? 0) + (count('cancelled') ?? 0)
  // TAP: `ok 3 - name # SKIP needs TEST_DATABASE_URL (PostgreSQL)`
  const skipReasons = [...clean.matchAll(/^\s*ok \d+ - .* # SKIP ?(.*)$/gm)].map(
    (m) => m[1] || 'skipped',
  )
  return {
    passed: passed ?? 0,
    failed,
    skipped: count('skipped') ?? 0,
    skipReasons,
    total: total ?? (passed ?? 0) + failed,
  }
}

/**
 * The client tests (jest) beside the server's: the server suite's two workers leave about an eighth of
 * the two cores idle (docs/performance.md, "Tests"). The server's output streams; jest's is printed
 * whole after it.
 */
async function clientTests() {
  const { code, output, log } = await run('client tests', 'npx', ['jest', '--ci'], {
    stream: false,
  })
  const parsed = parseJest(output) ?? { passed: 0, failed: 0, total: 0 }
  return { name: 'client (jest)', code, log, ...parsed }
}

async function serverTests() {
  const cmd = scriptCommand('test:server')
  if (cmd.patterns.length > 0 && cmd.files.length === 0) {
    console.error(`\n=== server tests: no files match ${cmd.patterns.join(' ')}`)
    return { name: 'server (node:test)', code: 1, passed: 0, failed: 0, total: 0 }
  }
  const { code, output } = await run('server tests', cmd.command, cmd.args, { stream: true })
  const parsed = parseNode(output) ?? { passed: 0, failed: 0, total: 0 }
  return { name: 'server (node:test)', code, ...parsed }
}

const results = await Promise.all([clientTests(), serverTests()])
process.stdout.write(results[0].log)

// --- summary -------------------------------------------------------------------------------------
console.log('\n=== summary')
let passed = 0
let failed = 0
let skipped = 0
const problems = []
for (const r of results) {
  console.log(
    `  ${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped ?? 0} skipped (exit ${r.code})`,
  )
  const reasons = new Map()
  for (const reason of r.skipReasons ?? []) reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  for (const [reason, n] of reasons) console.log(`    skipped ${n}: ${reason}`)
  passed += r.passed
  failed += r.failed
  skipped += r.skipped ?? 0
  if (r.total === 0 && !r.suitesFailed) problems.push(`${r.name} found no tests`)
  else if (r.code !== 0 && r.failed === 0) {
    // Suites that failed to load, a crash or a timeout: count them so the summary never says "0 failed".
    const uncounted = r.suitesFailed || 1
    failed += uncounted
    problems.push(
      r.suitesFailed
        ? `${r.name}: ${r.suitesFailed} test suite(s) failed to run (counted as failed)`
        : `${r.name} exited ${r.code} without reporting a failed test (counted as 1 failed)`,
    )
  }
}
for (const p of problems) console.log(`  ! ${p}`)
if (skipped > 0) console.log(`${skipped} skipped (reasons above)`)
// the last line stays `N passed, N failed`: CI reads it
console.log(`${passed} passed, ${failed} failed`)
// exitCode, not exit(): exit() drops what a pipe (CI's tee) has not taken yet, jest's whole output above
process.exitCode = failed > 0 || problems.length > 0 ? 1 : 0
