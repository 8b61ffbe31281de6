/**
 * One owner per data directory (data-dir-lock.ts). The lock is stale only when its owner is provably
 * dead, never after a time: a stopped server keeps its directory however long it is stopped, a killed
 * one's lock is taken over at once, a crowd of starters yields exactly one owner, and a server whose
 * lock is deleted or replaced stops at once.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { DataDirLockedError, lockDataDir } from '../../src/db/data-dir-lock'
import {
  callServer,
  launchServerProcess,
  loginOnServer,
  serverHealthy,
  startServerProcess,
  type ServerProcess,
} from '../helpers/server-process'
import type { Session } from '../helpers/test-app'

const REPO_ROOT = path.resolve(__dirname, '../../..')
const LOCK_CHILD = path.join(__dirname, '../helpers/lock-child.ts')
const LOCKED = /already open in another server process/
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function tempDir(t: TestContext, name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cloud-phone-lock-${name}-`))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

// ---- the lock itself, with tiny processes that only take it -------------------------------------

interface LockChild {
  child: ChildProcess
  output: () => string
}

function lockChild(dataDir: string, startAt: number, holdMs = 0): LockChild {
  let output = ''
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', LOCK_CHILD, dataDir, String(startAt), String(holdMs)],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  return { child, output: () => output }
}

async function untilOutput(c: LockChild, pattern: RegExp, ms = 30_000) {
  const deadline = Date.now() + ms
  while (!pattern.test(c.output())) {
    if (Date.now() > deadline || c.child.exitCode !== null) {
      assert.fail(`expected ${pattern}, got: ${c.output()}`)
    }
    await sleep(50)
  }
}

/** Starts `count` takers at one moment; exactly one must own the directory, the others are refused. */
async function crowd(t: TestContext, dataDir: string, count: number): Promise<LockChild> {
  const startAt = Date.now() + 4_000 // after every child has booted
  const takers = Array.from({ length: count }, () => lockChild(dataDir, startAt))
  t.after(() => takers.forEach((c) => c.child.kill('SIGKILL')))
  await Promise.all(takers.map((c) => untilOutput(c, /owned|locked/)))
  const owners = takers.filter((c) => c.output().startsWith('owned'))
  assert.equal(owners.length, 1, takers.map((c) => c.output()).join('\n'))
  for (const loser of takers.filter((c) => c !== owners[0])) {
    assert.match(loser.output(), LOCKED)
    assert.equal(await exited(loser.child), 0)
  }
  assert.deepEqual(fs.readdirSync(dataDir), ['pglite.lock'], 'no markers or private files left')
  return owners[0]
}

