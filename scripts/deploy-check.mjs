#!/usr/bin/env node
/**
 * The steps of docs/deploy.md, run on this machine in production mode (started by scripts/deploy-check,
 * which switches to the unprivileged service user first). It makes a throwaway PostgreSQL cluster on a
 * free port of 127.0.0.1, and checks:
 *   1. production refuses to start with nothing set, naming in one error every variable deploy.md's
 *      table marks "required", and nothing deploy.md does not name;
 *   2. two instances started at once on one database run the migrations once (the migration lock) as the
 *      app's own role, no superuser, then refuse ACEP a catalogue without ACEP ids, naming every goods
 *      on sale and every zone; the operator's SQL maps them;
 *   3. the two instances start again, /health answers on both, and a user who logs in through instance 1
 *      (SMS code from its log, behind X-Forwarded-For) is seen by 2;
 *   3b. deploy.md's nginx block in front of both (TLS with a throwaway certificate, HTTP/2, http → https,
 *      both upstreams, X-Forwarded-For, both notify paths, the body limit); the providers' fakes then send
 *      their notifications and callbacks through it. Without nginx it is SKIPPED, except under CI
 *      (CI=true), where a missing nginx fails the check at step 0;
 *   3c. that user buys a phone and pays with Alipay (the WAP checkout opened, the fake pays and notifies),
 *      and another with WeChat Pay H5: both orders complete and both phones run on the fake ACEP, as
 *      instance 2 tells; with nginx, both notifications are in its access log;
 *   3d. with nginx: instance 2 stops (exit 0 on SIGTERM) and nginx sends requests and notifications to
 *      instance 1 alone;
 *   4. pg_dump → restore into a scratch database → a third server starts on it and the session is there;
 *   5. scripts/weapp-domains.mjs prints the configured domains and refuses the development defaults;
 * and that every server (and the fakes) stops cleanly on SIGTERM. Any failure prints what was expected,
 * the tail of the server's log, and exits 1; the servers, the fakes and the cluster are removed whatever
 * happens.
 *
 * Environment: PG_BIN (PostgreSQL's bin directory; scripts/deploy-check finds it), NGINX_BIN (optional:
 * else nginx on the PATH or in /usr/sbin), CI (set and not "false"/"0": nginx is required).
 */
import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { request as httpRequest } from 'node:http'
import http2 from 'node:http2'
import { request as httpsRequest } from 'node:https'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const PG_BIN = process.env.PG_BIN
const API = '/vmcloud/api'
const START_TIMEOUT_MS = 120_000
const started = Date.now()
const seconds = () => ((Date.now() - started) / 1000).toFixed(1)
/** CI (.ci/run exports CI=true) must check section 6's nginx block: there, no nginx is a failure. */
const IN_CI = Boolean(process.env.CI) && !/^(false|0)$/i.test(process.env.CI)

// --- what the servers run on ----------------------------------------------------------------------
/**
 * The providers production runs on here: Alipay, WeChat Pay and ACEP are the real adapters talking to
 * their local fakes (startFakes; ALLOW_SANDBOX_PAYMENT and ALLOW_SANDBOX_SUPPLIER stay unset). SMS and
 * WeChat login have no fake, so they stay the sandboxes, each allowed with its own switch (the SMS code
 * is read from the server log).
 */
function providerEnv(fakes) {
  return {
    SMS_PROVIDER: 'sandbox',
    ALLOW_SANDBOX_SMS: '1',
    WECHAT_PROVIDER: 'sandbox',
    ALLOW_SANDBOX_WECHAT: '1',
    ...fakes.env,
  }
}

/**
 * server/test/helpers/run-fakes.ts as a child (so as this same unprivileged user): it generates the keys,
 * writes providers.env and starts the fakes. The providers are told PUBLIC_BASE_URL, which has no DNS
 * here: the fakes deliver what is sent to it to `upstreams` in turn, path and bytes unchanged. With nginx
 * that is nginx's TLS port (the fakes trust its throwaway certificate, `ca`), else the instances.
 */
