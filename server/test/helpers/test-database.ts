import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { wrapPglite, wrapPool, type Database } from '../../src/db/client'
import { MIGRATIONS_DIR, migrateDatabase } from '../../src/db/migrate'
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

let template: Promise<Blob> | null = null

/** Changes whenever the migrations or the seed change, so a stale cached template is never used. */
function templateKey(): string {
  const hash = createHash('sha256')
  for (const name of fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    hash.update(fs.readFileSync(path.join(MIGRATIONS_DIR, name)))
  }
  const dbDir = path.join(__dirname, '../../src/db')
  for (const name of fs
    .readdirSync(dbDir)
    .filter((file) => /^seed.*\.ts$/.test(file))
    .sort()) {
    hash.update(fs.readFileSync(path.join(dbDir, name)))
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * The migrated+seeded template, made once and kept as a tar in node_modules/.cache, since every test
 * file runs in its own process and a fresh PGlite init costs ~5 s.
 */
function pgliteTemplate() {
  template ??= (async () => {
    const cacheDir = path.join(__dirname, '../../../node_modules/.cache/cloud-phone-server-tests')
    const cached = path.join(cacheDir, `pglite-template-${templateKey()}.tar`)
    if (fs.existsSync(cached)) return new Blob([fs.readFileSync(cached)])
    const pglite = await PGlite.create()
    const database = wrapPglite(pglite)
    await migrateDatabase(database)
    await seedDatabase(database.db)
    const dump = await pglite.dumpDataDir('none')
    await database.close()
    const bytes = Buffer.from(await dump.arrayBuffer())
    fs.mkdirSync(cacheDir, { recursive: true })
    const partial = `${cached}.${process.pid}.tmp`
    fs.writeFileSync(partial, bytes)
    fs.renameSync(partial, cached)
    return new Blob([bytes])
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
