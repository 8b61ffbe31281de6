import path from 'node:path'
import { realAdapters } from './adapters'
import { createAcepSupplier } from './adapters/supplier/acep'
import { buildApp } from './app'
import { systemClock } from './clock'
import { loadConfig } from './config'
import { exitOnLockLost, openDatabase, type Database } from './db/client'
import { migrateDatabase } from './db/migrate'
import { seedDatabase } from './db/seed'
import { isStale, runBuild, startBuilds } from './start-builds'

const REPO_ROOT = path.resolve(__dirname, '../..')

async function start() {
  const config = loadConfig()
  // first, before any build or database: production's checks and every adapter's credentials, in one error
  const { sms, wechat, payments, acep } = realAdapters(config)
  // SKIP_H5_BUILD=1 (production, tests): never build at start, neither the H5 app nor the console
  if (process.env.SKIP_H5_BUILD !== '1') {
    for (const build of startBuilds(config)) {
      if (!isStale(REPO_ROOT, build)) continue
      console.log(
        `[start] ${build.name}: build missing or stale (${build.index}); running npm run ${build.script}`,
      )
      runBuild(REPO_ROOT, build)
    }
  }

  let database: Database | null = null
  let stopListening = () => {}
  // Another process may own the data directory now: answer nothing more, then end without writing.
  const onLockLost = (reason: string) => {
    stopListening()
    exitOnLockLost(reason)
  }
  try {
    database = await openDatabase(config, onLockLost)
    await migrateDatabase(database)
    await seedDatabase(database.db)
    const app = await buildApp({
      config,
      database,
      overrides: {
        sms,
        wechat,
        payments,
        // ACEP is made once the database is migrated: it refuses an unmapped catalogue (catalogue.ts)
        supplier: acep ? await createAcepSupplier(database.db, systemClock, acep) : undefined,
        startJobs: true,
      },
    })
    const openDb = database
    stopListening = () => app.server.close()
    let closing = false
    const shutdown = async (signal: string) => {
      if (closing) return
      closing = true
      app.log.info({ signal }, 'shutting down')
      try {
        await app.close()
        await openDb.close()
        process.exit(0)
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      }
    }
    process.on('SIGINT', () => void shutdown('SIGINT'))
    process.on('SIGTERM', () => void shutdown('SIGTERM'))

    await app.listen({ port: config.port, host: config.host })
    const shownHost = config.host === '0.0.0.0' ? 'localhost' : config.host
    app.log.info(
      `cloud-phone server on http://${shownHost}:${config.port}/ (API /vmcloud/api${config.apiDocs ? ', docs /docs' : ''}, ` +
        `database ${database.kind === 'pglite' ? config.dataDir : 'DATABASE_URL'})`,
    )
  } catch (error) {
    await database?.close().catch(() => {})
    throw error
  }
}

start().catch((error: Error) => {
  console.error(`[start] ${error.message}`)
  process.exit(1)
})