const lockRecord = (dataDir: string) =>
  JSON.parse(fs.readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8')) as Record<string, unknown>

test('a killed owner’s lock is taken over at once, by exactly one of many starters, also after a taker died mid-takeover', async (t) => {
  const dataDir = tempDir(t, 'crowd')
  const first = lockChild(dataDir, 0)
  await untilOutput(first, /owned/)
  first.child.kill('SIGKILL')
  await exited(first.child)

  const second = await crowd(t, dataDir, 6)
  const dead = lockRecord(dataDir)
  second.child.kill('SIGKILL')
  await exited(second.child)
  // A taker that claimed the right to replace the dead owner, then died before it did.
  const deadTaker = { ...dead, nonce: 'dead-taker' }
  fs.writeFileSync(
    path.join(dataDir, `pglite.lock.takeover-${String(dead.nonce)}`),
    JSON.stringify(deadTaker),
  )
  const third = await crowd(t, dataDir, 6)
  assert.notEqual(lockRecord(dataDir).nonce, dead.nonce)
  third.child.kill('SIGKILL')
})

test('an owner that is alive keeps its lock; a reused pid, another host and a lock of an older build are told apart', async (t) => {
  const dataDir = tempDir(t, 'unit')
  const lost: string[] = []
  const lock = lockDataDir(dataDir, (reason) => lost.push(reason))
  const mine = lockRecord(dataDir)
  assert.equal(mine.pid, process.pid)
  assert.throws(
    () => lockDataDir(dataDir, () => {}),
    (error: Error) => {
      assert.ok(error instanceof DataDirLockedError)
      assert.match(error.message, LOCKED)
      return true
    },
  )
  lock.release()
  assert.deepEqual(fs.readdirSync(dataDir), [], 'release deletes the lock')
  assert.deepEqual(lost, [])

  // The recorded pid is alive (it is ours) but started at another time: the owner is dead, pid reused.
  const lockPath = path.join(dataDir, 'pglite.lock')
  fs.writeFileSync(lockPath, JSON.stringify({ ...mine, startTime: '1', nonce: 'reused' }))
  lockDataDir(dataDir, () => {}).release()

  // Another host: never taken over; the operator is told what to check and what to delete.
  const foreign = { ...mine, hostname: 'db-host-2', nonce: 'foreign' }
  fs.writeFileSync(lockPath, JSON.stringify(foreign))
  assert.throws(
    () => lockDataDir(dataDir, () => {}),
    (error: Error) => {
      assert.ok(error instanceof DataDirLockedError)
      assert.match(error.message, /locked by process \d+ on host db-host-2/)
      assert.ok(error.message.includes(`delete ${lockPath}`), error.message)
      return true
    },
  )
  assert.deepEqual(JSON.parse(fs.readFileSync(lockPath, 'utf8')), foreign, 'left as it was')

  // proper-lockfile's directory: held while its server refreshed it, litter once it has not for 10 s.
  fs.rmSync(lockPath)
  fs.mkdirSync(lockPath)
  assert.throws(() => lockDataDir(dataDir, () => {}), LOCKED)
  const old = new Date(Date.now() - 20_000)
  fs.utimesSync(lockPath, old, old)
  lockDataDir(dataDir, () => {}).release()
})

test('an owner whose lock is deleted, replaced or rewritten hears of it within a second or two', async (t) => {
  const dataDir = tempDir(t, 'lost')
  const lockPath = path.join(dataDir, 'pglite.lock')
  const tamper = [
    () => fs.rmSync(lockPath),
    () => {
      fs.writeFileSync(`${lockPath}.x`, fs.readFileSync(lockPath))
      fs.renameSync(`${lockPath}.x`, lockPath) // same content, another file
    },
    () => fs.writeFileSync(lockPath, JSON.stringify({ ...lockRecord(dataDir), nonce: 'other' })),
  ]
  for (const change of tamper) {
    const lost: string[] = []
    const lock = lockDataDir(dataDir, (reason) => lost.push(reason))
    change()
    const deadline = Date.now() + 3_000
    while (lost.length === 0 && Date.now() < deadline) await sleep(100)
    assert.equal(lost.length, 1)
    assert.match(lost[0], /deleted or replaced/)
    lock.release()
    assert.ok(fs.existsSync(lockPath) || change === tamper[0], 'release leaves a lock not ours')
    fs.rmSync(lockPath, { force: true })
  }
})

// ---- the real server ------------------------------------------------------------------------------

/** A call that must succeed: its data. */
async function api<T = unknown>(
  server: ServerProcess,
  apiPath: string,
  json?: unknown,
  session?: Session,
) {
  const reply = await callServer<T>(server, apiPath, { json, session })
  assert.equal(reply.code, 200, `${apiPath}: ${reply.msg}`)
  return reply.data
}

const nameOf = async (server: ServerProcess, session: Session) =>
  (await api<{ name: string }>(server, '/user/getUserInfo', undefined, session)).name

const embeddedOnly = {
  // the server process runs on the embedded database; the PostgreSQL pass has nothing to add
  skip: process.env.TEST_DATABASE_URL ? 'embedded database only' : false,
}

test(
  'a server stopped longer than any timeout keeps its directory: a second one is refused, the first goes on and loses nothing',
  embeddedOnly,
  async (t) => {
    const dataDir = tempDir(t, 'stall')
    const first = await startServerProcess(t, dataDir)
    const session = await loginOnServer(first, '13500002101')
    await api(first, '/user/updateUserInfo', { name: '停顿前' }, session)

    first.child.kill('SIGSTOP')
    await sleep(12_000) // proper-lockfile took a lock not refreshed for 10 s as stale
    const second = await launchServerProcess(t, dataDir)
    const secondStarted = await serverHealthy(second)
    first.child.kill('SIGCONT')
    assert.equal(secondStarted, false, 'the second server must not serve the directory')
    assert.equal(await exited(second.child), 1)
    assert.match(second.output(), LOCKED)

    assert.equal(await nameOf(first, session), '停顿前', 'the first still serves')
    await api(first, '/user/updateUserInfo', { name: '继续后' }, session)
    first.child.kill('SIGTERM')
    assert.equal(await exited(first.child), 0)
    assert.equal(fs.existsSync(path.join(dataDir, 'pglite.lock')), false, 'released on shutdown')

    const third = await startServerProcess(t, dataDir)
    assert.equal(await nameOf(third, session), '继续后', 'every write of the first survived')

    // The lock replaced under a live server (another file in its place): it stops at once.
    const lockPath = path.join(dataDir, 'pglite.lock')
    fs.writeFileSync(
      `${lockPath}.other`,
      JSON.stringify({ ...lockRecord(dataDir), nonce: 'other' }),
    )
    fs.renameSync(`${lockPath}.other`, lockPath)
    const code = await Promise.race([exited(third.child), sleep(5_000).then(() => 'still running')])
    assert.equal(code, 1, third.output())
    assert.match(third.output(), /deleted or replaced; stopping at once/)
  },
)

test(
  'a killed server’s directory is taken over at once by the next start, which stops when its lock is deleted',
  embeddedOnly,
  async (t) => {
    const dataDir = tempDir(t, 'killed')
    const first = await startServerProcess(t, dataDir)
    const session = await loginOnServer(first, '13500002102')
    await api(first, '/user/updateUserInfo', { name: '崩溃前' }, session)
    first.child.kill('SIGKILL')
    await exited(first.child)

    const second = await startServerProcess(t, dataDir) // no wait: the owner is dead, not merely quiet
    assert.equal(await nameOf(second, session), '崩溃前')

    fs.rmSync(path.join(dataDir, 'pglite.lock'))
    const code = await Promise.race([
      exited(second.child),
      sleep(5_000).then(() => 'still running'),
    ])
    assert.equal(code, 1, second.output())
    assert.match(second.output(), /deleted or replaced; stopping at once/)
    await assert.rejects(fetch(`${second.url}/health`), 'nothing answers any more')
  },
)
