/** Step 4: deploy.md's nightly dump restores into a scratch database that a server starts on. */
import fs from 'node:fs'
import path from 'node:path'

import { expect, step } from '../check.mjs'
import { APP_ROLE } from '../cluster.mjs'
import { MOBILE, PG_BIN, state } from '../context.mjs'
import { freePort, healthy, http, run, startServer, work } from '../processes.mjs'

export const dumpRestores = step(
  '4. pg_dump → restore into a scratch database → a server on it has the user',
  async () => {
    const { cluster } = state
    const dump = path.join(work, 'cloudphone.dump')
    // deploy.md "Backups": the nightly dump, taken while the instances serve.
    run(path.join(PG_BIN, 'pg_dump'), ['-Fc', '-f', dump, '-d', cluster.url('cloudphone')])
    expect(fs.statSync(dump).size > 10_000, `the dump is only ${fs.statSync(dump).size} bytes`)
    // deploy.md "Restore drill"
    cluster.superuser(`create database cloudphone_restore owner ${APP_ROLE}`)
    run(path.join(PG_BIN, 'pg_restore'), [
      '--no-owner',
      '--exit-on-error',
      '-d',
      cluster.url('cloudphone_restore'),
      dump,
    ])
    const restored = startServer('restored', {
      ...state.production,
      DATABASE_URL: cluster.url('cloudphone_restore'),
      PORT: String(await freePort()),
    })
    state.servers.push(restored)
    await healthy(restored)
    const seen = await http(restored, 'GET', '/user/getUserInfo', undefined, state.session)
    expect(
      seen.code === 200 && seen.data?.mobilePhone === MOBILE,
      `the restored database does not have the user and session: ${JSON.stringify(seen)}`,
    )
    console.log(
      `   dump ${(fs.statSync(dump).size / 1024).toFixed(0)} KiB restored; the user is there`,
    )
  },
)
