/**
 * App installs on ACEP (adapters/supplier/acep/acep-apps.ts) against the fake ACEP, held to ACEP's
 * model: the APK handed over once by UploadApp from our signed download route (forged, expired or
 * another app's signature refused), InstallApp in batches of at most 1,000 pods with each pod's Job
 * followed by GetTaskInfo (a pod refusing at once, a task failing partly), the pod's apps
 * (GetPodAppList) and LaunchApp; every refusal in our words; installs of one app at once uploading it
 * once. End to end through /app/install.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import type { AppForInstall } from '../../src/adapters/supplier/app-installer'
import {
  ACEP_APP_REFUSALS,
  APK_URL_TTL_MS,
  UPLOAD_CLAIM_STALE_MS,
} from '../../src/adapters/supplier/acep/acep-apps'
import type { AcepSupplier } from '../../src/adapters/supplier/acep/acep-supplier'
import { requestRefusal } from '../../src/adapters/supplier/acep/model/acep-model'
import type { AppItem, InstalledApp, InstallProgress, InstallResult } from '../../src/contract/app'
import type { PagedData } from '../../src/contract/common'
import { appSupplierCopies } from '../../src/db/schema'
import { acepApp, runningAcepPhones } from '../helpers/acep-app'
import { buildApk, uploadApk } from '../helpers/apk'
import { get, loginWithSms, post } from '../helpers/test-app'

async function setup(t: Parameters<typeof acepApp>[0], phone: string) {
  const env = await acepApp(t, { listen: true })
  const supplier = env.app.services.ctx.supplier as AcepSupplier
  supplier.apps.publicBase = env.origin
  const me = await loginWithSms(env.ctx, phone)
  const apk = buildApk({ packageName: 'com.studio.helper', versionCode: 7, versionName: '2.0' })
  const uploaded = await uploadApk(env.app, me, apk)
  assert.equal(uploaded.code, 200, uploaded.msg)
  const item = uploaded.data as AppItem
  const forInstall: AppForInstall = {
    appId: item.appId,
    packageName: item.packageName,
    name: item.name,
    versionCode: item.versionCode,
    versionName: item.versionName,
    abis: [],
    read: async () => apk,
  }
  return { ...env, supplier, apps: supplier.apps, me, apk, item, forInstall }
}

const download = (app: Awaited<ReturnType<typeof setup>>['app'], url: string) =>
  app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') })

test('the APK route serves the app its signature names until it expires; forged, expired or another app’s signature is refused', async (t) => {
  const { app, apps, apk, item, ctx, me } = await setup(t, '13500004801')
  const other = await uploadApk(app, me, buildApk({ packageName: 'com.studio.other' }))
  const otherId = (other.data as AppItem).appId
  const url = apps.downloadUrl(item.appId)
  const good = await download(app, url)
  assert.equal(good.statusCode, 200)
  assert.equal(good.headers['content-type'], 'application/vnd.android.package-archive')
  assert.deepEqual(good.rawPayload, apk)

  const forged = url.replace(/s=([0-9a-f])/, (_m, c: string) => `s=${c === '0' ? '1' : '0'}`)
  assert.equal((await download(app, forged)).statusCode, 403, 'forged signature')
  const replayed = url.replace(`/apk/${item.appId}?`, `/apk/${otherId}?`)
  assert.equal((await download(app, replayed)).statusCode, 403, 'another app')
  const stretched = url.replace(/e=(\d+)/, (_m, e: string) => `e=${Number(e) + 60_000}`)
  assert.equal((await download(app, stretched)).statusCode, 403, 'a later expiry, same signature')
  assert.equal((await download(app, url.split('?')[0])).statusCode, 403, 'unsigned')
  ctx.clock.advance(APK_URL_TTL_MS + 1)
  assert.equal((await download(app, url)).statusCode, 403, 'expired')
})

test('install: one upload, InstallApp in batches of 1,000, each pod’s Job followed; refusals in our words; every request the model’s', async (t) => {
  const { fake, apps, forInstall, database, item } = await setup(t, '13500004802')
  const pods = await fake.seedRunningPods(database.db, 1002)
  const [offPod, failing] = [pods[0], pods[1]]
  fake.pods.get(offPod)!.off = true
  fake.failInstallOn.add(failing)
  fake.throttleNext = 1 // the first call is throttled and retried

  const answers = await apps.install([...pods, pods[5]], forInstall)
  assert.equal(answers.size, 1002)
  assert.equal(fake.count('UploadApp'), 1)
  assert.equal(fake.fetches.length, 1)
  assert.equal(fake.fetches[0].status, 200, 'ACEP fetched the APK from our signed route')
  const sizes = fake.calls
    .filter((c) => c.action === 'InstallApp')
    .map((c) => {
      return (c.body.PodIdList as string[]).length
    })
  assert.deepEqual(sizes, [1000, 2])
  assert.deepEqual(answers.get(offPod), { ok: false, reason: ACEP_APP_REFUSALS.refused })
  const [copy] = await database.db
    .select()
    .from(appSupplierCopies)
    .where(eq(appSupplierCopies.appId, item.appId))
  assert.equal(copy.status, 'ready')

  const tasks = pods.slice(1).map((pod) => {
    const answer = answers.get(pod)!
    assert.ok(answer.ok, pod)
    return { instanceId: pod, task: answer.task }
  })
  let states = await apps.taskStates(tasks)
  assert.ok([...states.values()].every((s) => s.status === 'installing'))
  await fake.advance(fake.delayMs)
  states = await apps.taskStates(tasks)
  assert.deepEqual(states.get(tasks[0].task), {
    status: 'failed',
    reason: ACEP_APP_REFUSALS.installFailed,
  })
  assert.deepEqual(states.get(tasks[1].task), { status: 'installed' })
  assert.equal([...states.values()].filter((s) => s.status === 'installed').length, 1000)
  // A task ACEP no longer knows fails its pods.
  const lost = await apps.taskStates([
    { instanceId: pods[2], task: `7399999999999999999/${pods[2]}` },
  ])
  assert.deepEqual([...lost.values()], [{ status: 'failed', reason: ACEP_APP_REFUSALS.taskLost }])

  const installed = await apps.installed(pods[2])
  assert.ok(installed.some((a) => a.packageName === 'com.studio.helper' && a.versionName === '2.0'))
  await apps.launch(pods[2], 'com.studio.helper')
  await assert.rejects(apps.launch(failing, 'com.studio.helper'), {
    message: ACEP_APP_REFUSALS.launchFailed,
  })
  // The same app again: no second upload.
  await apps.install([pods[3]], forInstall)
  assert.equal(fake.count('UploadApp'), 1)
  for (const sent of fake.requests) assert.equal(requestRefusal(sent), null, sent.action)
})

test('an upload ACEP cannot fetch fails every pod with our words, and is tried again next time', async (t) => {
  const { fake, apps, forInstall, database, origin } = await setup(t, '13500004803')
  const [pod] = await fake.seedRunningPods(database.db, 1)
  apps.publicBase = 'http://127.0.0.1:1'
  const refused = await apps.install([pod], forInstall)
  assert.deepEqual(refused.get(pod), { ok: false, reason: ACEP_APP_REFUSALS.uploadFailed })
  assert.equal(fake.count('InstallApp'), 0)
  apps.publicBase = origin
  const accepted = await apps.install([pod], forInstall)
  assert.equal(accepted.get(pod)?.ok, true)
  assert.equal(fake.count('UploadApp'), 2)
})

test('installs of one app at once upload it once; a claim whose uploader stopped is taken over', async (t) => {
  const { fake, apps, forInstall, database, ctx, item } = await setup(t, '13500004805')
  const pods = await fake.seedRunningPods(database.db, 3)
  const answers = await Promise.all(pods.map((pod) => apps.install([pod], forInstall)))
  assert.equal(fake.count('UploadApp'), 1, 'three batches at once, one upload')
  for (const [i, pod] of pods.entries()) assert.equal(answers[i].get(pod)?.ok, true, pod)

  // an uploader that claimed the copy and stopped before UploadApp answered (the process died)
  await database.db
    .update(appSupplierCopies)
    .set({ status: 'uploading', taskId: null, updatedAt: ctx.clock.now() })
    .where(eq(appSupplierCopies.appId, item.appId))
  ctx.clock.advance(UPLOAD_CLAIM_STALE_MS + 1)
  const after = await apps.install([pods[0]], forInstall)
  assert.equal(after.get(pods[0])?.ok, true)
  assert.equal(fake.count('UploadApp'), 2, 'taken over and uploaded again')
})

test('/app/install over ACEP phones: installed on two, one failing partly with why, listed and opened on the phone', async (t) => {
  const { fake, ctx, app, me, item } = await setup(t, '13500004804')
  const { phones, pods } = await runningAcepPhones(ctx, fake, me.userId, 3)
  fake.failInstallOn.add(pods[2])
  const started = await post<InstallProgress>(
    app,
    '/app/install',
    { appId: item.appId, deviceIds: phones },
    me,
  )
  assert.equal(started.code, 200, started.msg)
  const { installId } = started.data
  await ctx.app.jobs.runDue(10_000)
  await fake.advance(fake.delayMs)
  ctx.clock.advance(5_000)
  await ctx.app.jobs.runDue(10_000)
  const done = await get<InstallProgress>(app, '/app/install/progress', me, {
    installId: String(installId),
  })
  assert.equal(done.data.finished, true, done.data.text)
  assert.equal(done.data.text, '安装完成：成功 2，失败 1')
  const results = await get<PagedData<InstallResult>>(app, '/app/install/results', me, {
    installId: String(installId),
  })
  const failed = results.data.records.find((r) => r.deviceId === phones[2])
  assert.equal(failed?.status, 'failed')
  assert.equal(failed?.reason, ACEP_APP_REFUSALS.installFailed)

  const list = await get<InstalledApp[]>(app, '/app/installed', me, { deviceId: String(phones[0]) })
  assert.equal(list.code, 200, list.msg)
  assert.ok(list.data.some((a) => a.packageName === 'com.studio.helper'))
  const opened = await post(
    app,
    '/app/launch',
    { deviceId: phones[0], packageName: 'com.studio.helper' },
    me,
  )
  assert.equal(opened.code, 200, opened.msg)
  const notThere = await post(
    app,
    '/app/launch',
    { deviceId: phones[2], packageName: 'com.studio.helper' },
    me,
  )
  assert.notEqual(notThere.code, 200)
  assert.equal(notThere.msg, ACEP_APP_REFUSALS.launchFailed)
})
