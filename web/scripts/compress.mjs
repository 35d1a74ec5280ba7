// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside
// every compressible file of the built app, once at build time, so the Go
// server sends the copy the browser accepts without compressing per request
// (internal/httpapi/web.go). Node's own zlib does both: no dependency.
// Usage: node scripts/compress.mjs <dist folder>
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, extname } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest'])
const MIN_BYTES = 256 // below this the encoding's overhead eats the gain

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) yield* files(p)
    else yield p
  }
}

const dist = process.argv[2]
if (!dist) {
  console.error('usage: node scripts/compress.mjs <dist folder>')
  process.exit(2)
}
let raw = 0
let br = 0
for (const file of files(dist)) {
  if (!COMPRESSIBLE.has(extname(file)) || statSync(file).size < MIN_BYTES) continue
  const data = readFileSync(file)
  const b = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  })
  const g = gzipSync(data, { level: 9 })
  // A copy is only worth sending when it is smaller.
  if (b.length < data.length) writeFileSync(file + '.br', b)
  if (g.length < data.length) writeFileSync(file + '.gz', g)
  raw += data.length
  br += b.length
}
console.log(`compress: ${(raw / 1024).toFixed(0)} KiB → ${(br / 1024).toFixed(0)} KiB brotli`)
