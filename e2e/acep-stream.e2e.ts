/**
 * ACEP's live stream on the control page, in Chromium at 390×844: the server on the ACEP supplier
 * against the fake ACEP (its STS too), with the fake vePhoneSDK-Web.js as the operator's SDK file. The
 * page asks for short-lived keys, loads the SDK from our origin and starts the pod's stream, which the
 * SDK shows only once the fake accepted the keys; wrong or expired keys and a refused key answer fall
 * back to the screenshots with a message; without the SDK file the page says it shows screenshots.
 * The server runs in this process (buildTestApp on a port), so this file needs no H5 build.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { DeviceStatus } from '#domain/device-lifecycle'
import { CONTROL_TEXT } from '#domain/control-page'
import type { Clock } from '../server/src/clock'
import type { AuthTokenResult } from '../server/src/contract/device'
import { devices } from '../server/src/db/schema'
import {
  acepSupplierFor,
  FakeAcep,
  mapWholeCatalogue,
  streamEnv,
  writeFakeSdk,
} from '../server/test/helpers/fake-acep'
import { deviceRow, givePhones } from '../server/test/helpers/fleet'
import { createTestDatabase } from '../server/test/helpers/test-database'
import { buildTestApp, get, loginWithSms, type TestApp } from '../server/test/helpers/test-app'
import { collectPageErrors, launchBrowser, MOBILE, screenshot } from './harness'

const CALLBACK = '/vmcloud/api/supplier/acep/callback'

/** The server on the fake ACEP (with or without the SDK file), listening; a buyer with running phones. */
async function acepServer(t: TestContext, options: { stream: boolean; phones: number }) {
  const database = await createTestDatabase()
  await mapWholeCatalogue(database.db)
  const fake = await new FakeAcep().start()
  t.after(() => fake.stop())
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acep-stream-e2e-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const sdkFile = writeFakeSdk(path.join(dir, 'vePhoneSDK-Web.js'), fake.endpoint)
  let ctx: TestApp | null = null
  const clock: Clock = { now: () => ctx!.clock.now() }
  const env = options.stream ? streamEnv(fake, sdkFile) : {}
  const supplier = acepSupplierFor(fake, database.db, clock, '', env)
  ctx = await buildTestApp(t, { database, supplier })
  await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
  fake.callbackUrl = `${origin}${CALLBACK}`
  fake.callbackNow = () => ctx!.clock.now()
  const me = await loginWithSms(ctx, '13100000021')
  const phones = await givePhones(ctx, me.userId, options.phones)
  await ctx.app.jobs.runDue(10_000)
  await fake.advance(fake.delayMs)
  ctx.clock.advance(5_000)
  await ctx.app.jobs.runDue(10_000)
  const pods: string[] = []
  for (const phone of phones) {
    const row = await deviceRow(ctx, phone)
    assert.equal(row.status, DeviceStatus.running)
    pods.push(row.supplierInstanceId!)
  }
  /** The control page's address as web_instance builds it (a fresh one-time token). */
  const controlUrl = async (deviceId: number) => {
    const issued = await get<AuthTokenResult>(ctx.app, '/user/getAuthToken', me, {
      deviceId: String(deviceId),
    })
    assert.equal(issued.code, 200, issued.msg)
    return `${origin}${issued.data.controlUrl}&token=${encodeURIComponent(issued.data.authToken)}&userId=${me.userId}&userType=2&isWeb=1`
  }
  return { ctx, fake, phones, pods, controlUrl }
}

async function phonePage(t: TestContext, browser: Browser) {
  const context = await browser.newContext(MOBILE)
  t.after(() => context.close())
  const page = await context.newPage()
  return { page, errors: collectPageErrors(page) }
}

/** The page fell back: the mode note, the message, a relayed screenshot shown, no stream. */
async function assertScreenshots(page: Page, message: string) {
  await page.getByText(message).waitFor({ timeout: 10_000 })
  await page.locator('#mode').getByText(CONTROL_TEXT.screenshotMode).waitFor({ timeout: 10_000 })
  await page.waitForFunction(
    () => {
      const img = document.getElementById('screen') as HTMLImageElement | null
      return !!img && !img.hidden && img.complete && img.naturalWidth > 0
    },
    undefined,
    { timeout: 15_000 },
  )
  assert.equal(await page.locator('#live').isHidden(), true)
  assert.equal(await page.locator('.ve-phone-frame').count(), 0)
}

