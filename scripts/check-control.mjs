#!/usr/bin/env node
/**
 * `npm run check:control [-- <dir>]` — the control page's budget: the JS and CSS its document loads
 * (the `index` entry of a built dist/control, `npm run build:control`), gzip, and the sandbox's SDK
 * stand-in beside it. Exits 1 when over budget. The page is what a user lives in and what WeChat's
 * web-view loads on every entry: 12 KiB gzip for the page (7.7 KiB when the budget was set), 4 KiB for
 * the stand-in (docs/performance.md, "Package size").
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const KiB = 1024
export const CONTROL_PAGE_GZIP_LIMIT = 12 * KiB
export const SANDBOX_SDK_GZIP_LIMIT = 4 * KiB

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const distDir = path.resolve(process.argv[2] || path.join(repoRoot, 'dist/control'))
const manifestFile = path.join(distDir, '.vite/manifest.json')
if (!fs.existsSync(manifestFile)) {
  console.error(`✗ ${manifestFile} is missing: run npm run build:control`)
  process.exit(1)
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'))
const entries = Object.values(manifest)
const kib = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`
const gzipOf = (file) =>
  zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length

function measure(name) {
  const entry = entries.find((e) => e.name === name && e.isEntry)
  if (!entry) throw new Error(`no entry "${name}" in ${manifestFile}`)
  const files = [
    entry.file,
    ...(entry.css ?? []),
    ...(entry.imports ?? []).map((k) => manifest[k].file),
  ]
  return files.map((file) => ({ file, gzip: gzipOf(file) }))
}

let failed = false
for (const [name, limit] of [
  ['index', CONTROL_PAGE_GZIP_LIMIT],
  ['sandbox-sdk', SANDBOX_SDK_GZIP_LIMIT],
]) {
  const files = measure(name)
  const total = files.reduce((sum, f) => sum + f.gzip, 0)
  for (const f of files) console.log(`  ${f.file.padEnd(44)} ${kib(f.gzip).padStart(9)} gzip`)
  console.log(
    `  ${`${name} total`.padEnd(44)} ${kib(total).padStart(9)} gzip (limit ${kib(limit)})`,
  )
  if (total > limit) {
    console.error(`✗ ${name} is ${kib(total)} gzip > ${kib(limit)}`)
    failed = true
  }
}
if (failed) process.exit(1)
console.log('✓ check:control passed')
