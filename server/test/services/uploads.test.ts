/**
 * Uploads (services/file-service.ts): an image by its bytes, never with markup inside, named by us;
 * at most UPLOAD_QUOTA a user a day, also when sent all at once; a file nothing refers to is deleted
 * by the purge job a day after it came, and one an avatar shows is kept.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { uploads } from '../../src/db/schema'
import { MAX_UPLOAD_BYTES } from '../../src/domain/files'
import { ORPHAN_AFTER_MS, UPLOAD_QUOTA } from '../../src/services/file-service'
import { pngBytes, uploadFile } from '../helpers/multipart'
import { buildTestApp, loginWithSms, post, type Session, type TestApp } from '../helpers/test-app'
import type { UserInfo } from '../../src/contract/user'

const GIF = Buffer.from(
  'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04',
  'latin1',
)
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00])

/** A PNG of exactly `size` bytes (a real one with padding after its end). */
const pngOf = (size: number) => Buffer.concat([pngBytes(), Buffer.alloc(size - pngBytes().length)])

const upload = (ta: TestApp, who: Session, content: Buffer, name = 'a.png') =>
  uploadFile(ta.app, who, name, 'image/png', content)

const onDisk = (ta: TestApp, publicPath: string) =>
  fs.existsSync(path.join(ta.filesDir, publicPath.replace(/^\/files\//, '')))

test('markup behind an image header is refused; the name and type come from the bytes', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500000101')
  const polyglots = {
    'HTML with a GIF header': Buffer.concat([GIF, Buffer.from('<html><script>alert(1)</script>')]),
    'GIF header, doctype in capitals': Buffer.concat([GIF, Buffer.from('<!DOCTYPE html><p>x')]),
    'a real PNG with a script after its end': Buffer.concat([
      pngBytes(),
      Buffer.from('<ScRiPt src=//evil.example></script>'),
    ]),
    'JPEG with an SVG in a comment': Buffer.concat([JPEG, Buffer.from('<svg onload=alert(1)>')]),
    'markup 7 KB in': Buffer.concat([GIF, Buffer.alloc(7 * 1024, 0x20), Buffer.from('<iframe>')]),
    'an XML declaration': Buffer.concat([GIF, Buffer.from('<?xml version="1.0"?>')]),
  }
  for (const [what, content] of Object.entries(polyglots)) {
    const reply = await upload(ta, me, content, 'evil.gif')
    assert.equal(reply.code, 1083, what)
    assert.equal(reply.msg, '图片文件不合法，请重新选择', what)
  }
  assert.deepEqual(await ta.database.db.select().from(uploads), [], 'nothing recorded')
  const stored = fs.existsSync(path.join(ta.filesDir, 'uploads'))
    ? fs.readdirSync(path.join(ta.filesDir, 'uploads'))
    : []
  assert.deepEqual(stored, [], 'nothing stored')

  // A real image whose bytes hold a lone "<" is fine, and is named by us with its real type.
  const gif = await upload(ta, me, Buffer.concat([GIF, Buffer.from('<3 ;')]), 'page.html')
  assert.equal(gif.code, 200, gif.msg)
  assert.match(gif.data.path, /^\/files\/uploads\/[0-9a-f-]{36}\.gif$/)
  const served = await ta.app.inject({ method: 'GET', url: gif.data.path })
  assert.match(String(served.headers['content-type']), /^image\/gif/)
})

test('the 2 MB limit holds: exactly 2 MB is stored, one byte more refused', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500000102')
  assert.equal((await upload(ta, me, pngOf(MAX_UPLOAD_BYTES))).code, 200)
  const over = await upload(ta, me, pngOf(MAX_UPLOAD_BYTES + 1))
  assert.equal(over.code, 1083)
  assert.equal(over.msg, '图片不能超过2MB')
  assert.equal((await ta.database.db.select().from(uploads)).length, 1)
})

test('a user uploads at most the daily quota, even all at once; the next day again', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500000103')
  const other = await loginWithSms(ta, '13500000104')

  // more than the quota at once: exactly the quota goes through
  const replies = await Promise.all(
    Array.from({ length: UPLOAD_QUOTA.files + 5 }, () => upload(ta, me, pngBytes())),
  )
  assert.equal(replies.filter((r) => r.code === 200).length, UPLOAD_QUOTA.files)
  const refused = replies.filter((r) => r.code !== 200)
  assert.equal(refused.length, 5)
  for (const reply of refused) {
    assert.equal(reply.code, 1080)
    assert.equal(reply.msg, '今日上传次数已达上限，请明天再试')
  }
  assert.equal((await ta.database.db.select().from(uploads)).length, UPLOAD_QUOTA.files)
  assert.equal((await upload(ta, other, pngBytes())).code, 200, 'each user has their own')

  ta.clock.advance(UPLOAD_QUOTA.windowMs)
  assert.equal((await upload(ta, me, pngBytes())).code, 200, 'a day later')

  // bytes: ten files of 1.9 MB fit in 20 MB, the eleventh does not
  const heavy = await loginWithSms(ta, '13500000105')
  const big = pngOf(Math.floor(1.9 * 1024 * 1024))
  for (let i = 0; i < 10; i++) assert.equal((await upload(ta, heavy, big)).code, 200)
  const full = await upload(ta, heavy, big)
  assert.equal(full.code, 1080)
  assert.equal(full.msg, '今日上传已超过20MB，请明天再试')
  assert.equal((await upload(ta, heavy, pngBytes())).code, 200, 'a small one still fits')
})

