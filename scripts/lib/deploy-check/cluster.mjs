/**
 * The throwaway PostgreSQL cluster (docs/deploy.md "PostgreSQL"), on a free port of 127.0.0.1 and a
 * socket in the work directory; stopped at clean-up whatever happens.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import { expect } from './check.mjs'
import { PG_BIN } from './context.mjs'
import { freePort, onCleanup, run, work } from './processes.mjs'

export const APP_ROLE = 'cloudphone'
export const APP_PASSWORD = crypto.randomBytes(12).toString('hex')

export async function startCluster() {
  expect(PG_BIN && fs.existsSync(path.join(PG_BIN, 'initdb')), `PG_BIN (${PG_BIN}) has no initdb`)
  const port = await freePort()
  const dataDir = path.join(work, 'pg')
  onCleanup(() =>
    run(path.join(PG_BIN, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], {}, true),
  )
  const pwfile = path.join(work, 'pg-superuser-password')
  fs.writeFileSync(pwfile, crypto.randomBytes(12).toString('hex'), { mode: 0o600 })
  // Local socket (the operator's psql) trusted; TCP (the servers) by password, as deploy.md sets up.
  run(path.join(PG_BIN, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-locale',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    `--pwfile=${pwfile}`,
  ])
  run(path.join(PG_BIN, 'pg_ctl'), [
    '-D',
    dataDir,
    '-l',
    path.join(work, 'postgres.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${work} -c fsync=off -c synchronous_commit=off`,
    'start',
  ])
  const superuser = (sql, database = 'postgres') =>
    run(path.join(PG_BIN, 'psql'), [
      '-h',
      work,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      database,
      '-v',
      'ON_ERROR_STOP=1',
      '-qAt',
      '-c',
      sql,
    ])
  const url = (database) => `postgres://${APP_ROLE}:${APP_PASSWORD}@127.0.0.1:${port}/${database}`
  // the operator's psql as the app's role (over TCP, by password)
  const asApp = (sql, database = 'cloudphone') =>
    run(path.join(PG_BIN, 'psql'), [
      '-d',
      url(database),
      '-v',
      'ON_ERROR_STOP=1',
      '-qAt',
      '-c',
      sql,
    ])
  return { port, dataDir, superuser, asApp, url }
}
