import path from 'node:path'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import type { PgliteDatabase } from 'drizzle-orm/pglite'
import type { Database } from './client'
import * as schema from './schema'

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations')
/** Arbitrary constant shared by every instance: only one may migrate at a time. */
const MIGRATION_LOCK_KEY = 727_001

/** Applies the drizzle-kit migrations under a PostgreSQL advisory lock (the migrator takes none itself). */
export async function migrateDatabase(database: Database): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_DIR }
  if (database.kind === 'pglite') {
    await database.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`)
    try {
      await migratePglite(database.db as unknown as PgliteDatabase<typeof schema>, config)
    } finally {
      await database.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`)
    }
    return
  }
  // The lock belongs to one session, so hold one connection for the lock and the migration.
  const client = await database.pool.connect()
  try {
    const db = drizzlePg({ client, schema })
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      await migratePg(db, config)
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    }
  } finally {
    client.release()
  }
}
