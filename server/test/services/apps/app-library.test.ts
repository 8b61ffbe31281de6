/**
 * The app library's routes (/app/upload, /app/list, /app/delete; services/apps/app-library.ts): an APK
 * built here is read, kept private (never under /files) with its icon public, counted against the
 * daily APK quota apart from avatars, listed beside the operators' visible catalogue, removed only by
 * its owner, and purged from disk once nothing refers to it; every refusal answers with its code and
 * its name in data.refusal.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eq, like } from 'drizzle-orm'
import { APK_MAX_BYTES, APK_QUOTA, APK_REFUSALS } from '#domain/apps'
import { ResultCode } from '#domain/result-codes'
import type { AppItem, AppList } from '../../../src/contract/app'
import { apps, uploads } from '../../../src/db/schema'
import { ORPHAN_AFTER_MS } from '../../../src/services/file-service'
import { bigIconBytes, buildApk, uploadApk } from '../../helpers/apk'
import { pngBytes, uploadFile } from '../../helpers/multipart'
import { buildTestApp, get, loginWithSms, post, type TestApp } from '../../helpers/test-app'

const privateDir = (ta: TestApp) => ta.app.services.ctx.settings.privateFilesDir
const apkFile = (ta: TestApp, item: { apkPath: string }) =>
  path.join(privateDir(ta), item.apkPath.replace(/^\/private\//, ''))

async function apkPathOf(ta: TestApp, appId: number) {
  const [row] = await ta.database.db.select().from(apps).where(eq(apps.id, appId))
  assert.ok(row)
  return row.apkPath
}

test('an uploaded APK is read, kept private with a public icon, and listed as mine', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004501')
  const apk = buildApk({ packageName: 'com.studio.clicker', versionCode: 12, versionName: '1.2' })
  const reply = await uploadApk(ta.app, me, apk)
  assert.equal(reply.code, 200, reply.msg)
  const item = reply.data as AppItem
  assert.equal(item.name, '演示应用')
  assert.equal(item.packageName, 'com.studio.clicker')
  assert.equal(item.versionName, '1.2')
  assert.equal(item.versionCode, 12)
  assert.equal(item.sizeBytes, apk.length)
  assert.equal(item.source, 'mine')
  assert.match(item.iconUrl ?? '', /^\/files\/app-icons\/[0-9a-f-]{36}\.png$/)

  const icon = await ta.app.inject({ method: 'GET', url: item.iconUrl! })
  assert.equal(icon.statusCode, 200)
  assert.deepEqual(icon.rawPayload, bigIconBytes())

  // the APK is on disk under PRIVATE_FILES_DIR, byte for byte, and nowhere under FILES_DIR
  const apkPath = await apkPathOf(ta, item.appId)
  assert.match(apkPath, /^\/private\/apks\/[0-9a-f-]{36}\.apk$/)
  assert.deepEqual(fs.readFileSync(apkFile(ta, { apkPath })), apk)
  assert.ok(!fs.existsSync(path.join(ta.filesDir, 'apks')))
  for (const url of [apkPath, `/files${apkPath}`, `/files/../private-files${apkPath}`]) {
    const served = await ta.app.inject({ method: 'GET', url })
    assert.notEqual(served.statusCode, 200, url)
  }

  const list = await get<AppList>(ta.app, '/app/list', me)
  assert.equal(list.code, 200)
  assert.deepEqual(
    list.data.mine.map((app) => app.appId),
    [item.appId],
  )
  assert.deepEqual(list.data.catalogue, [])

  // another user sees none of it
  const other = await loginWithSms(ta, '13500004502')
  const theirs = await get<AppList>(ta.app, '/app/list', other)
  assert.deepEqual(theirs.data.mine, [])
})

test('the same bytes twice are one app, stored and counted once', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004503')
  const apk = buildApk()
  const first = await uploadApk(ta.app, me, apk)
  const second = await uploadApk(ta.app, me, apk)
  assert.equal(second.code, 200)
  assert.equal((second.data as AppItem).appId, (first.data as AppItem).appId)
  const rows = await ta.database.db
    .select()
    .from(uploads)
    .where(like(uploads.path, '/private/apks/%'))
  assert.equal(rows.length, 1)
})

test('every refusal answers its code and names itself', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004504')
  const refused = async (
    reply: Awaited<ReturnType<typeof uploadApk>>,
    code: number,
    refusal: keyof typeof APK_REFUSALS,
  ) => {
    assert.equal(reply.code, code, reply.msg)
    assert.equal(reply.msg, APK_REFUSALS[refusal])
    assert.deepEqual(reply.data, { refusal })
  }
  await refused(
    await uploadApk(ta.app, me, Buffer.from('plain text')),
    ResultCode.ILLEGAL_FILE,
    'notZip',
  )
  await refused(
    await uploadApk(ta.app, me, buildApk(), { field: 'avatar' }),
    ResultCode.FILE_EMPTY,
    'empty',
  )
  const notMultipart = await post(ta.app, '/app/upload', { file: 'x' }, me)
  assert.equal(notMultipart.code, ResultCode.FILE_EMPTY)
  assert.deepEqual(notMultipart.data, { refusal: 'empty' })
  await refused(await uploadApk(ta.app, me, Buffer.alloc(0)), ResultCode.FILE_EMPTY, 'empty')
  // one byte over the limit is cut off while it streams in and refused
  const huge = Buffer.alloc(APK_MAX_BYTES + 1)
  buildApk().copy(huge)
  await refused(await uploadApk(ta.app, me, huge), ResultCode.ILLEGAL_FILE, 'tooLarge')
  // nothing refused was kept
  const rows = await ta.database.db.select().from(uploads)
  assert.equal(rows.length, 0)
  // signed out
  const anonymous = await uploadApk(ta.app, undefined, buildApk())
  assert.equal(anonymous.code, ResultCode.LOGIN_TOKEN_INVALID)
})

test('the daily APK quota counts APKs only, apart from avatars', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004505')
  for (let i = 0; i < APK_QUOTA.files; i += 1) {
    const reply = await uploadApk(ta.app, me, buildApk({ versionCode: 100 + i }))
    assert.equal(reply.code, 200, reply.msg)
  }
  const over = await uploadApk(ta.app, me, buildApk({ versionCode: 99 }))
  assert.equal(over.code, ResultCode.SHOW_ERROR_TIPS)
  assert.equal(over.msg, APK_REFUSALS.quotaFiles)
  // the icons and APKs did not use the avatar quota
  const avatar = await uploadFile(ta.app, me, 'a.png', 'image/png', pngBytes())
  assert.equal(avatar.code, 200, avatar.msg)
  // a day later there is room again
  ta.clock.advance(APK_QUOTA.windowMs + 1000)
  const next = await uploadApk(ta.app, me, buildApk({ versionCode: 98 }))
  assert.equal(next.code, 200, next.msg)
})

test('the catalogue: visible entries are listed to every user, hidden ones to none', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004506')
  const library = ta.app.services.apps
  const shown = await library.upload(
    null,
    buildApk({ packageName: 'com.catalogue.shown', label: 'A' }),
  )
  const hidden = await library.upload(null, buildApk({ packageName: 'com.catalogue.hidden' }))
  await library.setHidden(hidden.appId, true)
  const list = await get<AppList>(ta.app, '/app/list', me)
  assert.deepEqual(
    list.data.catalogue.map((app) => [app.appId, app.source]),
    [[shown.appId, 'catalogue']],
  )
  // a catalogue APK is counted against nobody's quota
  const rows = await ta.database.db.select().from(uploads).where(eq(uploads.userId, me.userId))
  assert.equal(rows.length, 0)
  // a user cannot remove a catalogue entry
  const remove = await post(ta.app, '/app/delete', { appId: shown.appId }, me)
  assert.equal(remove.code, ResultCode.APP_DOES_NOT_EXIST)
})

test('removing: only the owner; then its APK and icon are purged once nothing refers to them', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500004507')
  const other = await loginWithSms(ta, '13500004508')
  const gone = (await uploadApk(ta.app, me, buildApk({ versionCode: 1 }))).data as AppItem
  const kept = (await uploadApk(ta.app, me, buildApk({ versionCode: 2 }))).data as AppItem
  const gonePath = await apkPathOf(ta, gone.appId)
  const keptPath = await apkPathOf(ta, kept.appId)

  const notTheirs = await post(ta.app, '/app/delete', { appId: gone.appId }, other)
  assert.equal(notTheirs.code, ResultCode.APP_DOES_NOT_EXIST)
  const removed = await post(ta.app, '/app/delete', { appId: gone.appId }, me)
  assert.equal(removed.code, 200, removed.msg)
  const again = await post(ta.app, '/app/delete', { appId: gone.appId }, me)
  assert.equal(again.code, ResultCode.APP_DOES_NOT_EXIST)
  const list = await get<AppList>(ta.app, '/app/list', me)
  assert.deepEqual(
    list.data.mine.map((app) => app.appId),
    [kept.appId],
  )

  ta.clock.advance(ORPHAN_AFTER_MS + 1000)
  await ta.app.services.files.purgeOrphans(ta.clock.now())
  assert.ok(!fs.existsSync(apkFile(ta, { apkPath: gonePath })))
  assert.ok(!fs.existsSync(path.join(ta.filesDir, gone.iconUrl!.replace(/^\/files\//, ''))))
  assert.ok(fs.existsSync(apkFile(ta, { apkPath: keptPath })))
  assert.ok(fs.existsSync(path.join(ta.filesDir, kept.iconUrl!.replace(/^\/files\//, ''))))
})
