/**
 * Reads what an uploaded APK is (package, name, version, icon), refusing anything that is not one.
 *
 * The zip is ours to read (yauzl, on the bytes in memory): the upload must start as a zip, every entry
 * name is checked (no NUL, no absolute path, no `..`, no duplicate), the declared sizes are checked
 * before anything is inflated (the whole, the manifest, the resource table, each entry's ratio), and
 * an entry inflates only to its declared size (yauzl's validateEntrySizes). The binary manifest and
 * resource table are then walked chunk by chunk (every chunk inside its parent and at least its own
 * header long, nesting and resource entries bounded), and only then parsed by node-apk (MIT, by XdevL:
 * its binary XML and resources.arsc readers, after AOSP's ResourceTypes.h), whose loops assume a
 * well-formed file. node-apk's own zip reader is not used.
 */
import { Manifest, Resources, XmlElement } from 'node-apk'
import Source from 'node-apk/build/lib/source'
import yauzl from 'yauzl'
import { APK_LIMITS, APK_MAX_BYTES, PACKAGE_NAME, type ApkRefusal } from '#domain/apps'
import { sniffImageType, type ImageExtension } from '../../domain/files'

export interface ApkInfo {
  packageName: string
  /** The application label, in Chinese where the APK has it; the package name when it has none. */
  name: string
  versionName: string
  versionCode: number
  icon: { bytes: Buffer; extension: ImageExtension } | null
}

/** An upload that is not taken as an APK, and why (APK_REFUSALS has the words). */
export class ApkRefused extends Error {
  constructor(readonly refusal: ApkRefusal) {
    super(`APK refused: ${refusal}`)
  }
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04])
const MANIFEST = 'AndroidManifest.xml'
const RESOURCES = 'resources.arsc'

/** The resource entries all type chunks of a table may declare (real apps: tens of thousands). */
const MAX_RESOURCE_ENTRIES = 500_000

/** Launcher icon densities, best first. */
const DENSITIES = ['xxxhdpi', 'xxhdpi', 'xhdpi', 'hdpi', 'mdpi']

type Entry = yauzl.Entry

function openZip(content: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      content,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => (error || !zip ? reject(error) : resolve(zip)),
    )
  })
}

/** A name as stored (decodeStrings off): refused with NUL, a backslash, an absolute path or `..`. */
function entryName(raw: Buffer | string): string | null {
  const bytes = typeof raw === 'string' ? Buffer.from(raw) : raw
  if (bytes.length === 0 || bytes.includes(0)) return null
  const name = bytes.toString('utf8')
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) return null
  if (name.split('/').some((part) => part === '..')) return null
  return name
}

async function listEntries(zip: yauzl.ZipFile): Promise<Map<string, Entry>> {
  if (zip.entryCount > APK_LIMITS.entries) throw new ApkRefused('zipBomb')
  const entries = new Map<string, Entry>()
  let total = 0
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      const name = entryName(entry.fileName as unknown as Buffer)
      if (name === null || entries.has(name)) {
        reject(new ApkRefused('badEntryName'))
        return
      }
      total += entry.uncompressedSize
      const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1)
      if (
        total > APK_LIMITS.totalUncompressedBytes ||
        (entry.uncompressedSize > 1024 * 1024 && ratio > APK_LIMITS.maxRatio)
      ) {
        reject(new ApkRefused('zipBomb'))
        return
      }
      entries.set(name, entry)
      zip.readEntry()
    })
    zip.on('end', () => resolve())
    zip.on('error', () => reject(new ApkRefused('notZip')))
    zip.readEntry()
  })
  return entries
}

