/**
 * Real APKs made in the test: a zip (PKWARE's APPNOTE.TXT layout: local headers, central directory,
 * end record) holding a binary AndroidManifest.xml and resources.arsc written in AOSP's formats
 * (frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h: ResChunk_header, ResStringPool,
 * ResXMLTree_node/attrExt/attribute, ResTable_package/typeSpec/type/entry, Res_value), as aapt2 lays
 * them out, and a launcher icon. Hostile variants come from the same writers.
 */
import zlib from 'node:zlib'
import type { App } from '../../src/app'
import type { AppItem } from '../../src/contract/app'
import { pngBytes } from './multipart'
import { authHeaders, type Envelope, type Session } from './test-app'

export interface ZipEntrySpec {
  /** A Buffer to write bytes a string cannot (a NUL). */
  name: string | Buffer
  data: Buffer
  /** Stored instead of deflated. */
  store?: boolean
  /** The uncompressed size the headers declare, when it is to lie. */
  declaredSize?: number
}

/** A zip of the entries, in order. */
export function zip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = typeof entry.name === 'string' ? Buffer.from(entry.name) : entry.name
    const body = entry.store ? entry.data : zlib.deflateRawSync(entry.data)
    const crc = zlib.crc32(entry.data)
    const size = entry.declaredSize ?? entry.data.length
    const method = entry.store ? 0 : 8
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt16LE(0, 10)
    local.writeUInt16LE(0x5a21, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x0800, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt16LE(0, 12)
    central.writeUInt16LE(0x5a21, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** A chunk: ResChunk_header (type, headerSize, size) + the rest of its header + its body. */
function chunk(type: number, header: Buffer, body: Buffer): Buffer {
  const head = Buffer.alloc(8)
  const size = 8 + header.length + body.length
  head.writeUInt16LE(type, 0)
  head.writeUInt16LE(8 + header.length, 2)
  head.writeUInt32LE(size, 4)
  return Buffer.concat([head, header, body])
}

const u32 = (...values: number[]) => {
  const buffer = Buffer.alloc(values.length * 4)
  values.forEach((value, index) => buffer.writeUInt32LE(value >>> 0, index * 4))
  return buffer
}

/** ResStringPool in UTF-16 (length, characters, a 0 terminator), padded to 4 bytes. */
function stringPool(strings: string[]): Buffer {
  const encoded = strings.map((text) => {
    const chars = Buffer.from(text, 'utf16le')
    const length = Buffer.alloc(2)
    length.writeUInt16LE(text.length)
    return Buffer.concat([length, chars, Buffer.alloc(2)])
  })
  const offsets: number[] = []
  let at = 0
  for (const string of encoded) {
    offsets.push(at)
    at += string.length
  }
  let data = Buffer.concat(encoded)
  if (data.length % 4) data = Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))])
  const headerSize = 28
  const header = u32(strings.length, 0, 0, headerSize + strings.length * 4, 0)
  return chunk(0x0001, header, Buffer.concat([u32(...offsets), data]))
}

/** Res_value: size 8, res0, dataType, data. */
function resValue(dataType: number, data: number): Buffer {
  const value = Buffer.alloc(8)
  value.writeUInt16LE(8, 0)
  value.writeUInt8(dataType, 3)
  value.writeInt32LE(data | 0, 4)
  return value
}
const TYPE_REFERENCE = 0x01
const TYPE_STRING = 0x03
const TYPE_INT_DEC = 0x10

const ANDROID_NS = 'http://schemas.android.com/apk/res/android'

export interface ManifestSpec {
  packageName: string
  versionCode: number
  versionName?: string
  /** A string, or a resource id (0x7f010000 in the table below). */
  label?: string | number
  icon?: number
  /** Extra elements nested inside <application>, one in the other (a hostile manifest). */
  nesting?: number
}

