/**
 * The set-up the ACEP tests share (adapters/acep-*.test.ts, e2e/acep-stream.e2e.ts): the fake ACEP on a
 * fresh database whose catalogue is mapped to it, the ACEP supplier talking to it, the whole server on
 * that supplier, and phones it provisioned. What each test does with them stays in the test.
 */
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import type { TestContext } from 'node:test'
import { DeviceStatus } from '#domain/device-lifecycle'
import type { Clock } from '../../src/clock'
import { acepSupplierFor, FakeAcep, mapWholeCatalogue } from './fake-acep'
import { deviceRow, givePhones } from './fleet'
import { createTestDatabase } from './test-database'
import { buildTestApp, type TestApp } from './test-app'

/** Every variable SUPPLIER_PROVIDER=acep needs, set (to placeholders): start-up checks start from it. */
export const ACEP_ENV = {
  SUPPLIER_PROVIDER: 'acep',
  ACEP_ACCESS_KEY_ID: 'a',
  ACEP_SECRET_ACCESS_KEY: 'b',
  ACEP_PRODUCT_ID: 'c',
  ACEP_RESOURCE_TYPE: '200',
  ACEP_CALLBACK_ACCESS_KEY: 'd',
  ACEP_CALLBACK_SECRET: 'e',
} as const

/** ACEP's callbacks (回调服务) reach the server here. */
export const ACEP_CALLBACK_PATH = '/vmcloud/api/supplier/acep/callback'

/** The fake ACEP and a fresh database mapped to it, with the supplier alone (no server); both closed after. */
export async function acepSupplierSetup(t: TestContext) {
  const database = await createTestDatabase()
  await mapWholeCatalogue(database.db)
  const fake = await new FakeAcep().start()
  t.after(async () => {
    await fake.stop()
    await database.close()
  })
  return { fake, database, supplier: acepSupplierFor(fake, database.db) }
}

export interface AcepAppOptions {
  /** More supplier environment, once the fake runs (streamEnv for the live stream). */
  env?: (fake: FakeAcep) => Record<string, string>
  /** Listen on a port of 127.0.0.1 and have the fake post its callbacks there. */
  listen?: boolean
}

/**
 * The whole server on the ACEP supplier against a fresh fake ACEP. The supplier reads the app's
 * FakeClock (buildTestApp makes it), so `ctx.clock.advance` moves ACEP's view of time too. `warnings`
 * are the server's log lines at warn and above.
 */
export async function acepApp(t: TestContext, options: AcepAppOptions = {}) {
  const database = await createTestDatabase()
  await mapWholeCatalogue(database.db)
  const fake = await new FakeAcep().start()
  t.after(() => fake.stop())
  let ctx: TestApp | null = null
  const clock: Clock = { now: () => ctx!.clock.now() }
  const env = options.env?.(fake) ?? {}
  const warnings: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      warnings.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      done()
    },
  })
  ctx = await buildTestApp(t, {
    database,
    supplier: acepSupplierFor(fake, database.db, clock, '', env),
    logger: { level: 'warn', stream },
  })
  const app = ctx.app
  let origin = ''
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' })
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    fake.callbackUrl = `${origin}${ACEP_CALLBACK_PATH}`
    fake.callbackNow = () => ctx!.clock.now()
  }
  return { ctx, app, fake, database, origin, warnings }
}

/** `count` phones given to `userId` and provisioned on the fake (CreatePod, booted): all running. */
export async function runningAcepPhones(
  ctx: TestApp,
  fake: FakeAcep,
  userId: number,
  count: number,
) {
  const phones = await givePhones(ctx, userId, count)
  await ctx.app.jobs.runDue(10_000)
  await fake.advance(fake.delayMs)
  ctx.clock.advance(5_000)
  await ctx.app.jobs.runDue(10_000)
  const pods: string[] = []
  for (const phone of phones) {
    const row = await deviceRow(ctx, phone)
    assert.equal(row.status, DeviceStatus.running, 'running')
    pods.push(row.supplierInstanceId!)
  }
  return { phones, pods }
}