/** An entry's bytes, at most `limit` (a longer one is refused before it is inflated). */
function readEntry(zip: yauzl.ZipFile, entry: Entry, limit: number): Promise<Buffer> {
  if (entry.uncompressedSize > limit) return Promise.reject(new ApkRefused('zipBomb'))
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(new ApkRefused('unreadable'))
        return
      }
      const parts: Buffer[] = []
      let length = 0
      stream.on('data', (part: Buffer) => {
        length += part.length
        if (length > limit) {
          stream.destroy()
          reject(new ApkRefused('zipBomb'))
          return
        }
        parts.push(part)
      })
      stream.on('end', () => resolve(Buffer.concat(parts)))
      // a size other than the declared one (validateEntrySizes), a bad CRC or deflate stream
      stream.on('error', () => reject(new ApkRefused('unreadable')))
    })
  })
}

const XML = 0x0003
const TABLE = 0x0002
const TABLE_PACKAGE = 0x0200
const TABLE_TYPE = 0x0201
const XML_START_NAMESPACE = 0x0100
const XML_END_NAMESPACE = 0x0101
const XML_START_ELEMENT = 0x0102
const XML_END_ELEMENT = 0x0103

/**
 * Walks a binary XML or resource table chunk by chunk, so node-apk's readers (which advance by each
 * chunk's declared size and recurse per element) always move forward, stay inside the file and nest
 * boundedly. False for anything else.
 */
export function wellFormedChunks(bytes: Buffer, rootType: typeof XML | typeof TABLE): boolean {
  let depth = 0
  let resourceEntries = 0
  const walk = (start: number, end: number, level: number): boolean => {
    let offset = start
    while (offset < end) {
      if (offset + 8 > end) return false
      const type = bytes.readUInt16LE(offset)
      const headerSize = bytes.readUInt16LE(offset + 2)
      const size = bytes.readUInt32LE(offset + 4)
      if (headerSize < 8 || size < headerSize || offset + size > end) return false
      if (type === XML_START_ELEMENT || type === XML_START_NAMESPACE) {
        depth += 1
        if (depth > APK_LIMITS.manifestDepth) return false
      } else if (type === XML_END_ELEMENT || type === XML_END_NAMESPACE) {
        depth -= 1
      } else if (type === TABLE_TYPE) {
        if (headerSize < 20) return false
        resourceEntries += bytes.readUInt32LE(offset + 12)
        if (resourceEntries > MAX_RESOURCE_ENTRIES) return false
      } else if (type === TABLE_PACKAGE && level === 1) {
        if (!walk(offset + headerSize, offset + size, level + 1)) return false
      }
      offset += size
    }
    return true
  }
  if (bytes.length < 8 || bytes.readUInt16LE(0) !== rootType) return false
  const headerSize = bytes.readUInt16LE(2)
  const size = bytes.readUInt32LE(4)
  if (headerSize < 8 || size < headerSize || size > bytes.length) return false
  return walk(headerSize, size, 1)
}

/** Control characters and surrounding space out of a label the APK declares. */
const cleanLabel = (label: string) =>
  Array.from(label)
    .filter((char) => char.charCodeAt(0) > 0x1f && char !== '\u007f')
    .join('')
    .trim()
    .slice(0, 50)

function pickLabel(resources: Resources, id: number): string | null {
  const values = resources.resolve(id).filter((value) => typeof value.value === 'string')
  const chinese = values.find((value) => value.locale?.language === 'zh')
  const plain = values.find((value) => !value.locale)
  const chosen = chinese ?? plain ?? values[0]
  return chosen ? (chosen.value as string) : null
}

function iconCandidates(resources: Resources, id: number, entries: Map<string, Entry>): Entry[] {
  const paths = resources
    .resolve(id)
    .map((value) => value.value)
    .filter(
      (value): value is string => typeof value === 'string' && /\.(png|webp|jpe?g)$/i.test(value),
    )
  const rank = (file: string) => {
    const index = DENSITIES.findIndex((density) => file.includes(`-${density}`))
    return index < 0 ? DENSITIES.length : index
  }
  return paths
    .sort((a, b) => rank(a) - rank(b))
    .map((file) => entries.get(file))
    .filter(
      (entry): entry is Entry =>
        entry !== undefined && entry.uncompressedSize <= APK_LIMITS.iconBytes,
    )
}