/** A binary AndroidManifest.xml (ResXMLTree) of the spec. */
export function binaryManifest(spec: ManifestSpec): Buffer {
  const strings = [
    'versionCode',
    'versionName',
    'label',
    'icon',
    'android',
    ANDROID_NS,
    'package',
    'manifest',
    'application',
    spec.packageName,
    spec.versionName ?? '',
    typeof spec.label === 'string' ? spec.label : '',
    'meta-data',
  ]
  const S = (text: string) => strings.indexOf(text)
  const NONE = 0xffffffff
  const node = (line: number) => u32(line, NONE)
  type Attribute = [ns: number, name: number, raw: number, value: Buffer]
  const startElement = (name: number, attributes: Attribute[]) => {
    const ext = Buffer.alloc(20)
    ext.writeUInt32LE(NONE, 0)
    ext.writeUInt32LE(name, 4)
    ext.writeUInt16LE(20, 8)
    ext.writeUInt16LE(20, 10)
    ext.writeUInt16LE(attributes.length, 12)
    const attrs = attributes.map(([ns, attrName, raw, value]) =>
      Buffer.concat([u32(ns, attrName, raw), value]),
    )
    return chunk(0x0102, node(1), Buffer.concat([ext, ...attrs]))
  }
  const endElement = (name: number) => chunk(0x0103, node(1), u32(NONE, name))
  const ns = S(ANDROID_NS)
  const manifestAttrs: Attribute[] = [
    [ns, S('versionCode'), NONE, resValue(TYPE_INT_DEC, spec.versionCode)],
    [NONE, S('package'), S(spec.packageName), resValue(TYPE_STRING, S(spec.packageName))],
  ]
  if (spec.versionName !== undefined) {
    const index = S(spec.versionName)
    manifestAttrs.splice(1, 0, [ns, S('versionName'), index, resValue(TYPE_STRING, index)])
  }
  const appAttrs: Attribute[] = []
  if (typeof spec.label === 'string') {
    appAttrs.push([ns, S('label'), S(spec.label), resValue(TYPE_STRING, S(spec.label))])
  } else if (typeof spec.label === 'number') {
    appAttrs.push([ns, S('label'), NONE, resValue(TYPE_REFERENCE, spec.label)])
  }
  if (spec.icon !== undefined)
    appAttrs.push([ns, S('icon'), NONE, resValue(TYPE_REFERENCE, spec.icon)])
  const nested: Buffer[] = []
  for (let i = 0; i < (spec.nesting ?? 0); i += 1) nested.push(startElement(S('meta-data'), []))
  for (let i = 0; i < (spec.nesting ?? 0); i += 1) nested.push(endElement(S('meta-data')))
  const body = Buffer.concat([
    stringPool(strings),
    // the attribute names' resource ids (android:versionCode, versionName, label, icon)
    chunk(0x0180, Buffer.alloc(0), u32(0x0101021b, 0x0101021c, 0x01010001, 0x01010002)),
    chunk(0x0100, node(1), u32(S('android'), ns)),
    startElement(S('manifest'), manifestAttrs),
    startElement(S('application'), appAttrs),
    ...nested,
    endElement(S('application')),
    endElement(S('manifest')),
    chunk(0x0101, node(1), u32(S('android'), ns)),
  ])
  return chunk(0x0003, Buffer.alloc(0), body)
}

/** ResTable_config of 64 bytes: its size, imsi, locale, then screenType with the density. */
function tableConfig(locale: { language: string; country: string } | null, density = 0) {
  const config = Buffer.alloc(64)
  config.writeUInt32LE(64, 0)
  if (locale) {
    config.write(locale.language, 8, 'latin1')
    config.write(locale.country, 10, 'latin1')
  }
  config.writeUInt16LE(density, 14)
  return config
}

/** A ResTable_type of one entry (key 0) holding `value`. */
function typeChunk(typeId: number, config: Buffer, key: number, value: Buffer) {
  const entry = Buffer.concat([Buffer.from([8, 0, 0, 0]), u32(key), value])
  const headerRest = Buffer.concat([
    Buffer.from([typeId, 0, 0, 0]),
    u32(1, 8 + 12 + config.length + 4),
    config,
  ])
  return chunk(0x0201, headerRest, Buffer.concat([u32(0), entry]))
}

/** LABEL_ID and ICON_ID in the table resourceTable writes. */
export const LABEL_ID = 0x7f010000
export const ICON_ID = 0x7f020000

/**
 * resources.arsc: package 0x7f with string/app_name (default `label`, zh-CN `chineseLabel`) and
 * mipmap/ic_launcher (an mdpi and an xxhdpi PNG at `iconPaths`).
 */