test('the control page plays the pod live with the SDK, and falls back to screenshots when the keys fail', async (t) => {
  const { ctx, fake, phones, pods, controlUrl } = await acepServer(t, { stream: true, phones: 3 })
  const browser = await launchBrowser()
  t.after(() => browser.close())

  // Live: keys from our server, the SDK from our origin, the fake accepts them and shows the pod.
  {
    const { page, errors } = await phonePage(t, browser)
    await page.goto(await controlUrl(phones[0]))
    const frame = page.locator(`#live .ve-phone-frame[data-pod-id="${pods[0]}"]`)
    await frame.waitFor({ state: 'visible', timeout: 15_000 })
    await page.locator('#mode').getByText('实时画面', { exact: true }).waitFor()
    assert.equal(await page.locator('#screen').isHidden(), true, 'no screenshot under the stream')
    assert.deepEqual(
      fake.streams.map((s) => s.podId),
      [pods[0]],
      'the SDK started the right pod with keys the fake issued',
    )
    assert.ok(fake.issued.has(fake.streams[0].accessKeyId))
    // The buttons still work beside the stream.
    await page.getByRole('button', { name: '清理', exact: true }).click()
    await page.getByText('清理完成').waitFor()
    await screenshot(page, 'acep-stream-live')
    assert.deepEqual(errors, [])
  }

  // Wrong keys (the secret changed on the way): the fake refuses them, the page falls back.
  {
    const { page, errors } = await phonePage(t, browser)
    await page.route('**/control/stream?*', async (route) => {
      const answer = await route.fetch()
      const body = (await answer.json()) as { data: { token: { SecretAccessKey: string } } }
      body.data.token.SecretAccessKey = 'not-the-secret'
      await route.fulfill({ response: answer, json: body })
    })
    await page.goto(await controlUrl(phones[1]))
    await assertScreenshots(page, CONTROL_TEXT.liveFailed)
    await screenshot(page, 'acep-stream-wrong-keys')
    assert.equal(fake.streams.length, 1, 'no stream for wrong keys')
    assert.deepEqual(errors, [])
  }

  // Expired keys (they ran out before the SDK used them): refused too.
  {
    const { page, errors } = await phonePage(t, browser)
    await page.route('**/control/stream?*', async (route) => {
      const answer = await route.fetch()
      await fake.advance(16 * 60_000)
      await route.fulfill({ response: answer })
    })
    await page.goto(await controlUrl(phones[1]))
    await assertScreenshots(page, CONTROL_TEXT.liveFailed)
    assert.equal(fake.streams.length, 1, 'no stream for expired keys')
    assert.deepEqual(errors, [])
  }

  // The phone ran out before its page asked for keys: the session ends with the message and 续费,
  // never a frozen picture.
  {
    const { page, errors } = await phonePage(t, browser)
    const url = await controlUrl(phones[2])
    await ctx.database.db
      .update(devices)
      .set({ status: DeviceStatus.expired })
      .where(eq(devices.id, phones[2]))
    await page.goto(url)
    await page
      .locator('#overlay-text', { hasText: CONTROL_TEXT.expired })
      .waitFor({ timeout: 10_000 })
    await page.locator('#overlay-action', { hasText: CONTROL_TEXT.renew }).waitFor()
    await screenshot(page, 'acep-stream-refused')
    assert.equal(await page.locator('.ve-phone-frame').count(), 0)
    assert.equal(await page.locator('#screen').getAttribute('src'), null, 'no picture left')
    assert.deepEqual(errors, [])
  }
})

test('without the SDK file the control page shows screenshots and says so', async (t) => {
  const { fake, phones, controlUrl } = await acepServer(t, { stream: false, phones: 1 })
  const browser = await launchBrowser()
  t.after(() => browser.close())
  const { page, errors } = await phonePage(t, browser)
  const sdkAsked: string[] = []
  page.on('request', (request) => {
    if (/vePhoneSDK|control\/stream/.test(request.url())) sdkAsked.push(request.url())
  })
  await page.goto(await controlUrl(phones[0]))
  await page.locator('#mode').getByText(CONTROL_TEXT.screenshotMode).waitFor({ timeout: 10_000 })
  await page.waitForFunction(
    () => {
      const img = document.getElementById('screen') as HTMLImageElement | null
      return !!img && img.complete && img.naturalWidth > 0
    },
    undefined,
    { timeout: 15_000 },
  )
  await screenshot(page, 'acep-stream-screenshot-mode')
  assert.deepEqual(sdkAsked, [], 'no SDK, no keys asked')
  assert.equal(fake.count('AssumeRole'), 0)
  assert.deepEqual(errors, [])
})