function parseManifest(bytes: Buffer): Manifest {
  if (!wellFormedChunks(bytes, XML)) throw new ApkRefused('unreadable')
  try {
    const manifest = new Manifest(new XmlElement(new Source(bytes)))
    // read every field here, so a malformed file fails inside this try
    void manifest.package
    void manifest.versionCode
    void manifest.versionName
    void manifest.applicationLabel
    void manifest.applicationIcon
    return manifest
  } catch {
    throw new ApkRefused('unreadable')
  }
}

function parseResources(bytes: Buffer): Resources | null {
  if (!wellFormedChunks(bytes, TABLE)) return null
  try {
    return new Resources(new Source(bytes))
  } catch {
    return null
  }
}

/**
 * What the APK in `content` is, or ApkRefused with why not. A label or icon that cannot be read does
 * not refuse the APK (the package name stands for its name, and it shows no icon); an unreadable
 * package name or version does.
 */
export async function readApk(content: Buffer): Promise<ApkInfo> {
  if (content.length === 0) throw new ApkRefused('empty')
  if (content.length > APK_MAX_BYTES) throw new ApkRefused('tooLarge')
  if (!content.subarray(0, 4).equals(ZIP_MAGIC)) throw new ApkRefused('notZip')
  let zip: yauzl.ZipFile
  try {
    zip = await openZip(content)
  } catch {
    throw new ApkRefused('notZip')
  }
  try {
    const entries = await listEntries(zip)
    const manifestEntry = entries.get(MANIFEST)
    if (!manifestEntry) throw new ApkRefused('noManifest')
    if (manifestEntry.uncompressedSize > APK_LIMITS.manifestBytes) {
      throw new ApkRefused('manifestTooLarge')
    }
    const manifest = parseManifest(await readEntry(zip, manifestEntry, APK_LIMITS.manifestBytes))
    const packageName = manifest.package
    const versionCode = manifest.versionCode
    if (
      typeof packageName !== 'string' ||
      !PACKAGE_NAME.test(packageName) ||
      packageName.length > 255
    ) {
      throw new ApkRefused('unreadable')
    }
    if (!Number.isSafeInteger(versionCode) || versionCode < 0) throw new ApkRefused('unreadable')
    const versionName =
      typeof manifest.versionName === 'string' && cleanLabel(manifest.versionName)
        ? cleanLabel(manifest.versionName)
        : String(versionCode)

    const label = manifest.applicationLabel
    const iconId = manifest.applicationIcon
    let name = typeof label === 'string' ? cleanLabel(label) : ''
    let icon: ApkInfo['icon'] = null
    const resourcesEntry = entries.get(RESOURCES)
    if ((typeof label === 'number' || typeof iconId === 'number') && resourcesEntry) {
      const resources = parseResources(
        await readEntry(zip, resourcesEntry, APK_LIMITS.resourcesBytes),
      )
      if (resources && typeof label === 'number')
        name = cleanLabel(pickLabel(resources, label) ?? '')
      if (resources && typeof iconId === 'number') {
        for (const entry of iconCandidates(resources, iconId, entries)) {
          const bytes = await readEntry(zip, entry, APK_LIMITS.iconBytes).catch(() => null)
          const extension = bytes && sniffImageType(bytes.subarray(0, 16))
          if (bytes && extension) {
            icon = { bytes, extension }
            break
          }
        }
      }
    }
    return { packageName, name: name || packageName, versionName, versionCode, icon }
  } finally {
    zip.close()
  }
}

/**
 * The native code ABIs an APK (one readApk took in) carries: the `<abi>` of its `lib/<abi>/…` entries,
 * sorted. Empty for an APK without native code, which runs on any.
 */
export async function apkAbis(content: Buffer): Promise<string[]> {
  const zip = await openZip(content)
  try {
    const entries = await listEntries(zip)
    const abis = new Set<string>()
    for (const name of entries.keys()) {
      const match = /^lib\/([^/]+)\/[^/]+\.so$/.exec(name)
      if (match) abis.add(match[1])
    }
    return [...abis].sort()
  } finally {
    zip.close()
  }
}
