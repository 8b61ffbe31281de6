import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { Logger } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { lockDataDir } from './data-dir-lock'
import * as schema from './schema'

export { DataDirLockedError } from './data-dir-lock'

/** One query layer for both drivers; transactions (`tx`) have the same type, so code takes either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database =
  | { kind: 'pglite'; db: Db; pglite: PGlite; close(): Promise<void> }
  | { kind: 'postgres'; db: Db; pool: pg.Pool; close(): Promise<void> }

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

/** `logger` hears every statement with its parameters (the query-plan test collects them). */
export function wrapPool(pool: pg.Pool, logger?: Logger): Database {
  // An idle connection the server drops (restart, failover, admin termination) is emitted as 'error';
  // unhandled it would crash the process. The pool discards that client and opens a new one on demand.
  pool.on('error', (error) => console.warn('[db] idle PostgreSQL connection lost:', error.message))
  const db = drizzlePg({ client: pool, schema, logger }) as unknown as Db
  return { kind: 'postgres', db, pool, close: () => pool.end() }
}

/** Called when the data directory's lock was deleted or replaced under us (see data-dir-lock.ts). */
export type OnLockLost = (reason: string) => void

/**
 * Another process may own the directory now, so every further write could be lost or corrupt its data:
 * stop at once, without closing PGlite (closing writes).
 */
export const exitOnLockLost: OnLockLost = (reason) => {
  console.error(`[db] ${reason}; stopping at once`)
  process.exit(1)
}

/**
 * PGlite in `<dataDir>/pglite`. Two processes on one directory lose each other's writes, so
 * `<dataDir>/pglite.lock` names the one live process that owns it (data-dir-lock.ts).
 */
export async function openPglite(
  dataDir: string,
  onLockLost: OnLockLost = exitOnLockLost,
): Promise<Database> {
  fs.mkdirSync(dataDir, { recursive: true })
  const lock = lockDataDir(dataDir, onLockLost)
  const release = async () => lock.release()
  try {
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') })
    return wrapPglite(pglite, release)
  } catch (error) {
    await release()
    throw error
  }
}

export function openPostgres(connectionString: string, max = 10): Database {
  return wrapPool(new pg.Pool({ connectionString, max }))
}

export async function openDatabase(
  options: { databaseUrl: string | null; dataDir: string },
  onLockLost?: OnLockLost,
) {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openPglite(options.dataDir, onLockLost)
}
