import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { wrapPglite, wrapPool, type Database } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { seedDatabase } from '../../src/db/seed'

/**
 * Each test gets its own database. With TEST_DATABASE_URL it is a new database on that PostgreSQL
 * server (dropped afterwards); otherwise a PGlite restored from one migrated+seeded template made once
 * per process, because initialising PGlite from scratch takes ~5 s.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  return serverUrl ? createPostgresDatabase(serverUrl) : createPgliteDatabase()
}

let template: Promise<Blob | File> | null = null

function pgliteTemplate() {
  template ??= (async () => {
    const pglite = await PGlite.create()
    const database = wrapPglite(pglite)
    await migrateDatabase(database)
    await seedDatabase(database.db)
    const dump = await pglite.dumpDataDir('none')
    await database.close()
    return dump
  })()
  return template
}

async function createPgliteDatabase(): Promise<Database> {
  const pglite = await PGlite.create({ loadDataDir: await pgliteTemplate() })
  return wrapPglite(pglite)
}

async function createPostgresDatabase(serverUrl: string): Promise<Database> {
  const name = `test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const database = wrapPool(new pg.Pool({ connectionString: url.toString(), max: 5 }))
  await migrateDatabase(database)
  await seedDatabase(database.db)
  return {
    ...database,
    async close() {
      await database.close()
      const dropper = new pg.Client({ connectionString: serverUrl })
      await dropper.connect()
      await dropper.query(`drop database if exists ${name} with (force)`)
      await dropper.end()
    },
  }
}
