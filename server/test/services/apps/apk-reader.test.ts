/**
 * Reading an APK (services/apps/apk-reader.ts): a real small APK built here (helpers/apk.ts) gives its
 * package, Chinese label, version and best icon; everything hostile is refused by name, promptly and
 * without inflating what it declares: not a zip, no manifest, a zip bomb by ratio or by total, a size
 * that lies, a huge manifest, NUL and `..` in names, duplicate names, a manifest nesting without end
 * and chunks that would send node-apk's reader round for ever.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import { APK_LIMITS, APK_MAX_BYTES, type ApkRefusal } from '../../../../src/domain/apps'
import { ApkRefused, readApk, wellFormedChunks } from '../../../src/services/apps/apk-reader'
import {
  bigIconBytes,
  binaryManifest,
  buildApk,
  ICON_ID,
  LABEL_ID,
  resourceTable,
  zip,
  type ZipEntrySpec,
} from '../../helpers/apk'

async function refusal(content: Buffer): Promise<ApkRefusal> {
  try {
    await readApk(content)
  } catch (error) {
    assert.ok(error instanceof ApkRefused, String(error))
    return error.refusal
  }
  assert.fail('the APK was taken')
}

const manifest = (extra: Partial<Parameters<typeof binaryManifest>[0]> = {}) =>
  binaryManifest({ packageName: 'com.example.demo', versionCode: 7, versionName: '2.0', ...extra })

test('a real APK: package, the Chinese label from resources.arsc, version and the xxhdpi icon', async () => {
  const info = await readApk(
    buildApk({ packageName: 'com.studio.tool', versionCode: 42, versionName: '4.2.0' }),
  )
  assert.equal(info.packageName, 'com.studio.tool')
  assert.equal(info.name, '演示应用')
  assert.equal(info.versionName, '4.2.0')
  assert.equal(info.versionCode, 42)
  assert.equal(info.icon?.extension, 'png')
  assert.deepEqual(info.icon?.bytes, bigIconBytes())
})

test('a label without Chinese is the default one; a plain string label and no icon are read as they are', async () => {
  const english = resourceTable({
    label: 'Tool',
    iconPaths: { mdpi: 'res/a.png', xxhdpi: 'res/b.png' },
  })
  // chineseLabel defaults to the label: both configs say Tool
  const apk = zip([
    { name: 'AndroidManifest.xml', data: manifest({ label: LABEL_ID }) },
    { name: 'resources.arsc', data: english, store: true },
  ])
  assert.equal((await readApk(apk)).name, 'Tool')
  const plain = zip([{ name: 'AndroidManifest.xml', data: manifest({ label: '  计算器\u0007 ' }) }])
  const info = await readApk(plain)
  assert.equal(info.name, '计算器')
  assert.equal(info.icon, null)
  // no label at all: the package name stands for it; no versionName: the versionCode
  const bare = zip([
    {
      name: 'AndroidManifest.xml',
      data: binaryManifest({ packageName: 'com.bare.app', versionCode: 9 }),
    },
  ])
  const bareInfo = await readApk(bare)
  assert.equal(bareInfo.name, 'com.bare.app')
  assert.equal(bareInfo.versionName, '9')
})

test('an icon id that names a missing file, or an unreadable resource table, still takes the APK without an icon', async () => {
  const apk = zip([
    { name: 'AndroidManifest.xml', data: manifest({ label: '工具', icon: ICON_ID }) },
    { name: 'resources.arsc', data: Buffer.from('not a table at all'), store: true },
  ])
  const info = await readApk(apk)
  assert.equal(info.name, '工具')
  assert.equal(info.icon, null)
})

test('not a zip, an empty file, a zip without a manifest and a truncated zip are refused by name', async () => {
  assert.equal(await refusal(Buffer.alloc(0)), 'empty')
  assert.equal(await refusal(Buffer.from('%PDF-1.7 not an apk')), 'notZip')
  assert.equal(await refusal(Buffer.from('PK\x03\x04 and then nothing a zip has')), 'notZip')
  const apk = buildApk()
  assert.equal(await refusal(apk.subarray(0, apk.length - 30)), 'notZip')
  assert.equal(
    await refusal(zip([{ name: 'classes.dex', data: Buffer.from('dex\n035\0') }])),
    'noManifest',
  )
  // a manifest in a folder is not the manifest
  assert.equal(
    await refusal(zip([{ name: 'assets/AndroidManifest.xml', data: manifest() }])),
    'noManifest',
  )
})

test('more than the size limit is refused before it is opened', async () => {
  const huge = Buffer.alloc(APK_MAX_BYTES + 1)
  buildApk().copy(huge)
  assert.equal(await refusal(huge), 'tooLarge')
})

test('a zip bomb is refused from its declared sizes, without inflating it', async () => {
  // 64 MB of zeros deflate to about 64 KB: a ratio of about 1,000
  const zeros = Buffer.alloc(64 * 1024 * 1024)
  const bomb = zip([
    { name: 'AndroidManifest.xml', data: manifest() },
    { name: 'assets/zeros.bin', data: zeros },
  ])
  assert.ok(bomb.length < 200 * 1024)
  const started = Date.now()
  assert.equal(await refusal(bomb), 'zipBomb')
  assert.ok(Date.now() - started < 2000)
  // entries each within the ratio whose declared sizes add up past the total
  const noise = randomBytes(1024 * 1024)
  const declaredSize = noise.length * (APK_LIMITS.maxRatio - 50)
  const count = Math.ceil(APK_LIMITS.totalUncompressedBytes / declaredSize) + 1
  const entries: ZipEntrySpec[] = [{ name: 'AndroidManifest.xml', data: manifest() }]
  for (let i = 0; i < count; i += 1)
    entries.push({ name: `lib/big${i}.so`, data: noise, declaredSize })
  assert.equal(await refusal(zip(entries)), 'zipBomb')
})

test('a manifest whose size lies inflates only to what it declared and is refused', async () => {
  const real = manifest()
  const lying = zip([{ name: 'AndroidManifest.xml', data: real, declaredSize: 100 }])
  assert.equal(await refusal(lying), 'unreadable')
})

test('a manifest over its limit is refused before it is inflated', async () => {
  const big = Buffer.concat([manifest(), randomBytes(APK_LIMITS.manifestBytes)])
  assert.equal(await refusal(zip([{ name: 'AndroidManifest.xml', data: big }])), 'manifestTooLarge')
})

test('NUL, `..`, an absolute path or a duplicate among the names is refused', async () => {
  const named = (name: string | Buffer) =>
    zip([
      { name: 'AndroidManifest.xml', data: manifest() },
      { name, data: Buffer.from('x') },
    ])
  assert.equal(await refusal(named(Buffer.from('lib/evil\0.so'))), 'badEntryName')
  assert.equal(await refusal(named('../../etc/cron.d/x')), 'badEntryName')
  assert.equal(await refusal(named('/etc/passwd')), 'badEntryName')
  assert.equal(await refusal(named('res\\evil.png')), 'badEntryName')
  assert.equal(await refusal(named('AndroidManifest.xml')), 'badEntryName')
})

test('a manifest that nests without end, or whose chunks do not move forward, is refused at once', async () => {
  const deep = zip([
    { name: 'AndroidManifest.xml', data: manifest({ nesting: APK_LIMITS.manifestDepth + 10 }) },
  ])
  assert.equal(await refusal(deep), 'unreadable')
  // a start-element chunk declaring size 0: node-apk's loop would stand still on it for ever
  const stuck = manifest()
  const at = stuck.indexOf(Buffer.from([0x02, 0x01, 0x10, 0x00]))
  stuck.writeUInt32LE(0, at + 4)
  assert.equal(wellFormedChunks(stuck, 0x0003), false)
  const started = Date.now()
  assert.equal(await refusal(zip([{ name: 'AndroidManifest.xml', data: stuck }])), 'unreadable')
  assert.ok(Date.now() - started < 2000)
  // a chunk running past its parent
  const over = manifest()
  over.writeUInt32LE(over.length + 100, 4)
  assert.equal(wellFormedChunks(over, 0x0003), false)
  // bytes that are not binary XML at all (a text manifest)
  const text = Buffer.from('<manifest package="com.example.demo"/>')
  assert.equal(await refusal(zip([{ name: 'AndroidManifest.xml', data: text }])), 'unreadable')
})

test('a package name that is not one, or a negative version code, is unreadable', async () => {
  for (const packageName of ['demo', '1com.example', 'com..example', 'com.example/evil']) {
    const apk = zip([{ name: 'AndroidManifest.xml', data: manifest({ packageName }) }])
    assert.equal(await refusal(apk), 'unreadable', packageName)
  }
  const negative = zip([{ name: 'AndroidManifest.xml', data: manifest({ versionCode: -1 }) }])
  assert.equal(await refusal(negative), 'unreadable')
})

test('a real APK deflated as aapt does (manifest compressed) reads the same', async () => {
  const data = manifest({ label: '相机' })
  assert.ok(zlib.deflateRawSync(data).length < data.length)
  assert.equal((await readApk(zip([{ name: 'AndroidManifest.xml', data }]))).name, '相机')
})
