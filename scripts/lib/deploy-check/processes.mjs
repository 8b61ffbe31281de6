/**
 * The processes the check starts (servers, tools) and their clean-up: whatever happens, every child is
 * killed, what was registered with onCleanup runs and the work directory is removed.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import { expect, fail } from './check.mjs'
import { API, repoRoot, START_TIMEOUT_MS } from './context.mjs'

export const work = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-'))
export const children = new Set()
const cleanups = []
let cleaned = false

/** `fn` runs at clean-up, after the children are killed and before the work directory goes. */
export const onCleanup = (fn) => cleanups.push(fn)

export function cleanup() {
  if (cleaned) return
  cleaned = true
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  for (const fn of cleanups) fn()
  fs.rmSync(work, { recursive: true, force: true })
}

// From the moment the work directory exists: at exit, and on SIGINT or SIGTERM (a timeout's), exit 1.
process.on('exit', cleanup)
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    console.error(`\ndeploy-check: ${signal}, cleaning up`)
    cleanup()
    process.exit(1)
  })

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** The process's exit, or null if it has not exited within `ms`. */
export const exitWithin = (exited, ms) =>
  Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(null), ms))])

export function run(command, args, env = {}, quiet = false) {
  const result = spawnSync(command, args, {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (result.status !== 0 && !quiet)
    fail(
      `${path.basename(command)} ${args.join(' ')} exited ${result.status}:\n${result.stderr}${result.stdout}`,
    )
  return result.stdout
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Only these reach a server: what the operator's environment file would hold, and nothing of ours. */
export const baseEnv = () => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME ?? work,
  LANG: 'C.UTF-8',
})

/** Starts `node --import tsx server/src/main.ts` (npm start without npm) with exactly `env`. */
export function startServer(name, env) {
  const logFile = path.join(work, `${name}.log`)
  const out = fs.openSync(logFile, 'w')
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', out, out],
  })
  fs.closeSync(out)
  children.add(child)
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return { name, child, env, logFile, exited, log: () => fs.readFileSync(logFile, 'utf8') }
}

export const tail = (server, lines = 25) =>
  `--- last lines of ${server.name}'s log (${server.logFile}) ---\n` +
  server.log().trimEnd().split('\n').slice(-lines).join('\n')

export async function http(server, method, route, body, headers = {}) {
  const response = await fetch(`http://127.0.0.1:${server.env.PORT}${API}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  try {
    return { status: response.status, ...JSON.parse(text) }
  } catch {
    return { status: response.status, text }
  }
}

/** Waits for /health to answer {db: 'ok'}; fails at once if the server exits first. */
export async function healthy(server) {
  const deadline = Date.now() + START_TIMEOUT_MS
  let exit = null
  void server.exited.then((value) => (exit = value))
  for (;;) {
    if (exit)
      fail(
        `${server.name} exited (${JSON.stringify(exit)}) before answering /health\n${tail(server)}`,
      )
    try {
      const reply = await http(server, 'GET', '/health')
      if (reply.status === 200 && reply.code === 200 && reply.data?.db === 'ok') return
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline)
      fail(`${server.name}: no healthy /health in ${START_TIMEOUT_MS / 1000} s\n${tail(server)}`)
    await sleep(250)
  }
}

/** SIGTERM, as systemd stops a unit: the server must close and exit 0 within 15 s. */
export async function stopServer(server) {
  server.child.kill('SIGTERM')
  const outcome = await exitWithin(server.exited, 15_000)
  expect(outcome !== null, `${server.name} did not stop within 15 s of SIGTERM\n${tail(server)}`)
  expect(
    outcome.code === 0,
    `${server.name} stopped with ${JSON.stringify(outcome)}\n${tail(server)}`,
  )
  children.delete(server.child)
}

/** Waits up to `ms` for the server to exit by itself; its exit. */
export async function exitOf(server, ms) {
  const outcome = await exitWithin(server.exited, ms)
  expect(outcome !== null, `${server.name} is still running after ${ms / 1000} s\n${tail(server)}`)
  children.delete(server.child)
  return outcome
}