async function startFakes(upstreams, ca) {
  const dir = path.join(work, 'providers')
  fs.mkdirSync(dir, { mode: 0o700 })
  const logFile = path.join(work, 'fakes.log')
  const out = fs.openSync(logFile, 'w')
  const args = ['--dir', dir, '--public-base-url', PUBLIC_BASE_URL]
  for (const upstream of upstreams) args.push('--upstream', upstream)
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/test/helpers/run-fakes.ts', ...args],
    // stdin stays open: the fakes exit when it closes, should this check die without cleaning up
    {
      cwd: repoRoot,
      env: { ...baseEnv(), ...(ca ? { NODE_EXTRA_CA_CERTS: ca } : {}) },
      stdio: ['pipe', 'pipe', out],
    },
  )
  fs.closeSync(out)
  children.add(child)
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  const log = () => fs.readFileSync(logFile, 'utf8')
  const ready = await new Promise((resolve) => {
    let text = ''
    const timer = setTimeout(() => resolve(null), 60_000)
    child.stdout.on('data', (chunk) => {
      fs.appendFileSync(logFile, chunk)
      text += chunk
      const ready = /^fakes ready (\S+) uid (\d+)$/m.exec(text)
      if (ready) {
        clearTimeout(timer)
        resolve({ control: ready[1], uid: Number(ready[2]) })
      }
    })
    child.on('exit', () => resolve(null))
  })
  expect(ready, `the fakes did not start:\n${log()}`)
  const { control, uid } = ready
  expect(
    uid === process.getuid(),
    `the fakes run as uid ${uid}, not as this check (${process.getuid()})`,
  )
  console.log(
    `   the fakes of Alipay, WeChat Pay and ACEP run as uid ${uid}, control at ${control}`,
  )
  const env = Object.fromEntries(
    fs
      .readFileSync(path.join(dir, 'providers.env'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
  return { name: 'the fakes', child, exited, logFile, log, control, env }
}

/** A request to the fakes' control origin (the buyer's hand on a provider's page). */
async function fakeControl(method, route) {
  const response = await fetch(`${state.fakes.control}${route}`, {
    method,
    signal: AbortSignal.timeout(20_000),
  })
  return { status: response.status, ...(await response.json()) }
}

// --- cleanup ---------------------------------------------------------------------------------------
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-'))
const children = new Set()
let pgData = null
let cleaned = false

function cleanup() {
  if (cleaned) return
  cleaned = true
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  if (pgData)
    run(path.join(PG_BIN, 'pg_ctl'), ['-D', pgData, '-m', 'immediate', '-w', 'stop'], {}, true)
  fs.rmSync(work, { recursive: true, force: true })
}
process.on('exit', cleanup)
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    console.error(`\ndeploy-check: ${signal}, cleaning up`)
    cleanup()
    process.exit(1)
  })

class CheckFailed extends Error {}
const fail = (message) => {
  throw new CheckFailed(message)
}
const expect = (condition, message) => condition || fail(message)

// --- processes -------------------------------------------------------------------------------------
function run(command, args, env = {}, quiet = false) {
  const result = spawnSync(command, args, {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (result.status !== 0 && !quiet)
    fail(
      `${path.basename(command)} ${args.join(' ')} exited ${result.status}:\n${result.stderr}${result.stdout}`,
    )
  return result.stdout
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Only these reach a server: what the operator's environment file would hold, and nothing of ours. */
const baseEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME ?? work, LANG: 'C.UTF-8' })

/** Starts `node --import tsx server/src/main.ts` (npm start without npm) with exactly `env`. */
function startServer(name, env) {
  const logFile = path.join(work, `${name}.log`)
  const out = fs.openSync(logFile, 'w')
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', out, out],
  })
  fs.closeSync(out)
  children.add(child)
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return { name, child, env, logFile, exited, log: () => fs.readFileSync(logFile, 'utf8') }
}

const tail = (server, lines = 25) =>
  `--- last lines of ${server.name}'s log (${server.logFile}) ---\n` +
  server.log().trimEnd().split('\n').slice(-lines).join('\n')

