import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import lockfile from 'proper-lockfile'
import pg from 'pg'
import * as schema from './schema'

/** One query layer for both drivers; transactions (`tx`) have the same type, so code takes either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database =
  | { kind: 'pglite'; db: Db; pglite: PGlite; close(): Promise<void> }
  | { kind: 'postgres'; db: Db; pool: pg.Pool; close(): Promise<void> }

export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `The database directory ${dataDir} is already open in another server process. ` +
        'Stop that process, or start this one with a different DATA_DIR.',
    )
    this.name = 'DataDirLockedError'
  }
}

export function wrapPglite(
  pglite: PGlite,
  release: () => Promise<void> = async () => {},
): Database {
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db
  return {
    kind: 'pglite',
    db,
    pglite,
    async close() {
      try {
        if (!pglite.closed) await pglite.close()
      } finally {
        await release()
      }
    },
  }
}

export function wrapPool(pool: pg.Pool): Database {
  // An idle connection the server drops (restart, failover, admin termination) is emitted as 'error';
  // unhandled it would crash the process. The pool discards that client and opens a new one on demand.
  pool.on('error', (error) => console.warn('[db] idle PostgreSQL connection lost:', error.message))
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  return { kind: 'postgres', db, pool, close: () => pool.end() }
}

/**
 * PGlite in `<dataDir>/pglite`. Two processes on one directory silently corrupt it, so a lock file
 * (`<dataDir>/pglite.lock`, refreshed while we run, stale after 10 s if we crash) keeps a second one out.
 */
export async function openPglite(dataDir: string): Promise<Database> {
  fs.mkdirSync(dataDir, { recursive: true })
  const pgliteDir = path.join(dataDir, 'pglite')
  let release: () => Promise<void>
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'pglite.lock'),
      stale: 10_000,
      update: 2_000,
      onCompromised: (error) => console.error('[db] PGlite lock compromised:', error.message),
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir)
    throw error
  }
  try {
    const pglite = await PGlite.create({ dataDir: pgliteDir })
    return wrapPglite(pglite, release)
  } catch (error) {
    await release()
    throw error
  }
}

export function openPostgres(connectionString: string, max = 10): Database {
  return wrapPool(new pg.Pool({ connectionString, max }))
}

export async function openDatabase(options: { databaseUrl: string | null; dataDir: string }) {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir)
}
