// Writes the installable app's icons (web/public/icons/*.png) in the
// brand's colours (internal/brand/brand.json): the header's round mark
// (a disc shaded from the light logo colour to the accent) on a white disc,
// on the accent. The maskable icon keeps the mark inside the safe zone (the
// middle 80 %), so any launcher's mask leaves it whole. Run once after a
// brand colour change: node scripts/icons.mjs. Node's zlib only: no image
// library.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const brand = JSON.parse(readFileSync(new URL('../../internal/brand/brand.json', import.meta.url), 'utf8'))
const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16))
const accent = hex(brand.colors.accent)
const light = hex(brand.colors.logoLight)
const white = [255, 255, 255]

const CRC = new Uint32Array(256).map((_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buf) {
  let c = 0xffffffff
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 3 + 1))
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0 // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b] = pixel(x + 0.5, y + 0.5)
      const o = y * (size * 3 + 1) + 1 + x * 3
      raw[o] = r
      raw[o + 1] = g
      raw[o + 2] = b
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
}
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t))
/** The mark, with discs of radius `outer` (white) and `inner` (shaded) as fractions of the size. */
function icon(size, outer, inner) {
  return png(size, (x, y) => {
    const c = size / 2
    const d = Math.hypot(x - c, y - c) / size
    const edge = 1 / size // one pixel of anti-aliasing
    let col = accent
    col = mix(col, white, Math.min(1, Math.max(0, (outer - d) / edge)))
    // the header mark's gradient: light at 35 % from the top left, accent at the rim
    const g = Math.min(1, Math.hypot(x - (c - inner * size * 0.3), y - (c - inner * size * 0.3)) / (inner * size * 1.6))
    const shade = mix(light, accent, g)
    return mix(col, shade, Math.min(1, Math.max(0, (inner - d) / edge)))
  })
}
const dir = new URL('../public/icons/', import.meta.url)
mkdirSync(dir, { recursive: true })
writeFileSync(new URL('icon-192.png', dir), icon(192, 0.42, 0.34))
writeFileSync(new URL('icon-512.png', dir), icon(512, 0.42, 0.34))
// maskable: the white disc (radius 0.3) inside the safe zone's circle (radius 0.4)
writeFileSync(new URL('maskable-512.png', dir), icon(512, 0.3, 0.24))
