/**
 * After `taro build --type h5`: writes a brotli (.br) and a gzip (.gz) copy beside every text asset of
 * the build (JS, CSS, HTML, SVG, JSON), for the server's precompressed serving (@fastify/static
 * preCompressed). Skips files under 1 KiB, copies that would not be smaller, and templates (the
 * server completes them for each request and compresses what it made).
 *
 *   node scripts/compress-h5.mjs [dir]   (default: $TARO_OUTPUT_DIR or dist/h5)
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const dir = path.resolve(process.argv[2] || process.env.TARO_OUTPUT_DIR || 'dist/h5')
const TEXT = /\.(js|css|html|svg|json|txt)$/
const TEMPLATE = /\.template\.html$/
const MIN_BYTES = 1024

function* files(root) {
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name)
    if (entry.isDirectory()) yield* files(full)
    else if (TEXT.test(entry.name) && !TEMPLATE.test(entry.name)) yield full
  }
}

let count = 0
let raw = 0
let brotli = 0
for (const file of files(dir)) {
  const bytes = fs.readFileSync(file)
  if (bytes.length < MIN_BYTES) continue
  const br = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  })
  const gz = zlib.gzipSync(bytes, { level: 9 })
  if (br.length < bytes.length) fs.writeFileSync(`${file}.br`, br)
  if (gz.length < bytes.length) fs.writeFileSync(`${file}.gz`, gz)
  count++
  raw += bytes.length
  brotli += Math.min(br.length, bytes.length)
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`
console.log(
  `compress-h5: ${count} files in ${path.relative(process.cwd(), dir) || dir}, ${kib(raw)} → ${kib(brotli)} brotli`,
)