test('the purge job deletes uploads nothing refers to after a day and keeps avatars', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13500000106')
  const other = await loginWithSms(ta, '13500000107')
  const stored = async (who: Session) => {
    const reply = await upload(ta, who, pngBytes())
    assert.equal(reply.code, 200, reply.msg)
    return reply.data.path as string
  }
  const setAvatar = (who: Session, avatar: string) =>
    post<UserInfo>(ta.app, '/user/updateUserInfo', { avatar }, who)

  await ta.app.jobs.ensureRecurring() // purge-expired, hourly
  const first = await stored(me)
  const orphan = await stored(me)
  assert.equal((await setAvatar(me, first)).code, 200)
  // someone else's upload is not yours to show
  const refused = await setAvatar(other, orphan)
  assert.equal(refused.code, 1083)
  assert.equal(refused.msg, '头像文件不存在，请重新上传')

  ta.clock.advance(ORPHAN_AFTER_MS - 60_000)
  await ta.app.jobs.runDue()
  assert.ok(onDisk(ta, orphan), 'younger than a day: kept')

  const replaced = await stored(me)
  ta.clock.advance(2 * 60 * 60_000)
  assert.equal((await setAvatar(me, replaced)).code, 200, 'a new avatar; the first is free now')
  const fresh = await stored(me)
  await ta.app.jobs.runDue()

  assert.equal(onDisk(ta, orphan), false, 'a day old and never used: deleted')
  assert.equal((await ta.app.inject({ method: 'GET', url: orphan })).statusCode, 404)
  assert.equal(onDisk(ta, first), false, 'the avatar it was, once replaced: deleted')
  assert.ok(onDisk(ta, replaced), 'the avatar shown: kept')
  assert.ok(onDisk(ta, fresh), 'a fresh upload: kept')
  const rows = await ta.database.db.select({ path: uploads.path }).from(uploads)
  assert.deepEqual(rows.map((r) => r.path).sort(), [replaced, fresh].sort())
  const shown = await ta.app.inject({ method: 'GET', url: replaced })
  assert.equal(shown.statusCode, 200)

  // a deleted upload cannot become an avatar afterwards
  assert.equal((await setAvatar(me, orphan)).code, 1083)
  const [mine] = await ta.database.db
    .select({ userId: uploads.userId })
    .from(uploads)
    .where(eq(uploads.path, replaced))
  assert.equal(mine.userId, me.userId)
})