async function http(server, method, route, body, headers = {}) {
  const response = await fetch(`http://127.0.0.1:${server.env.PORT}${API}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  try {
    return { status: response.status, ...JSON.parse(text) }
  } catch {
    return { status: response.status, text }
  }
}

/** Waits for /health to answer {db: 'ok'}; fails at once if the server exits first. */
async function healthy(server) {
  const deadline = Date.now() + START_TIMEOUT_MS
  let exit = null
  void server.exited.then((value) => (exit = value))
  for (;;) {
    if (exit)
      fail(
        `${server.name} exited (${JSON.stringify(exit)}) before answering /health\n${tail(server)}`,
      )
    try {
      const reply = await http(server, 'GET', '/health')
      if (reply.status === 200 && reply.code === 200 && reply.data?.db === 'ok') return
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline)
      fail(`${server.name}: no healthy /health in ${START_TIMEOUT_MS / 1000} s\n${tail(server)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** SIGTERM, as systemd stops a unit: the server must close and exit 0 within 15 s. */
async function stopServer(server) {
  server.child.kill('SIGTERM')
  const outcome = await Promise.race([
    server.exited,
    new Promise((resolve) => setTimeout(() => resolve(null), 15_000)),
  ])
  expect(outcome !== null, `${server.name} did not stop within 15 s of SIGTERM\n${tail(server)}`)
  expect(
    outcome.code === 0,
    `${server.name} stopped with ${JSON.stringify(outcome)}\n${tail(server)}`,
  )
  children.delete(server.child)
}

// --- the document ----------------------------------------------------------------------------------
/** docs/deploy.md's table of variables: [variable cell, in production, default, what it is] per row. */
function documentedRows() {
  const doc = fs.readFileSync(path.join(repoRoot, 'docs/deploy.md'), 'utf8')
  return doc
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells.length >= 6 && cells[1].startsWith('`'))
    .map((cells) => cells.slice(1, 5))
}
const variablesIn = (text) => [...text.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1])

/** The variables the table marks as required in production (its second column). */
function documentedRequired() {
  const names = documentedRows()
    .filter(([, production]) => /^required\b/.test(production))
    .flatMap(([variable]) => variablesIn(variable))
  expect(names.length > 0, 'docs/deploy.md has no variable marked "required" in its table')
  return names
}

/**
 * The real providers the table names ("required: `aliyun`, or …") with the keys each needs (the last
 * column's variables before "optional:").
 */
function documentedProviders() {
  const providers = []
  for (const [variable, production, , what] of documentedRows()) {
    const value = /^required: `([a-z]+)`/.exec(production)?.[1]
    if (!value) continue
    const [name] = variablesIn(variable)
    const needs = variablesIn(what.split('optional:')[0]).filter((key) => key !== name)
    expect(needs.length > 0, `docs/deploy.md names no keys for ${name}=${value}`)
    providers.push({ name, value, needs })
  }
  expect(providers.length > 0, 'docs/deploy.md names no real provider ("required: `…`")')
  return providers
}

/** Starts main.ts in production with `env` and expects it to refuse within 60 s; returns its output. */
async function refusal(name, env) {
  const server = startServer(name, {
    NODE_ENV: 'production',
    DATA_DIR: path.join(work, `${name}-data`),
    SKIP_H5_BUILD: '1',
    ...env,
  })
  const outcome = await Promise.race([
    server.exited,
    new Promise((resolve) => setTimeout(() => resolve(null), 60_000)),
  ])
  expect(outcome !== null, `it is still running after 60 s: it started\n${tail(server)}`)
  expect(outcome.code !== 0, `it exited 0\n${tail(server)}`)
  children.delete(server.child)
  const log = server.log()
  expect(
    /Refusing to start with NODE_ENV=production/.test(log),
    `no refusal in its output\n${tail(server)}`,
  )
  return { log, server }
}

// --- PostgreSQL ------------------------------------------------------------------------------------
const APP_ROLE = 'cloudphone'
const APP_PASSWORD = crypto.randomBytes(12).toString('hex')

async function startCluster() {
  expect(PG_BIN && fs.existsSync(path.join(PG_BIN, 'initdb')), `PG_BIN (${PG_BIN}) has no initdb`)
  const port = await freePort()
  pgData = path.join(work, 'pg')
  const pwfile = path.join(work, 'pg-superuser-password')
  fs.writeFileSync(pwfile, crypto.randomBytes(12).toString('hex'), { mode: 0o600 })
  // Local socket (the operator's psql) trusted; TCP (the servers) by password, as deploy.md sets up.
  run(path.join(PG_BIN, 'initdb'), [
    '-D',
    pgData,
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
    pgData,
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
  return { port, superuser, asApp, url }
}

// --- the steps -------------------------------------------------------------------------------------
const steps = []
const step = (name, fn) => steps.push({ name, fn })

const MOBILE = '13912345678'
const CLIENT_IP = '203.0.113.7'
const PUBLIC_HOST = 'cloudphone.example.com'
const PUBLIC_BASE_URL = `https://${PUBLIC_HOST}`
const PUBLIC_API_BASE = `${PUBLIC_BASE_URL}/vmcloud/api`
const FORGED_IP = '198.51.100.9'
const state = {}

step('0. nginx, for section 6', async () => {
  const explicit = process.env.NGINX_BIN
  state.nginx = findNginx()
  expect(!explicit || state.nginx, `NGINX_BIN=${explicit} is not an executable file`)
  if (!state.nginx) {
    expect(
      !IN_CI,
      "no nginx (NGINX_BIN, the PATH, /usr/sbin), and under CI section 6's nginx block must be " +
        "checked, not skipped: install it (.ci/run installs Debian's nginx package)",
    )
    console.log(
      '   none on this machine: 3b and 3d will be SKIPPED (install nginx, or set NGINX_BIN)',
    )
    return
  }
  const version = spawnSync(state.nginx, ['-v'], { encoding: 'utf8' })
  expect(version.status === 0, `${state.nginx} -v exited ${version.status}: ${version.stderr}`)
  console.log(`   ${state.nginx}: ${version.stderr.trim()}`)
})

step('1. production refuses to start with nothing set', async () => {
  const required = documentedRequired()
  const { log, server } = await refusal('refused', {})
  const missing = required.filter((name) => !log.includes(name))
  expect(missing.length === 0, `the refusal does not name ${missing.join(', ')}\n${tail(server)}`)
  // Every problem it lists names a variable the document marks required, so the table lists them all.
  const problems = log.split('\n').filter((line) => line.startsWith('- '))
  expect(problems.length > 0, `the refusal lists no problems\n${tail(server)}`)
  const undocumented = problems.filter((line) => !required.some((name) => line.includes(name)))
  expect(
    undocumented.length === 0,
    `docs/deploy.md marks none of the variables of these problems "required":\n${undocumented.join('\n')}`,
  )
  console.log(
    `   refused with ${problems.length} problems, naming all ${required.length} required variables`,
  )
})

step('1b. every real provider chosen, no keys: one refusal names every key', async () => {
  const providers = documentedProviders()
  const { log, server } = await refusal(
    'refused-keys',
    Object.fromEntries(providers.map(({ name, value }) => [name, value])),
  )
  for (const { name, value, needs } of providers) {
    // an adapter this build does not have yet (they are added one by one) is said, not checked
    if (log.includes(`this build has no ${value} adapter`)) {
      console.log(`   SKIPPED ${name}=${value}: this build has no ${value} adapter`)
      continue
    }
    const missing = needs.filter((key) => !log.includes(key))
    expect(
      missing.length === 0,
      `${name}=${value} without its keys: the refusal does not name ${missing.join(', ')}\n${tail(server)}`,
    )
    console.log(`   ${name}=${value}: all ${needs.length} keys named`)
  }
})

/**
 * The operator's mapping of our catalogue to ACEP (docs/deploy.md, SUPPLIER_PROVIDER): each goods on sale
 * to a configuration code, each zone to a data centre. Real ids come from the ACEP console; the fake
 * takes any.
 */
const CATALOGUE_SQL = `insert into supplier_catalogue (supplier, kind, local_id, remote_id, updated_at)
  select 'acep', 'goods', id, 'config-' || id, now() from goods where on_sale
  union all select 'acep', 'zone', id, 'dc-' || id, now() from zones`

/** Waits up to `ms` for the server to exit by itself; its exit. */
async function exitOf(server, ms) {
  const outcome = await Promise.race([
    server.exited,
    new Promise((resolve) => setTimeout(() => resolve(null), ms)),
  ])
  expect(outcome !== null, `${server.name} is still running after ${ms / 1000} s\n${tail(server)}`)
  children.delete(server.child)
  return outcome
}

step(
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

step('3. both start; health on both; a login on 1 is seen by 2', async () => {
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
    if (!code) await new Promise((resolve) => setTimeout(resolve, 250))
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
})

/** NGINX_BIN, else the PATH's nginx or /usr/sbin's (not on a user's PATH); null when none runs. */
function findNginx() {
  const candidates = process.env.NGINX_BIN
    ? [process.env.NGINX_BIN]
    : [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin'].map((dir) =>
        path.join(dir, 'nginx'),
      )
  return (
    candidates.find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK)
        return fs.statSync(file).isFile()
      } catch {
        return false
      }
    }) ?? null
  )
}