export function resourceTable(spec: {
  label: string
  chineseLabel?: string
  iconPaths: { mdpi: string; xxhdpi: string }
}): Buffer {
  const values = [
    spec.label,
    spec.chineseLabel ?? spec.label,
    spec.iconPaths.mdpi,
    spec.iconPaths.xxhdpi,
  ]
  const typeStrings = stringPool(['string', 'mipmap'])
  const keyStrings = stringPool(['app_name', 'ic_launcher'])
  const name = Buffer.alloc(256)
  name.write('com.example', 0, 'utf16le')
  const packageHeader = Buffer.concat([
    u32(0x7f),
    name,
    u32(8 + 4 + 256 + 20, 2, 8 + 4 + 256 + 20 + typeStrings.length, 2, 0),
  ])
  const spec1 = chunk(0x0202, Buffer.from([1, 0, 0, 0, 1, 0, 0, 0]), u32(0))
  const spec2 = chunk(0x0202, Buffer.from([2, 0, 0, 0, 1, 0, 0, 0]), u32(0))
  const packageBody = Buffer.concat([
    typeStrings,
    keyStrings,
    spec1,
    typeChunk(1, tableConfig(null), 0, resValue(TYPE_STRING, 0)),
    typeChunk(1, tableConfig({ language: 'zh', country: 'CN' }), 0, resValue(TYPE_STRING, 1)),
    spec2,
    typeChunk(2, tableConfig(null, 160), 1, resValue(TYPE_STRING, 2)),
    typeChunk(2, tableConfig(null, 480), 1, resValue(TYPE_STRING, 3)),
  ])
  const pkg = chunk(0x0200, packageHeader, packageBody)
  return chunk(0x0002, u32(1), Buffer.concat([stringPool(values), pkg]))
}

/** A 2×2 PNG, so the icon picked (xxhdpi) is told from the other (pngBytes, 1×1). */
export const bigIconBytes = () =>
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR42mP8z8BQz0AEYBxVSF8ARw4B/zqgtvEAAAAASUVORK5CYII=',
    'base64',
  )

export interface ApkSpec {
  packageName?: string
  versionCode?: number
  versionName?: string
  label?: string
  chineseLabel?: string
  extra?: ZipEntrySpec[]
}

/** A small real APK: manifest, resource table, two launcher icons and a classes.dex. */
export function buildApk(spec: ApkSpec = {}): Buffer {
  const iconPaths = {
    mdpi: 'res/mipmap-mdpi-v4/ic_launcher.png',
    xxhdpi: 'res/mipmap-xxhdpi-v4/ic_launcher.png',
  }
  return zip([
    {
      name: 'AndroidManifest.xml',
      data: binaryManifest({
        packageName: spec.packageName ?? 'com.example.demo',
        versionCode: spec.versionCode ?? 3,
        versionName: spec.versionName ?? '1.2.0',
        label: LABEL_ID,
        icon: ICON_ID,
      }),
    },
    {
      name: 'resources.arsc',
      data: resourceTable({
        label: spec.label ?? 'Demo App',
        chineseLabel: spec.chineseLabel ?? '演示应用',
        iconPaths,
      }),
      store: true,
    },
    { name: 'classes.dex', data: Buffer.from('dex\n035\0' + 'x'.repeat(64)) },
    { name: iconPaths.mdpi, data: pngBytes(), store: true },
    { name: iconPaths.xxhdpi, data: bigIconBytes(), store: true },
    ...(spec.extra ?? []),
  ])
}

/** POST /app/upload of `content` as the multipart field `file`. */
export async function uploadApk(
  app: App,
  session: Session | undefined,
  content: Buffer,
  options: { field?: string; filename?: string } = {},
): Promise<Envelope<AppItem | { refusal: string } | null> & { status: number }> {
  const boundary = '----cloudphoneapk' + Date.now()
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'app.apk'}"\r\nContent-Type: application/vnd.android.package-archive\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const response = await app.inject({
    method: 'POST',
    url: '/vmcloud/api/app/upload',
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(session ? authHeaders(session) : {}),
    },
  })
  return { ...(response.json() as Envelope<AppItem>), status: response.statusCode }
}
