// Runs Lighthouse 13 (mobile: the default form factor, simulated slow 4G and
// a 4× slower CPU) with Debian's chromium on eight pages of a running server
// (login, home, bookings, account, points, points sale, the unlimited pass,
// payment methods), the logged-in pages with a member's
// session cookie, and prints the "Lighthouse" section of BENCHMARKS.md with
// the median run of each page. Called by cmd/benchreport (`make bench`),
// which starts the server with the demo data and logs in.
// Usage: node scripts/lighthouse.mjs --base http://127.0.0.1:PORT --cookie members_session=… [--runs 3]
//   [--pages login,points-sale] [--reports DIR (keeps each run's JSON report: long tasks, layout shifts)]
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

const LIGHTHOUSE = 'lighthouse@13.5.0' // from npm on first use (npx cache)
const CHROME_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', "--host-resolver-rules='MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'",
].join(' ')

function arg(name, def) {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : def
}
const base = arg('base')
const cookie = arg('cookie')
const runs = Number(arg('runs', '3'))
if (!base || !cookie) {
  console.error('usage: node scripts/lighthouse.mjs --base URL --cookie members_session=… [--runs N]')
  process.exit(2)
}

const reports = arg('reports')
const only = arg('pages') // comma-separated names, for trying one page by hand
const allPages = [
  { name: 'login', path: '/login', member: false },
  { name: 'home', path: '/', member: true },
  { name: 'bookings', path: '/bookings', member: true },
  { name: 'account', path: '/account', member: true },
  { name: 'points', path: '/points', member: true },
  { name: 'points-sale', path: '/points/sale', member: true },
  { name: 'passes', path: '/gogo-pass', member: true },
  { name: 'payment-methods', path: '/payment-methods', member: true },
]
const pages = only ? allPages.filter((p) => only.split(',').includes(p.name)) : allPages

const dir = mkdtempSync(join(tmpdir(), 'lighthouse-'))
const headers = join(dir, 'headers.json')
writeFileSync(headers, JSON.stringify({ Cookie: cookie }))

function once(page, i) {
  const out = join(dir, `${page.name}-${i}.json`)
  const args = ['--yes', LIGHTHOUSE, base + page.path, '--only-categories=performance', '--output=json',
    `--output-path=${out}`, '--quiet', `--chrome-flags=${CHROME_FLAGS}`]
  if (page.member) args.push(`--extra-headers=${headers}`)
  execFileSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' } })
  const r = JSON.parse(readFileSync(out, 'utf8'))
  if (reports) {
    mkdirSync(reports, { recursive: true })
    copyFileSync(out, join(reports, `${page.name}-${i + 1}.json`))
  }
  const a = r.audits
  const scripts = a['resource-summary'].details.items.find((x) => x.resourceType === 'script')
  const finalUrl = new URL(r.finalDisplayedUrl ?? r.finalUrl).pathname
  if (finalUrl !== page.path) throw new Error(`${page.name}: ended on ${finalUrl}, not ${page.path} (session?)`)
  return {
    score: Math.round(r.categories.performance.score * 100),
    fcp: a['first-contentful-paint'].numericValue,
    lcp: a['largest-contentful-paint'].numericValue,
    tbt: a['total-blocking-time'].numericValue,
    cls: a['cumulative-layout-shift'].numericValue,
    si: a['speed-index'].numericValue,
    js: scripts ? scripts.transferSize : 0,
    report: r,
  }
}

// The compressed bodies of the scripts a run loaded (what the build's budget
// counts), asked of the server again: Lighthouse's transfer sizes include
// the response headers.
async function scriptBodies(r) {
  const items = r.audits['network-requests']?.details?.items ?? []
  let total = 0
  for (const x of items.filter((i) => i.resourceType === 'Script')) total += await compressedBody(x.url)
  return total
}

// node:http, which leaves the body as sent (fetch would decompress it).
function compressedBody(url) {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'br, gzip' } }, (res) => {
      let n = 0
      res.on('data', (chunk) => (n += chunk.length))
      res.on('end', () => resolve(n))
      res.on('error', reject)
    }).on('error', reject)
  })
}