/**
 * Section 6's certificate and ports, made before the fakes start so that they can trust it: a throwaway
 * self-signed certificate for the public name, and for 127.0.0.1, where the fakes reach nginx.
 */
async function prepareProxy() {
  const dir = path.join(work, 'nginx')
  fs.mkdirSync(dir)
  const cert = path.join(dir, 'fullchain.pem')
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${PUBLIC_HOST}`,
    '-addext',
    `subjectAltName=DNS:${PUBLIC_HOST},IP:127.0.0.1`,
    '-keyout',
    path.join(dir, 'privkey.pem'),
    '-out',
    cert,
  ])
  return {
    dir,
    cert,
    ca: fs.readFileSync(cert),
    plainPort: await freePort(),
    tlsPort: await freePort(),
    log: (name) => fs.readFileSync(path.join(dir, name), 'utf8'),
  }
}

/**
 * One request to nginx as a client would send it: https with SNI and Host the public name, the certificate
 * verified (against the throwaway one: any other fails).
 */
function viaProxy(port, method, route, { body, headers = {}, tls = true } = {}) {
  return new Promise((resolve, reject) => {
    const request = (tls ? httpsRequest : httpRequest)(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        servername: PUBLIC_HOST,
        ca: state.proxy.ca,
        headers: { host: PUBLIC_HOST, ...headers },
        timeout: 10_000,
      },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        )
      },
    )
    request.on('error', reject)
    request.on('timeout', () => request.destroy(new Error(`${method} ${route}: no answer in 10 s`)))
    request.end(body)
  })
}

/** One HTTP/2 GET to nginx (the block's `listen 443 ssl http2`), the certificate verified likewise. */
function viaHttp2(port, route) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, {
      servername: PUBLIC_HOST,
      ca: state.proxy.ca,
    })
    session.on('error', reject)
    session.setTimeout(10_000, () =>
      session.destroy(new Error(`HTTP/2 ${route}: no answer in 10 s`)),
    )
    const request = session.request({ ':path': route, ':authority': PUBLIC_HOST })
    const chunks = []
    let status = 0
    request.on('response', (headers) => (status = headers[':status']))
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      session.close()
      resolve({ status, body: Buffer.concat(chunks).toString() })
    })
    request.on('error', reject)
    request.end()
  })
}

/** A forged notification on each of section 6's notify paths (a trade's and a refund's). */
const FORGED_NOTIFICATIONS = [
  {
    route: `${API}/pay/notify/alipay`,
    body: 'trade_status=TRADE_SUCCESS&sign_type=RSA2&sign=forged',
    type: 'application/x-www-form-urlencoded; charset=utf-8',
  },
  {
    route: `${API}/pay/notify/wechatpay/refund`,
    body: JSON.stringify({ id: 'forged', event_type: 'REFUND.SUCCESS', resource: {} }),
    type: 'application/json',
  },
]

/** Posts it through nginx: the server itself must refuse it (its envelope), not nginx (404, 502, …). */
async function notifyThroughProxy({ route, body, type }) {
  const reply = await viaProxy(state.proxy.tlsPort, 'POST', route, {
    body,
    headers: { 'content-type': type },
  })
  let envelope = null
  try {
    envelope = JSON.parse(reply.body)
  } catch {
    /* an nginx error page */
  }
  expect(
    reply.status >= 400 && typeof envelope?.ts === 'number' && typeof envelope?.msg === 'string',
    `POST ${route} (forged) through nginx was not refused by the server: ${reply.status} ${reply.body.slice(0, 200)}`,
  )
}

/** Lines of the server's log for GET /health from 127.0.0.1 (nginx's address, as X-Forwarded-For says). */
const healthLines = (server) =>
  server
    .log()
    .split('\n')
    .filter(
      (line) =>
        line.includes('"/vmcloud/api/health"') && line.includes('"remoteAddress":"127.0.0.1"'),
    ).length

step("3b. section 6's nginx in front of both instances", async () => {
  const { nginx, proxy } = state
  if (!proxy) {
    console.log('   SKIPPED: no nginx on this machine (install it, or set NGINX_BIN)')
    return
  }
  const doc = fs.readFileSync(path.join(repoRoot, 'docs/deploy.md'), 'utf8')
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1]
  expect(block, 'docs/deploy.md has no ```nginx block')
  const [one, two] = state.servers
  const { dir, plainPort, tlsPort } = proxy
  // Only addresses and certificate paths change; every directive is the page's own.
  let site = block
  for (const [from, to] of [
    ['127.0.0.1:3001', `127.0.0.1:${one.env.PORT}`],
    ['127.0.0.1:3002', `127.0.0.1:${two.env.PORT}`],
    ['listen 80;', `listen 127.0.0.1:${plainPort};`],
    ['listen 443 ssl', `listen 127.0.0.1:${tlsPort} ssl`],
    ['/etc/ssl/cloudphone/', `${dir}/`],
  ]) {
    expect(site.includes(from), `deploy.md's nginx block no longer has "${from}"`)
    site = site.replaceAll(from, to)
  }
  fs.writeFileSync(path.join(dir, 'cloudphone.conf'), site)
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${dir}/${kind};`)
    .join(' ')
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid; error_log ${dir}/error.log;\nevents {}\n` +
      `http { access_log ${dir}/access.log; ${temp}\ninclude ${dir}/cloudphone.conf;\n}\n`,
  )
  const conf = ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')]
  run(nginx, ['-t', ...conf])
  // One process (no master and workers), so that the clean-up's SIGKILL leaves nothing listening
  proxy.process = spawn(nginx, [...conf, '-g', 'daemon off; master_process off;'], {
    stdio: 'ignore',
  })
  proxy.exited = new Promise((resolve) =>
    proxy.process.on('exit', (code, signal) => resolve({ code, signal })),
  )
  children.add(proxy.process)
  for (let i = 0; ; i++) {
    try {
      await viaProxy(tlsPort, 'GET', `${API}/health`)
      break
    } catch (error) {
      if (i > 40) fail(`nginx does not answer: ${error.message}\n${proxy.log('error.log')}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }

  const h2 = await viaHttp2(tlsPort, `${API}/health`)
  expect(
    h2.status === 200 && JSON.parse(h2.body).data?.db === 'ok',
    `health over HTTP/2 through nginx: ${h2.status} ${h2.body}`,
  )
  const plain = await viaProxy(plainPort, 'GET', `${API}/health`, { tls: false })
  expect(
    plain.status === 301 && plain.headers.location === `https://${PUBLIC_HOST}${API}/health`,
    `http is not sent to https: ${plain.status} ${plain.headers.location}`,
  )
  const before = [healthLines(one), healthLines(two)]
  for (let i = 0; i < 6; i++) {
    const reply = await viaProxy(tlsPort, 'GET', `${API}/health`, {
      headers: { 'x-forwarded-for': FORGED_IP },
    })
    expect(
      reply.status === 200 && JSON.parse(reply.body).data?.db === 'ok',
      `health through nginx: ${reply.status} ${reply.body}`,
    )
  }
  for (const server of [one, two])
    expect(
      !server.log().includes(FORGED_IP),
      `a client's own X-Forwarded-For (${FORGED_IP}) reached ${server.name}`,
    )
  const after = [healthLines(one), healthLines(two)]
  expect(
    after[0] > before[0] && after[1] > before[1],
    `requests through nginx did not reach both instances (health lines from 127.0.0.1 before ${before}, after ${after})`,
  )
  for (const notification of FORGED_NOTIFICATIONS) await notifyThroughProxy(notification)
  const huge = await viaProxy(tlsPort, 'POST', `${API}/file/upload`, {
    body: Buffer.alloc(5 * 1024 * 1024),
    headers: { 'content-type': 'application/octet-stream' },
  })
  expect(huge.status === 413, `a 5 MB body was not stopped by nginx (status ${huge.status})`)
  // nginx stays up: 3c's notifications and callbacks come through it, 3d stops an instance behind it
  console.log(
    `   TLS verified for ${PUBLIC_HOST}, HTTP/2, http → https, both upstreams (${after[0] - before[0]} + ${after[1] - before[1]} of 6), ` +
      `X-Forwarded-For replaced, forged notifications on both notify paths refused by the server, 413 over 4 MB`,
  )
})

