/**
 * Steps 2 and 3: two instances migrate at once and refuse ACEP an unmapped catalogue; mapped, they start
 * and share a login.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import { expect, step } from '../check.mjs'
import { APP_PASSWORD, APP_ROLE, startCluster } from '../cluster.mjs'
import { CLIENT_IP, MOBILE, repoRoot, seconds, START_TIMEOUT_MS, state } from '../context.mjs'
import { providerEnv, startFakes } from '../fakes.mjs'
import { prepareProxy } from '../nginx.mjs'
import { exitOf, freePort, healthy, http, sleep, startServer, tail, work } from '../processes.mjs'

/**
 * The operator's mapping of our catalogue to ACEP (docs/deploy.md, SUPPLIER_PROVIDER): each goods on sale
 * to a configuration code, each zone to a data centre. Real ids come from the ACEP console; the fake
 * takes any.
 */
const CATALOGUE_SQL = `insert into supplier_catalogue (supplier, kind, local_id, remote_id, updated_at)
  select 'acep', 'goods', id, 'config-' || id, now() from goods where on_sale
  union all select 'acep', 'zone', id, 'dc-' || id, now() from zones`

export const migrateThenMapCatalogue = step(
  '2. two instances migrate at once, then refuse ACEP an unmapped catalogue; the operator maps it',
  async () => {
    const cluster = await startCluster()
    state.cluster = cluster
    // deploy.md "PostgreSQL": the app's own role owns its database; no superuser at run time.
    cluster.superuser(`create role ${APP_ROLE} login password '${APP_PASSWORD}'`)
    cluster.superuser(`create database cloudphone owner ${APP_ROLE}`)
    state.ports = [await freePort(), await freePort()]
    state.proxy = state.nginx ? await prepareProxy() : null
    state.fakes = await startFakes(
      state.proxy
        ? [`https://127.0.0.1:${state.proxy.tlsPort}`]
        : state.ports.map((port) => `http://127.0.0.1:${port}`),
      state.proxy?.cert,
    )
    const filesDir = path.join(work, 'files') // shared storage in production (deploy.md)
    const h5Dist = path.join(work, 'h5') // a prebuilt H5 in production; none here
    fs.mkdirSync(h5Dist)
    state.production = {
      NODE_ENV: 'production',
      DATABASE_URL: cluster.url('cloudphone'),
      HOST: '127.0.0.1',
      TRUST_PROXY: '1',
      FILES_DIR: filesDir,
      DATA_DIR: path.join(work, 'data'),
      H5_DIST: h5Dist,
      SKIP_H5_BUILD: '1',
      BENEFIT_PEPPER: crypto.randomBytes(24).toString('hex'),
      ...providerEnv(state.fakes),
    }
    const first = state.ports.map((port, i) =>
      startServer(`first-start-${i + 1}`, { ...state.production, PORT: String(port) }),
    )
    const outcomes = await Promise.all(first.map((server) => exitOf(server, START_TIMEOUT_MS)))

    const journal = JSON.parse(
      fs.readFileSync(path.join(repoRoot, 'server/src/db/migrations/meta/_journal.json'), 'utf8'),
    )
    const applied = Number(
      cluster.superuser('select count(*) from drizzle.__drizzle_migrations', 'cloudphone').trim(),
    )
    expect(
      applied === journal.entries.length,
      `${applied} migrations recorded, the journal has ${journal.entries.length}`,
    )
    const owner = cluster
      .superuser(`select tableowner from pg_tables where tablename = 'users'`, 'cloudphone')
      .trim()
    expect(owner === APP_ROLE, `the users table belongs to "${owner}", not ${APP_ROLE}`)
    console.log(`   ${applied} migrations applied once, tables owned by ${APP_ROLE}`)

    // ACEP cannot provision what it has no ids for: every goods on sale and every zone is named.
    const unmapped = Number(
      cluster.asApp(
        'select (select count(*) from goods where on_sale) + (select count(*) from zones)',
      ),
    )
    first.forEach((server, i) => {
      expect(
        outcomes[i].code !== 0,
        `${server.name} started on an unmapped catalogue\n${tail(server)}`,
      )
      const log = server.log()
      expect(
        log.includes(
          'SUPPLIER_PROVIDER=acep needs an ACEP id for every goods on sale and every zone',
        ),
        `${server.name} did not refuse the unmapped catalogue\n${tail(server)}`,
      )
      const named = log.split('\n').filter((line) => /^- (goods|zone) \d+ /.test(line)).length
      expect(
        named === unmapped,
        `${server.name} named ${named} unmapped goods and zones, the database has ${unmapped}\n${tail(server)}`,
      )
    })
    cluster.asApp(CATALOGUE_SQL)
    console.log(`   both refused, naming all ${unmapped} goods on sale and zones; mapped by SQL`)
  },
)

export const bothStartAndShareALogin = step(
  '3. both start; health on both; a login on 1 is seen by 2',
  async () => {
    const [one, two] = state.ports.map((port, i) =>
      startServer(`instance-${i + 1}`, { ...state.production, PORT: String(port) }),
    )
    state.servers = [one, two]
    await Promise.all([healthy(one), healthy(two)])
    console.log(`   both healthy at ${seconds()} s`)

    const proxied = { 'x-forwarded-for': CLIENT_IP }
    const sent = await http(
      one,
      'POST',
      '/sms/sendSmsCode',
      { mobilePhone: MOBILE, type: 'login' },
      proxied,
    )
    expect(sent.code === 200, `sendSmsCode on instance 1: ${JSON.stringify(sent)}`)
    let code = null
    for (let i = 0; i < 40 && !code; i++) {
      code = new RegExp(`\\[sms-sandbox\\] ${MOBILE} login (\\d+)`).exec(one.log())?.[1] ?? null
      if (!code) await sleep(250)
    }
    expect(code, `no sandbox SMS code for ${MOBILE} in instance 1's log\n${tail(one)}`)
    expect(
      one.log().includes(`"remoteAddress":"${CLIENT_IP}"`),
      `instance 1 did not take the client address from X-Forwarded-For (TRUST_PROXY=1)\n${tail(one)}`,
    )
    const login = await http(
      one,
      'POST',
      '/common/userLogin/confirm',
      { mobilePhone: MOBILE, code },
      proxied,
    )
    expect(login.code === 200 && login.data?.token, `login on instance 1: ${JSON.stringify(login)}`)
    state.session = { token: login.data.token, userid: String(login.data.userId) }
    const seen = await http(two, 'GET', '/user/getUserInfo', undefined, state.session)
    expect(
      seen.code === 200 && seen.data?.mobilePhone === MOBILE,
      `instance 2 does not know instance 1's session: ${JSON.stringify(seen)}`,
    )
    console.log(`   user ${login.data.userId} logged in on instance 1, seen by instance 2`)
  },
)
