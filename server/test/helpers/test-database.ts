import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { Logger } from 'drizzle-orm'
import pg from 'pg'
import { wrapPglite, wrapPool, type Database } from '../../src/db/client'
import { MIGRATIONS_DIR, migrateDatabase } from '../../src/db/migrate'
import { seedDatabase } from '../../src/db/seed'

/**
 * Each test gets its own database, copied from one migrated+seeded template: with TEST_DATABASE_URL a
 * new database on that PostgreSQL server made with `create database … template …` (dropped
 * afterwards); otherwise a PGlite restored from a data-dir tar. Migrating and seeding per test is what
 * made the suite slow, so the template is made once per migrations+seed version. `logger` (PostgreSQL
 * only) hears every statement the database is sent.
 */
export async function createTestDatabase(options: { logger?: Logger } = {}): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  return serverUrl ? createPostgresDatabase(serverUrl, options.logger) : createPgliteDatabase()
}

/** Changes whenever the migrations or the seed change, so a stale template is never used. */
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

// --- PGlite --------------------------------------------------------------------------------------

let pgliteTemplate: Promise<string> | null = null

/**
 * The template's tar in node_modules/.cache, made once (every test file runs in its own process and a
 * fresh PGlite init costs ~5 s). Returns its path: the tar is read with fs.openAsBlob, which PGlite
 * unpacks faster than an in-memory Blob.
 */
function pgliteTemplatePath() {
  pgliteTemplate ??= (async () => {
    const cacheDir = path.join(__dirname, '../../../node_modules/.cache/cloud-phone-server-tests')
    const cached = path.join(cacheDir, `pglite-template-${templateKey()}.tar`)
    if (fs.existsSync(cached)) return cached
    const pglite = await PGlite.create()
    const database = wrapPglite(pglite)
    await migrateDatabase(database)
    await seedDatabase(database.db)
    const dump = await pglite.dumpDataDir('none')
    await database.close()
    fs.mkdirSync(cacheDir, { recursive: true })
    const partial = `${cached}.${process.pid}.tmp`
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    fs.renameSync(partial, cached)
    return cached
  })()
  return pgliteTemplate
}

/**
 * A test's database holds a few hundred rows, so a 16 MB buffer pool (PostgreSQL's default is 128 MB)
 * loses nothing; PGlite sets its buffer pool up at every start, and the smaller one takes about a
 * second less CPU per test.
 */
const PGLITE_TEST_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']

async function createPgliteDatabase(): Promise<Database> {
  const loadDataDir = await fs.openAsBlob(await pgliteTemplatePath())
  const pglite = await PGlite.create({ loadDataDir, startParams: PGLITE_TEST_START_PARAMS })
  return wrapPglite(pglite)
}

// --- PostgreSQL ----------------------------------------------------------------------------------

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    return await work(admin)
  } finally {
    await admin.end()
  }
}

let postgresTemplate: Promise<string> | null = null

/**
 * The template database on that server, named by the template key. Made under an advisory lock (test
 * files may run at once) and under a temporary name renamed when complete, so a process that dies
 * halfway never leaves a template that looks finished.
 */
function postgresTemplateName(serverUrl: string) {
  postgresTemplate ??= withAdmin(serverUrl, async (admin) => {
    const name = `test_template_${templateKey()}`
    await admin.query('select pg_advisory_lock(hashtext($1))', [name])
    const found = await admin.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) {
      const building = `${name}_building`
      await admin.query(`drop database if exists ${building} with (force)`)
      await admin.query(`create database ${building}`)
      const database = wrapPool(
        new pg.Pool({ connectionString: databaseUrl(serverUrl, building), max: 5 }),
      )
      try {
        await migrateDatabase(database)
        await seedDatabase(database.db)
      } finally {
        await database.close()
      }
      await admin.query(`alter database ${building} rename to ${name}`)
    }
    return name // ending the session releases the advisory lock
  })
  return postgresTemplate
}

async function createPostgresDatabase(serverUrl: string, logger?: Logger): Promise<Database> {
  const template = await postgresTemplateName(serverUrl)
  const name = `test_${randomBytes(6).toString('hex')}`
  await withAdmin(serverUrl, (admin) => admin.query(`create database ${name} template ${template}`))
  const database = wrapPool(
    new pg.Pool({ connectionString: databaseUrl(serverUrl, name), max: 5 }),
    logger,
  )
  return {
    ...database,
    async close() {
      await database.close()
      await withAdmin(serverUrl, (admin) =>
        admin.query(`drop database if exists ${name} with (force)`),
      )
    },
  }
}
