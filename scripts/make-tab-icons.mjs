// Draws the tab-bar icons (81×81 PNG, as WeChat recommends) from simple shapes.
// No image library is needed for three line icons; run: node scripts/make-tab-icons.mjs
import { deflateSync } from 'node:zlib'
import { writeFileSync, mkdirSync } from 'node:fs'

const SIZE = 81
const OUT = new URL('../src/assets/tab/', import.meta.url)

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (buf) => {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type, data) => {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}
function png(coverage, [r, g, b]) {
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1))
  for (let y = 0; y < SIZE; y++) {
    raw[y * (SIZE * 4 + 1)] = 0
    for (let x = 0; x < SIZE; x++) {
      const o = y * (SIZE * 4 + 1) + 1 + x * 4
      raw[o] = r
      raw[o + 1] = g
      raw[o + 2] = b
      raw[o + 3] = Math.round(255 * coverage(x, y))
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(SIZE, 0)
  ihdr.writeUInt32BE(SIZE, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
// signed distance helpers (negative inside)
const roundRect = (px, py, cx, cy, hw, hh, r) => {
  const qx = Math.abs(px - cx) - hw + r
  const qy = Math.abs(py - cy) - hh + r
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r
}
const circle = (px, py, cx, cy, r) => Math.hypot(px - cx, py - cy) - r
const stroke = (d, w) => Math.abs(d) - w / 2
const union = (...ds) => Math.min(...ds)

const shapes = {
  // a phone: rounded outline, a speaker slot and a home dot
  home: (x, y) =>
    union(
      stroke(roundRect(x, y, 40.5, 40.5, 19, 31, 7), 5),
      roundRect(x, y, 40.5, 18, 6, 1.6, 1.6),
      circle(x, y, 40.5, 62, 3.2),
    ),
  // a plus inside a circle
  create: (x, y) =>
    union(
      stroke(circle(x, y, 40.5, 40.5, 30), 5),
      roundRect(x, y, 40.5, 40.5, 15, 2.6, 2.6),
      roundRect(x, y, 40.5, 40.5, 2.6, 15, 2.6),
    ),
  // a person: head and shoulders
  user: (x, y) =>
    union(
      stroke(circle(x, y, 40.5, 27, 13), 5),
      Math.max(stroke(circle(x, y, 40.5, 74, 28), 5), y - 70),
    ),
}
const coverageOf = (sdf) => (x, y) => {
  let inside = 0
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++) if (sdf(x + (i + 0.5) / 4, y + (j + 0.5) / 4) <= 0) inside++
  return inside / 16
}
mkdirSync(OUT, { recursive: true })
for (const [name, sdf] of Object.entries(shapes)) {
  writeFileSync(new URL(`${name}.png`, OUT), png(coverageOf(sdf), [0x8a, 0x8f, 0x99]))
  writeFileSync(new URL(`${name}-active.png`, OUT), png(coverageOf(sdf), [0x1f, 0x6f, 0xff]))
}
// the default avatar: a white person on a light blue disc
const avatar = (x, y) => {
  const person = union(circle(x, y, 40.5, 31, 13), Math.max(circle(x, y, 40.5, 78, 27), y - 80))
  return { disc: circle(x, y, 40.5, 40.5, 40.5), person }
}
const avatarPng = (() => {
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1))
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      let disc = 0
      let person = 0
      for (let i = 0; i < 4; i++)
        for (let j = 0; j < 4; j++) {
          const d = avatar(x + (i + 0.5) / 4, y + (j + 0.5) / 4)
          if (d.disc <= 0) disc++
          if (d.disc <= 0 && d.person <= 0) person++
        }
      const o = y * (SIZE * 4 + 1) + 1 + x * 4
      const p = person / 16
      raw[o] = Math.round(0xc9 + (0xff - 0xc9) * p)
      raw[o + 1] = Math.round(0xdc + (0xff - 0xdc) * p)
      raw[o + 2] = 0xff
      raw[o + 3] = Math.round((255 * disc) / 16)
    }
  return raw
})()
const encode = (raw) => {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(SIZE, 0)
  ihdr.writeUInt32BE(SIZE, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
writeFileSync(new URL('../avatar.png', OUT), encode(avatarPng))
console.log('tab icons and default avatar written to src/assets')
