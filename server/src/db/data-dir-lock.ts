import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/*
 * One owner per data directory. PGlite has no lock of its own, and two processes on one directory lose
 * each other's writes, so `<dataDir>/pglite.lock` names the process that owns the directory.
 *
 * Whether a lock is stale is decided by whether its owner is alive, never by a timer: a server stopped
 * for any time (SIGSTOP, a paused VM, a blocked event loop) keeps its directory. proper-lockfile, used
 * before, took a lock not refreshed for 10 s as stale, and a stalled server lost its directory to a
 * second one while it went on writing. The kernel's flock() would do it too, but Node has no call for
 * it and the addons on npm (fs-ext, fs-ext-extra-prebuilt) compile or download in an install script,
 * which installs run without.
 *
 * The lock records the owner's pid, its start time (/proc/<pid>/stat field 22, so a reused pid is not
 * taken for the owner), the boot id, the pid namespace and the hostname. A starter takes the directory
 * over only from an owner that is provably dead: on this host, in this pid namespace, and the pid gone,
 * a zombie or started at another time; or this host has booted since. A lock from another host or
 * container is never taken over: the operator is told what to check and which file to delete.
 *
 * Files appear whole: each is written under a private name first, then hard-linked (create if absent,
 * atomically) or renamed (replace, atomically) into place. Taking over a dead owner is serialised by a
 * marker `pglite.lock.takeover-<that owner's nonce>`, created exclusively: only its creator may rename
 * its own record over the lock, and only while the lock still holds that nonce. A starter that dies
 * holding a marker passes the right on: the next one takes over from it by the same rule, a chain whose
 * every link is one exclusive create. Markers are removed only once the lock names someone else, so no
 * marker can let two starters replace one owner.
 */

const LOCK_FILE = 'pglite.lock'
const TAKEOVER = `${LOCK_FILE}.takeover-`
const TMP_SUFFIX = '.tmp'
/** Locks of older builds are proper-lockfile's directories, refreshed every 2 s while their server ran. */
const LEGACY_STALE_MS = 10_000
const WATCH_MS = 1_000

interface OwnerRecord {
  pid: number
  /** /proc/<pid>/stat field 22 (clock ticks after boot), null where there is no /proc. */
  startTime: string | null
  bootId: string | null
  pidNamespace: string | null
  hostname: string
  nonce: string
  since: string
}

type Verdict = 'alive' | 'dead' | 'unknown'

export class DataDirLockedError extends Error {
  constructor(dataDir: string, message?: string) {
    super(
      message ??
        `The database directory ${dataDir} is already open in another server process. ` +
          'Stop that process, or start this one with a different DATA_DIR.',
    )
    this.name = 'DataDirLockedError'
  }
}

