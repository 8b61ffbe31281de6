/**
 * The providers the servers run on: the local fakes of Alipay, WeChat Pay and ACEP
 * (server/test/helpers/run-fakes.ts), and the sandboxes of SMS and WeChat login.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

import { expect } from './check.mjs'
import { PUBLIC_BASE_URL, repoRoot, state } from './context.mjs'
import { baseEnv, children, work } from './processes.mjs'

/**
 * The providers production runs on here: Alipay, WeChat Pay and ACEP are the real adapters talking to
 * their local fakes (startFakes; ALLOW_SANDBOX_PAYMENT and ALLOW_SANDBOX_SUPPLIER stay unset). SMS and
 * WeChat login have no fake, so they stay the sandboxes, each allowed with its own switch (the SMS code
 * is read from the server log).
 */
export function providerEnv(fakes) {
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
export async function startFakes(upstreams, ca) {
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
export async function fakeControl(method, route) {
  const response = await fetch(`${state.fakes.control}${route}`, {
    method,
    signal: AbortSignal.timeout(20_000),
  })
  return { status: response.status, ...(await response.json()) }
}
