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
    // Test files run at once and may all build it: the first one's tar stays. A rename would replace
    // a tar that another process has open as a Blob, which then "could not be read".
    try {
      fs.linkSync(partial, cached)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      fs.rmSync(partial, { force: true })
    }
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

async function freshPglite(): Promise<PGlite> {
  const loadDataDir = await fs.openAsBlob(await pgliteTemplatePath())
  return PGlite.create({ loadDataDir, startParams: PGLITE_TEST_START_PARAMS })
}

/**
 * Restoring a PGlite from the tar takes about 1.8 s of CPU, most of a test's set-up. So a closed test
 * database is not closed but put back as it was made, and the next test of the same file gets it:
 * every table emptied and refilled with the template's rows (binary COPY, triggers off), every
 * sequence set back, the session discarded (settings, temporary tables, advisory locks, LISTENs). A
 * database whose schema a test changed (a table, column, constraint, function, trigger or type made
 * or dropped), or that is closed or inside a transaction, is closed instead, never lent again.
 */
interface PgliteSnapshot {
  fingerprint: string
  tables: string[]
  rows: Array<{ table: string; blob: Blob }>
  sequences: Array<{ name: string; lastValue: string; isCalled: boolean }>
}

const USER_NAMESPACES = `select oid from pg_namespace where nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and nspname not like 'pg_temp%' and nspname not like 'pg_toast_temp%'`

const FINGERPRINT_SQL = `select md5(coalesce(string_agg(c.oid::text || ':' || c.relkind::text || ':' || c.relnatts::text, ',' order by c.oid), ''))
    || ':' || (select count(*) from pg_constraint) || ':' || (select count(*) from pg_trigger)
    || ':' || (select count(*) from pg_proc) || ':' || (select count(*) from pg_type)
    || ':' || (select count(*) from pg_namespace) || ':' || (select count(*) from pg_attrdef) as fingerprint
  from pg_class c where c.relnamespace in (${USER_NAMESPACES})`

async function fingerprintOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ fingerprint: string }>(FINGERPRINT_SQL)
  return rows[0].fingerprint
}

async function takeSnapshot(pglite: PGlite): Promise<PgliteSnapshot> {
  const { rows: tables } = await pglite.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and c.relnamespace in (${USER_NAMESPACES}) order by 1`,
  )
  const rows: PgliteSnapshot['rows'] = []
  for (const { name } of tables) {
    const result = await pglite.query(`copy ${name} to '/dev/blob' with (format binary)`)
    const [{ count }] = (await pglite.query<{ count: number }>(`select count(*)::int from ${name}`))
      .rows
    if (count > 0 && result.blob) rows.push({ table: name, blob: result.blob })
  }
  const { rows: sequences } = await pglite.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'S' and c.relnamespace in (${USER_NAMESPACES}) order by 1`,
  )
  const values = []
  for (const { name } of sequences) {
    const { rows: value } = await pglite.query<{ lastValue: string; isCalled: boolean }>(
      `select last_value::text as "lastValue", is_called as "isCalled" from ${name}`,
    )
    values.push({ name, ...value[0] })
  }
  return {
    fingerprint: await fingerprintOf(pglite),
    tables: tables.map((table) => table.name),
    rows,
    sequences: values,
  }
}

/** Puts a used database back as the snapshot has it; false when it cannot be trusted to be so. */
async function resetToSnapshot(pglite: PGlite, snapshot: PgliteSnapshot): Promise<boolean> {
  if (pglite.closed) return false
  try {
    await pglite.exec('discard all') // refused inside a transaction
    if ((await fingerprintOf(pglite)) !== snapshot.fingerprint) return false
    await pglite.exec(
      `set session_replication_role = replica; truncate ${snapshot.tables.join(', ')}`,
    )
    for (const { table, blob } of snapshot.rows) {
      await pglite.query(`copy ${table} from '/dev/blob' with (format binary)`, [], { blob })
    }
    for (const { name, lastValue, isCalled } of snapshot.sequences) {
      await pglite.query('select setval($1::regclass, $2::bigint, $3)', [name, lastValue, isCalled])
    }
    await pglite.exec('discard all')
    return true
  } catch {
    return false
  }
}

/**
 * Databases put back, each closed after a second unused: an open PGlite keeps the process alive, and
 * a test file's process must end after its last test.
 */
const sparePglites: Array<{ pglite: PGlite; idle: NodeJS.Timeout }> = []
const SPARE_IDLE_MS = 1_000
let pgliteSnapshot: Promise<PgliteSnapshot> | null = null

function putBack(pglite: PGlite) {
  const spare = {
    pglite,
    idle: setTimeout(() => {
      sparePglites.splice(sparePglites.indexOf(spare), 1)
      void pglite.close()
    }, SPARE_IDLE_MS).unref(),
  }
  sparePglites.push(spare)
}

function takeSpare(): PGlite | undefined {
  const spare = sparePglites.pop()
  if (spare) clearTimeout(spare.idle)
  return spare?.pglite
}

async function createPgliteDatabase(): Promise<Database> {
  const pglite = takeSpare() ?? (await freshPglite())
  // taken from the first database this process makes, before any test has used it
  const snapshot = await (pgliteSnapshot ??= takeSnapshot(pglite))
  const database = wrapPglite(pglite)
  let closed = false
  return {
    ...database,
    async close() {
      if (closed) return
      closed = true
      if (await resetToSnapshot(pglite, snapshot)) putBack(pglite)
      else if (!pglite.closed) await pglite.close()
    },
  }
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
