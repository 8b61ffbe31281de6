import { openDatabase } from '../../server/src/db/client'
import { DataDirLockedError } from '../../server/src/db/data-dir-lock'

/**
 * The server's database, for a command line tool (admin:create, company:verify, providers:check). The
 * embedded database has one owner at a time, so beside a running `npm start` the tool cannot open it:
 * it says so, and what to do, instead of the server's own advice (another DATA_DIR).
 */
export async function openCliDatabase(config: { databaseUrl: string | null; dataDir: string }) {
  try {
    return await openDatabase(config)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    throw new Error(
      `The embedded database in ${config.dataDir} is open in a running server (npm start), and it has ` +
        'one owner at a time. Stop the server (Ctrl+C), run this command, then start the server again. ' +
        'On PostgreSQL (DATABASE_URL) the command runs beside the server.',
    )
  }
}
