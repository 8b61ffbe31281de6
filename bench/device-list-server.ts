/**
 * Server side of the fleet scale check: /device/list latency for a studio with 20 and with
 * 1,000 phones, and one batch command over 500 phones. Runs on PGlite in memory (the default store), in
 * process with app.inject, so it measures our code and the database, not the network.
 *
 *   node --import tsx bench/device-list-server.ts
 */
import { performance } from 'node:perf_hooks'
import type { App } from '../server/src/app'
import { createTestDatabase } from '../server/test/helpers/test-database'
import { benchApp } from './lib/api-load'

/** BENCH_SHORT=1 (scripts/bench-smoke.mjs): 20 vs 100 phones, 10 rounds per figure. */
const SHORT = process.env.BENCH_SHORT === '1'
const ROUNDS = SHORT ? 10 : 100
const SIZES = SHORT ? [20, 100] : [20, 1000]

async function call(app: App, method: 'GET' | 'POST', url: string, headers = {}, body?: object) {
  const response = await app.inject({ method, url: `/vmcloud/api${url}`, headers, payload: body })
  const json = response.json() as { code: number; msg: string; data: unknown }
  if (json.code !== 200) throw new Error(`${url}: ${json.code} ${json.msg}`)
  return json.data
}

async function login(app: App, mobilePhone: string) {
  await call(app, 'POST', '/sms/sendSmsCode', {}, { mobilePhone, type: 'login' })
  const sms = (await call(app, 'GET', `/sandbox/sms/last?mobilePhone=${mobilePhone}`)) as {
    code: string
  }
  const session = (await call(
    app,
    'POST',
    '/common/userLogin/confirm',
    {},
    {
      mobilePhone,
      code: sms.code,
    },
  )) as { token: string; userId: number }
  return { session, headers: { token: session.token, userid: String(session.userId) } }
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function time(label: string, run: () => Promise<unknown>, rounds = ROUNDS) {
  await run()
  const samples: number[] = []
  for (let i = 0; i < rounds; i++) {
    const start = performance.now()
    await run()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  const row = {
    label,
    p50: percentile(samples, 50).toFixed(1),
    p95: percentile(samples, 95).toFixed(1),
    max: samples[samples.length - 1].toFixed(1),
  }
  console.log(`${row.label.padEnd(48)} p50 ${row.p50} ms  p95 ${row.p95} ms  max ${row.max} ms`)
}

async function fleetOf(app: App, userId: number, quantity: number) {
  const ids: number[] = []
  // Orders cap quantity per order; a studio buys in several orders.
  for (let left = quantity; left > 0; left -= 50) {
    const batch = await app.services.ctx.db.transaction((tx) =>
      app.services.lifecycle.createDevicesForOrder(tx, {
        userId,
        orderId: 0,
        goodId: 301,
        zoneId: 1,
        quantity: Math.min(50, left),
        days: 30,
      }),
    )
    ids.push(...batch)
  }
  await app.jobs.runDue(100_000)
  await app.jobs.runDue(100_000)
  return ids
}

async function main() {
  const database = await createTestDatabase()
  const { app, close } = await benchApp(database)
  await app.ready()
  try {
    for (const size of SIZES) {
      const { session, headers } = await login(app, `1390000${String(size).padStart(4, '0')}`)
      const started = performance.now()
      const ids = await fleetOf(app, session.userId, size)
      console.log(
        `\n${size} phones (bought and provisioned in ${(performance.now() - started).toFixed(0)} ms)`,
      )
      const group = (await call(app, 'POST', '/group/create', headers, { name: '工作室' })) as {
        groupId: number
      }
      await call(app, 'POST', '/group/moveDevices', headers, {
        deviceIds: ids.slice(0, Math.ceil(size / 2)),
        groupId: group.groupId,
      })
      const lastPage = Math.ceil(size / 20)
      await time('list, first page of 20', () => call(app, 'GET', '/device/list?rows=20', headers))
      await time(`list, last page (${lastPage})`, () =>
        call(app, 'GET', `/device/list?rows=20&page=${lastPage}`, headers),
      )
      await time('list, one group, 10/B, page 1', () =>
        call(app, 'GET', `/device/list?rows=20&groupId=${group.groupId}&version=1`, headers),
      )
      await time('list, keyword', () =>
        call(app, 'GET', '/device/list?rows=20&keyword=99', headers),
      )
      await time('summary', () => call(app, 'GET', '/device/summary', headers))
      await time('group list', () => call(app, 'GET', '/group/list', headers))
      const batch = ids.slice(0, 500)
      await time(
        `batchCommand CleanVm × ${batch.length}`,
        () =>
          call(app, 'POST', '/device/batchCommand', headers, {
            deviceIds: batch,
            command: 'CleanVm',
          }),
        5,
      )
      const rebootStart = performance.now()
      await call(app, 'POST', '/device/batchCommand', headers, {
        deviceIds: batch,
        command: 'Reboot',
      })
      console.log(
        `${`batchCommand Reboot × ${batch.length} (once)`.padEnd(48)} ${(performance.now() - rebootStart).toFixed(1)} ms`,
      )
    }
  } finally {
    await close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