export interface DataDirLock {
  /** Stops watching and deletes the lock if it is still ours. */
  release(): void
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

const hasProc = fs.existsSync('/proc/self/stat')

function procStat(pid: number): { state: string; startTime: string } | null {
  const stat = readOrNull(`/proc/${pid}/stat`)
  if (stat === null) return null
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { state: fields[0], startTime: fields[19] }
}

function pidNamespace(): string | null {
  try {
    return fs.readlinkSync('/proc/self/ns/pid')
  } catch {
    return null
  }
}

function myRecord(): OwnerRecord {
  return {
    pid: process.pid,
    startTime: procStat(process.pid)?.startTime ?? null,
    bootId: readOrNull('/proc/sys/kernel/random/boot_id')?.trim() ?? null,
    pidNamespace: pidNamespace(),
    hostname: os.hostname(),
    nonce: crypto.randomBytes(12).toString('hex'),
    since: new Date().toISOString(),
  }
}

function verdict(owner: OwnerRecord, me: OwnerRecord): Verdict {
  if (owner.hostname !== me.hostname) return 'unknown'
  if (owner.bootId && me.bootId && owner.bootId !== me.bootId) return 'dead' // this host booted since
  if (owner.pidNamespace !== me.pidNamespace) return 'unknown' // another container: its pids are not ours
  try {
    process.kill(owner.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'dead'
    // EPERM: the pid exists, under another user
  }
  if (!hasProc) return 'alive' // the pid exists; without /proc that is all we can tell
  const stat = procStat(owner.pid)
  if (stat === null) return 'dead' // exited since the kill(0)
  if (stat.state === 'Z' || stat.state === 'X') return 'dead'
  if (owner.startTime !== null && stat.startTime !== owner.startTime) return 'dead' // the pid was reused
  return 'alive'
}

type Found =
  | { kind: 'none' }
  | { kind: 'record'; record: OwnerRecord; ino: number }
  | { kind: 'legacy'; mtimeMs: number }
  | { kind: 'unreadable' }

function readLock(file: string): Found {
  let stat: fs.Stats
  try {
    stat = fs.statSync(file)
  } catch {
    return { kind: 'none' }
  }
  if (stat.isDirectory()) return { kind: 'legacy', mtimeMs: stat.mtimeMs }
  const text = readOrNull(file)
  if (text === null) return { kind: 'none' }
  try {
    const record = JSON.parse(text) as OwnerRecord
    if (!Number.isInteger(record.pid) || record.pid <= 0 || typeof record.nonce !== 'string') {
      throw new Error('not a lock record')
    }
    return { kind: 'record', record, ino: stat.ino }
  } catch {
    return { kind: 'unreadable' }
  }
}

/** Hard link: creates `to` with the whole record, or fails with EEXIST. */
function linkExclusive(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

function unlinkQuietly(file: string) {
  try {
    fs.unlinkSync(file)
  } catch {
    // already gone
  }
}

function refuse(dataDir: string, lockPath: string, owner: OwnerRecord | null, me: OwnerRecord) {
  if (owner === null) {
    return new DataDirLockedError(
      dataDir,
      `The database directory ${dataDir} has a lock file this server cannot read (${lockPath}). ` +
        `Make sure no server uses ${dataDir}, then delete ${lockPath} and start again.`,
    )
  }
  const where =
    owner.hostname !== me.hostname
      ? `on host ${owner.hostname}`
      : `in another container on this host (pid namespace ${owner.pidNamespace})`
  return new DataDirLockedError(
    dataDir,
    `The database directory ${dataDir} is locked by process ${owner.pid} ${where} since ` +
      `${owner.since}, which this server cannot check. Make sure no server there uses ${dataDir}, ` +
      `then delete ${lockPath} and start again.`,
  )
}

/**
 * Makes this process the owner of `dataDir`, or throws DataDirLockedError. While owned, the lock is
 * checked every second; if it was deleted or replaced, `onLost` is called once (the caller must stop
 * writing at once: another process may own the directory now).
 */
export function lockDataDir(dataDir: string, onLost: (reason: string) => void): DataDirLock {
  const lockPath = path.join(dataDir, LOCK_FILE)
  const me = myRecord()
  const tmp = `${lockPath}.${me.nonce}${TMP_SUFFIX}`
  fs.writeFileSync(tmp, JSON.stringify(me), { flush: true })
  try {
    acquire(dataDir, lockPath, tmp, me)
  } finally {
    unlinkQuietly(tmp) // after a link the lock keeps the record; after a rename tmp is already gone
  }
  sweep(dataDir, me)
  const inode = fs.statSync(lockPath).ino

  // Deleted, replaced (another inode) or rewritten in place (another nonce): no longer ours.
  const stillOurs = () => {
    const found = readLock(lockPath)
    return found.kind === 'record' && found.ino === inode && found.record.nonce === me.nonce
  }
  const timer = setInterval(() => {
    if (stillOurs()) return
    clearInterval(timer)
    onLost(`the lock ${lockPath} was deleted or replaced`)
  }, WATCH_MS)
  timer.unref()

  return {
    release() {
      clearInterval(timer)
      if (stillOurs()) unlinkQuietly(lockPath)
    },
  }
}

function acquire(dataDir: string, lockPath: string, tmp: string, me: OwnerRecord) {
  // Each pass either owns the lock, throws, or saw the files change under it; a few passes settle it.
  for (let pass = 0; pass < 20; pass++) {
    if (linkExclusive(tmp, lockPath)) return
    const found = readLock(lockPath)
    if (found.kind === 'none') continue // released meanwhile
    if (found.kind === 'legacy') {
      if (Date.now() - found.mtimeMs < LEGACY_STALE_MS) throw new DataDirLockedError(dataDir)
      try {
        fs.rmdirSync(lockPath) // only ever a directory: never one of our lock files
      } catch {
        // another starter removed it first
      }
      continue
    }
    if (found.kind === 'unreadable') throw refuse(dataDir, lockPath, null, me)
    const owner = found.record
    const ownerVerdict = verdict(owner, me)
    if (ownerVerdict === 'alive') throw new DataDirLockedError(dataDir)
    if (ownerVerdict === 'unknown') throw refuse(dataDir, lockPath, owner, me)

    // The owner is dead: claim the right to replace it, following the chain of dead claimants.
    const replaceable = [owner.nonce]
    let marker: string | null = null
    for (let link = 0; link < 20; link++) {
      const candidate = `${TAKEOVER}${replaceable[replaceable.length - 1]}`
      const candidatePath = path.join(dataDir, candidate)
      if (linkExclusive(tmp, candidatePath)) {
        marker = candidatePath
        break
      }
      const claimant = readLock(candidatePath)
      if (claimant.kind !== 'record') continue // removed meanwhile: try it again
      const claimantVerdict = verdict(claimant.record, me)
      if (claimantVerdict === 'alive') throw new DataDirLockedError(dataDir) // it is taking over
      if (claimantVerdict === 'unknown') throw refuse(dataDir, lockPath, claimant.record, me)
      replaceable.push(claimant.record.nonce)
    }
    if (marker === null) continue
    const now = readLock(lockPath)
    if (now.kind === 'record' && replaceable.includes(now.record.nonce)) {
      try {
        fs.renameSync(tmp, lockPath)
        return
      } catch (error) {
        unlinkQuietly(marker) // a live claimant that will not replace the lock must not hold the right
        throw error
      }
    }
    unlinkQuietly(marker) // the lock changed hands meanwhile: look again
  }
  throw new Error(`could not lock ${dataDir}: its lock files kept changing`)
}

/** Takeover markers of earlier owners and private files of dead starters are litter once we own. */
function sweep(dataDir: string, me: OwnerRecord) {
  for (const entry of fs.readdirSync(dataDir)) {
    const file = path.join(dataDir, entry)
    if (entry.startsWith(TAKEOVER)) {
      if (entry !== `${TAKEOVER}${me.nonce}`) unlinkQuietly(file)
    } else if (entry.startsWith(`${LOCK_FILE}.`) && entry.endsWith(TMP_SUFFIX)) {
      const found = readLock(file)
      if (found.kind === 'record' && verdict(found.record, me) === 'dead') unlinkQuietly(file)
    }
  }
}