/** The seeded catalogue's 畅享版 4核4G (goods = level × 100 + n), one month (price = goods × 10 + 3), 上海. */
const PHONE = { goodId: 101, priceId: 1013, zoneId: 1 }
const ORDER_COMPLETED = 2 // 已完成: paid and its phones made
const DEVICE_RUNNING = 1 // 运行中

/** Asks `probe` every second until its answer is `done`, for at most `ms`; its last answer. */
async function until(ms, probe) {
  const deadline = Date.now() + ms
  for (;;) {
    const answer = await probe()
    if (answer.done || Date.now() > deadline) return answer
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
}

/** The logged-in buyer orders one phone on instance 1 (behind the proxy); its order. */
async function orderPhone(server) {
  const buyer = { ...state.session, 'x-forwarded-for': CLIENT_IP }
  const quote = await http(
    server,
    'POST',
    '/CommodityGroup/getGoodPrice',
    { kind: 'new', goodId: PHONE.goodId, priceId: PHONE.priceId, quantity: 1 },
    buyer,
  )
  expect(quote.code === 200, `getGoodPrice: ${JSON.stringify(quote)}`)
  const order = await http(
    server,
    'POST',
    '/order/createCloudOrder',
    {
      ...PHONE,
      quantity: 1,
      expectedAmount: quote.data.total,
      idempotencyKey: crypto.randomBytes(8).toString('hex'),
    },
    buyer,
  )
  expect(order.code === 200, `createCloudOrder: ${JSON.stringify(order)}`)
  return order.data
}

/**
 * The paid order, followed on instance 2: completed with one phone, the phone running, its pod on the
 * fake ACEP running with the configuration and data centre the catalogue maps it to.
 */
async function phoneRuns(what, orderNo) {
  const [, two] = state.servers
  const order = await until(60_000, async () => {
    const reply = await http(
      two,
      'GET',
      `/order/getOrderInfo?orderNo=${orderNo}`,
      undefined,
      state.session,
    )
    return {
      reply,
      done: reply.data?.status === ORDER_COMPLETED && reply.data.deviceIds.length === 1,
    }
  })
  expect(
    order.done,
    `${what}: the order is not completed with one phone on instance 2: ${JSON.stringify(order.reply)}\n${tail(two)}`,
  )
  const [deviceId] = order.reply.data.deviceIds
  const device = await until(60_000, async () => {
    const reply = await http(
      two,
      'GET',
      `/device/detail?deviceId=${deviceId}`,
      undefined,
      state.session,
    )
    return { reply, done: reply.data?.status === DEVICE_RUNNING }
  })
  expect(
    device.done,
    `${what}: phone ${deviceId} is not running on instance 2: ${JSON.stringify(device.reply)}\n${tail(two)}`,
  )
  const podId = state.cluster
    .asApp(`select supplier_instance_id from devices where id = ${Number(deviceId)}`)
    .trim()
  const pods = await fakeControl('GET', '/acep/pods')
  const pod = pods.pods?.find((candidate) => candidate.podId === podId)
  expect(
    pod?.running && pod.config === `config-${PHONE.goodId}` && pod.dc === `dc-${PHONE.zoneId}`,
    `${what}: phone ${deviceId}'s pod "${podId}" is not running on the fake ACEP as mapped: ${JSON.stringify(pods)}\n${state.fakes.log()}`,
  )
  return { deviceId, podId }
}

step(
  '3c. pay with Alipay and with WeChat Pay H5 through the fakes; the phones run on the fake ACEP',
  async () => {
    const [one] = state.servers
    const buyer = { ...state.session, 'x-forwarded-for': CLIENT_IP }

    // Alipay: the WAP checkout opened by the buyer's browser, paid there; the notification to our origin.
    const alipayOrder = await orderPhone(one)
    const alipay = await http(
      one,
      'POST',
      '/pay/createPayment',
      { orderNo: alipayOrder.orderNo, payMethod: 1 },
      buyer,
    )
    expect(
      alipay.code === 200 &&
        alipay.data.checkoutUrl?.startsWith(`${state.fakes.env.ALIPAY_GATEWAY}?`),
      `Alipay createPayment on instance 1 did not answer the gateway's checkout: ${JSON.stringify(alipay)}`,
    )
    const page = await (
      await fetch(alipay.data.checkoutUrl, { signal: AbortSignal.timeout(10_000) })
    ).text()
    expect(page.includes('支付宝'), `the Alipay checkout page refused the link: ${page}`)
    const alipayPaid = await fakeControl('POST', `/alipay/pay/${alipay.data.tradeNo}`)
    expect(
      alipayPaid.deliveries?.length === 1 &&
        alipayPaid.deliveries[0].status === 200 &&
        alipayPaid.deliveries[0].reply === 'success',
      `Alipay's notification was not answered "success": ${JSON.stringify(alipayPaid)}`,
    )

    // WeChat Pay H5: the h5_url (WeChat's own page, which returns to ours) and the notification.
    const wechatOrder = await orderPhone(one)
    const wechat = await http(
      one,
      'POST',
      '/pay/createPayment',
      { orderNo: wechatOrder.orderNo, payMethod: 2, scene: 'browser' },
      buyer,
    )
    const back = `${PUBLIC_BASE_URL}/pages/pay/pay?orderNo=${wechatOrder.orderNo}`
    let h5 = null
    try {
      h5 = new URL(wechat.data.checkoutUrl)
    } catch {
      /* no URL */
    }
    expect(
      wechat.code === 200 &&
        h5?.origin === 'https://wx.tenpay.com' &&
        h5.searchParams.get('redirect_url') === back,
      `WeChat Pay H5 createPayment did not answer the h5_url returning to ${back}: ${JSON.stringify(wechat)}`,
    )
    const wechatPaid = await fakeControl('POST', `/wechatpay/pay/${wechat.data.tradeNo}`)
    expect(
      wechatPaid.deliveries?.length === 1 && wechatPaid.deliveries[0].status === 200,
      `WeChat Pay's notification was not answered 200: ${JSON.stringify(wechatPaid)}`,
    )
    // With nginx the fakes sent them to its TLS port: signed over the raw body, so accepted only if
    // section 6's block passed path and bytes unchanged.
    const via = state.proxy ? 'through nginx' : 'straight to the instances'
    if (state.proxy) {
      const access = state.proxy.log('access.log')
      for (const provider of ['alipay', 'wechatpay'])
        expect(
          new RegExp(`"POST ${API}/pay/notify/${provider} HTTP/1\\.1" 200 `).test(access),
          `${provider}'s notification is not in nginx's access log, answered 200:\n${access}`,
        )
    }
    console.log(`   both notifications came ${via} and were accepted at ${seconds()} s`)

    const [byAlipay, byWechat] = await Promise.all([
      phoneRuns('Alipay', alipayOrder.orderNo),
      phoneRuns('WeChat Pay', wechatOrder.orderNo),
    ])
    console.log(
      `   both orders completed; phones ${byAlipay.deviceId} and ${byWechat.deviceId} run as ACEP pods ${byAlipay.podId}, ${byWechat.podId} (seen by instance 2)`,
    )
  },
)

step('3d. instance 2 stops; nginx sends requests and notifications to instance 1', async () => {
  const { proxy } = state
  if (!proxy) {
    console.log('   SKIPPED: no nginx on this machine')
    return
  }
  const [one, two] = state.servers
  await stopServer(two) // as systemd stops one instance of a rolling restart (section 4)
  const refused = () => (proxy.log('error.log').match(/connect\(\) failed/g) ?? []).length
  const before = [refused(), healthLines(one)]
  // Notifications first, while nginx still counts instance 2 as up (max_fails): some are sent to it
  for (let i = 0; i < 4; i++) await notifyThroughProxy(FORGED_NOTIFICATIONS[i % 2])
  for (let i = 0; i < 4; i++) {
    const reply = await viaProxy(proxy.tlsPort, 'GET', `${API}/health`)
    expect(
      reply.status === 200,
      `health through nginx with instance 2 stopped: ${reply.status} ${reply.body}`,
    )
  }
  const retried = refused() - before[0]
  expect(
    retried > 0,
    `nginx never tried the stopped instance 2, so its failover went unchecked:\n${proxy.log('error.log')}`,
  )
  expect(
    healthLines(one) - before[1] === 4,
    `instance 1 did not answer the 4 health checks through nginx`,
  )
  proxy.process.kill('SIGQUIT')
  const exit = await Promise.race([
    proxy.exited,
    new Promise((resolve) => setTimeout(() => resolve(null), 10_000)),
  ])
  expect(exit?.code === 0, `nginx did not quit within 10 s of SIGQUIT: ${JSON.stringify(exit)}`)
  children.delete(proxy.process)
  console.log(
    `   instance 2 stopped; 4 notifications and 4 requests answered by instance 1 (nginx moved ${retried} refused connections over)`,
  )
})

step('4. pg_dump → restore into a scratch database → a server on it has the user', async () => {
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
})

step('5. the mini-program domain whitelists', async () => {
  const script = path.join(repoRoot, 'scripts/weapp-domains.mjs')
  const release = spawnSync(process.execPath, [script], {
    cwd: repoRoot,
    env: { ...baseEnv(), TARO_APP_ID: 'wx0123456789abcdef', TARO_APP_API_BASE: PUBLIC_API_BASE },
    encoding: 'utf8',
  })
  expect(release.status === 0, `weapp-domains.mjs exited ${release.status}:\n${release.stderr}`)
  const origin = new URL(PUBLIC_API_BASE).origin
  for (const label of ['request合法域名', 'uploadFile合法域名'])
    expect(
      new RegExp(`${label}\\s+${origin}$`, 'm').test(release.stdout),
      `no "${label} ${origin}" in:\n${release.stdout}`,
    )
  expect(
    release.stdout.includes('业务域名') && release.stdout.trimEnd().endsWith(origin),
    `no 业务域名 ${origin} in:\n${release.stdout}`,
  )
  const defaults = spawnSync(process.execPath, [script], {
    cwd: repoRoot,
    env: baseEnv(),
    encoding: 'utf8',
  })
  expect(
    defaults.status === 1 && /must be https/.test(defaults.stderr),
    `the development defaults were not refused (exit ${defaults.status}):\n${defaults.stderr}`,
  )
  console.log(`   ${origin} printed for request, uploadFile and 业务域名; the defaults refused`)
})

step('every server stops cleanly on SIGTERM; /health fails without the database', async () => {
  const [one, ...others] = state.servers
  await Promise.all([...others, state.fakes].map(stopServer))
  // section 7: the check a load balancer runs must fail when the instance cannot reach its database
  run(path.join(PG_BIN, 'pg_ctl'), ['-D', pgData, '-m', 'fast', '-w', 'stop'])
  const reply = await http(one, 'GET', '/health')
  expect(
    reply.status >= 500 && reply.code !== 200,
    `/health answered ${reply.status} ${JSON.stringify(reply)} with the database stopped`,
  )
  await stopServer(one)
  console.log(`   /health answered HTTP ${reply.status} with the database stopped`)
})

// --- run -------------------------------------------------------------------------------------------
console.log(`deploy-check as ${os.userInfo().username} (uid ${process.getuid()}), work dir ${work}`)
for (const { name, fn } of steps) {
  console.log(`== [${seconds()} s] ${name}`)
  try {
    await fn()
  } catch (error) {
    console.error(
      `\nDEPLOY CHECK FAILED at "${name}" after ${seconds()} s:\n${error instanceof CheckFailed ? error.message : error.stack}`,
    )
    cleanup()
    process.exit(1)
  }
}
cleanup()
console.log(`deploy-check passed in ${seconds()} s`)
process.exit(0) // without waiting for the time limits' timers
