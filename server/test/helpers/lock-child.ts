/**
 * A process that tries to own a data directory, for data-dir-lock.slow.test.ts:
 * `node --import tsx lock-child.ts <dataDir> <startAtEpochMs> <holdMs>`. It waits until startAt (so a
 * crowd of them tries at the same moment), prints `owned` or `locked <message>`, and if it owns the
 * directory holds it for holdMs and releases it (holdMs 0: holds it until killed).
 */
import { DataDirLockedError, lockDataDir } from '../../src/db/data-dir-lock'

const [dataDir, startAt, holdMs] = process.argv.slice(2)

async function main() {
  while (Date.now() < Number(startAt)) await new Promise((resolve) => setImmediate(resolve))
  try {
    const lock = lockDataDir(dataDir, (reason) => {
      console.log(`lost ${reason}`)
      process.exit(3)
    })
    console.log('owned')
    if (Number(holdMs) === 0) {
      setInterval(() => {}, 60_000)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, Number(holdMs)))
    lock.release()
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    console.log(`locked ${error.message}`)
  }
}

void main()