// Lighthouse's score is noisy when other work shares the CPUs. In make bench
// the runs follow the session benchmark, whose wrk load leaves the 1-minute
// load average near the CPU count: wait (up to 3 minutes) until it falls
// below 1, so the runs start on a settled machine. The load average before
// and after the runs goes into the section.
const SETTLED = 1.0
// LIGHTHOUSE_SETTLE_SECONDS=0 skips the wait (a quick look at one page by hand).
const settleDeadline = Date.now() + Number(process.env.LIGHTHOUSE_SETTLE_SECONDS ?? 180) * 1000
while (loadavg()[0] >= SETTLED && Date.now() < settleDeadline) {
  console.error(`lighthouse: waiting for the machine to settle (load average ${loadavg()[0].toFixed(2)})`)
  await new Promise((resolve) => setTimeout(resolve, 10_000))
}
const loadBefore = loadavg()
const rows = []
for (const page of pages) {
  const results = []
  for (let i = 0; i < runs; i++) {
    const r = once(page, i)
    console.error(`lighthouse: ${page.name} run ${i + 1}: ${r.score} (LCP ${(r.lcp / 1000).toFixed(1)} s, CLS ${r.cls.toFixed(3)}, JS ${(r.js / 1024).toFixed(0)} KiB)`)
    results.push(r)
  }
  results.sort((x, y) => x.score - y.score)
  const med = results[Math.floor(results.length / 2)]
  if (page.name === 'login') med.jsBodies = await scriptBodies(med.report)
  rows.push({ page, med, all: results.map((r) => r.score) })
}
rmSync(dir, { recursive: true, force: true })

const s = (ms) => `${(ms / 1000).toFixed(1)} s`
let md = '## Lighthouse (phone)\n\n'
md += `\`go run ./cmd/benchreport\` → \`web/scripts/lighthouse.mjs\` (part of \`make bench\`), ${LIGHTHOUSE} with ${execFileSync('/usr/bin/chromium', ['--version']).toString().trim()}, `
md += `mobile (simulated slow 4G, 4× CPU slowdown), the demo server on loopback serving the production build; every page but login with the demo member's session cookie; `
const la = (l) => l.map((x) => x.toFixed(1)).join(', ')
md += `median of ${runs} runs per page, measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; `
const loadAfter = loadavg()
// The load after includes Lighthouse's own chromium; the one before says whether the machine was quiet.
const busy = loadBefore[0] >= SETTLED
md += `load average (1, 5, 15 min) on the ${cpus().length} CPUs: ${la(loadBefore)} before (the runs wait until the 1-minute figure is below ${SETTLED}), ${la(loadAfter)} after (Lighthouse's own browser included)`
md += busy ? ': the machine did not settle in 3 minutes; other work competed with the runs for the CPUs, so the scores are lower and noisier than on a quiet machine.\n\n' : '.\n\n'
md += '| page | performance | runs | FCP | LCP | TBT | CLS | Speed Index | JavaScript sent |\n|---|---:|---|---:|---:|---:|---:|---:|---:|\n'
for (const { page, med, all } of rows) {
  md += `| ${page.name} (${page.path}) | **${med.score}** | ${all.join(', ')} | ${s(med.fcp)} | ${s(med.lcp)} | ${Math.round(med.tbt)} ms | ${med.cls.toFixed(3)} | ${s(med.si)} | ${(med.js / 1024).toFixed(1)} KiB |\n`
}
md += '\n"JavaScript sent" is Lighthouse\'s transfer size, HTTP headers included; the compressed bodies of the login page\'s first load are what `npm run build` prints and checks (scripts/scriptBudget.ts).\n'
const login = rows.find((x) => x.page.name === 'login')
if (login) md += `\nThe login page's scripts, compressed bodies without headers: **${(login.med.jsBodies / 1024).toFixed(1)} KiB**.\n`
md += '\nTarget: performance ≥ 90 on every page, CLS < 0.05; the login page sends ≤ 130 KiB of compressed JavaScript.\n'
process.stdout.write(md)
