// Side-by-side figures of a first load on a phone, steadier than Lighthouse's
// score on a busy machine: for each page, the requests, the compressed bytes
// of script (and of everything), and from Chromium (4× slower CPU, a phone's
// viewport, no network throttling) the main thread's script, layout and task
// time (Performance.getMetrics), the summed excess over 50 ms of its long
// tasks (what Lighthouse counts as blocking time), the largest paint and its
// element, the layout shift, and when the page is shown (its content in, no
// loading overlay nor placeholder left). Prints the median of --runs runs per page.
// Starts the server binary (bin/members serve --demo, as the e2e tests do)
// and logs in as the demo member for the member pages.
// The main thread's CPU time (from a trace) is the figure to compare on a
// busy machine: wall times there mostly measure the other work.
// Usage: node scripts/pageprofile.mjs [--pages login,home,bookings,account] [--runs 5] [--cpu 4]
//   (MEMBERS_BIN overrides ../bin/members)
import { cpus, loadavg } from "node:os";
import { DEMO, launchBrowser, startServer } from "../e2e/harness.mjs";

function arg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
}
const runs = Number(arg("runs", "5"));
const cpu = Number(arg("cpu", "4"));
const PATHS = { login: "/login", home: "/", bookings: "/bookings", account: "/account", points: "/points", "points-sale": "/points/sale", passes: "/gogo-pass" };
const pages = arg("pages", "login,home,bookings,account").split(",");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The CPU time of the page's main thread (the renderer's CrRendererMain) in
 * its tasks, and of V8's compiling there, from the trace's thread durations
 * (tdur): what the thread itself ran, whatever else the machine's CPUs were
 * busy with, so steadier than wall times on a loaded machine.
 */
function mainThreadCPU({ traceEvents }) {
  const main = new Set(traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  let cpu = 0;
  let compile = 0;
  for (const e of traceEvents) {
    if (e.ph !== "X" || !main.has(`${e.pid}:${e.tid}`) || typeof e.tdur !== "number") continue;
    if (e.name === "RunTask") cpu += e.tdur;
    else if (e.name === "v8.compile" || e.name === "V8.CompileCode" || e.name === "v8.compileModule") compile += e.tdur;
  }
  return { cpu: cpu / 1000, compile: compile / 1000 };
}

const server = await startServer();
const browser = await launchBrowser();
try {
  // One session cookie for every member page (the API login, as benchreport does).
  const ctx0 = await browser.newContext();
  const p0 = await ctx0.newPage();
  await p0.goto(`${server.url}/login?lang=en`);
  await p0.locator('input[type="email"]').first().fill(DEMO.email);
  await p0.locator('input[type="password"]').first().fill(DEMO.password);
  await p0.locator('form button[type="submit"]').first().click();
  await p0.waitForURL((u) => !u.pathname.startsWith("/login"));
  const cookies = await ctx0.cookies();
  await ctx0.close();

  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}, ${cpus().length} CPUs, CPU ×${cpu}, ${runs} runs, medians`);
  console.log("| page | main thread CPU ms | of it compiling ms | shown ms | requests | script KiB (br) | all KiB | script ms | layout ms | task ms | blocking ms | largest paint ms | LCP element | CLS |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const name of pages) {
    const member = name !== "login";
    const rows = [];
    let lcpElement = "";
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true, locale: "en-US" });
      if (member) await context.addCookies(cookies);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      let requests = 0;
      let scriptBytes = 0;
      let allBytes = 0;
      const types = new Map();
      cdp.on("Network.responseReceived", (e) => types.set(e.requestId, e.type));
      cdp.on("Network.requestWillBeSent", () => requests++);
      cdp.on("Network.loadingFinished", (e) => {
        allBytes += e.encodedDataLength;
        if (types.get(e.requestId) === "Script") scriptBytes += e.encodedDataLength;
      });
      await page.addInitScript(() => {
        const w = window;
        w.__perf = { lcp: 0, lcpEl: "", cls: 0, blocking: 0, ready: 0 };
        // The page is shown: its content is in, no loading overlay, no placeholder waiting for data.
        const shown = () => document.querySelector(".page") && !document.querySelector('.loading-overlay, [aria-busy="true"]');
        new MutationObserver((_, obs) => {
          if (shown()) {
            w.__perf.ready = performance.now();
            obs.disconnect();
          }
        }).observe(document, { subtree: true, childList: true, attributes: true });
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) {
            w.__perf.lcp = e.startTime;
            const el = e.element;
            w.__perf.lcpEl = el ? `${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ")[0] : ""}` : "";
          }
        }).observe({ type: "largest-contentful-paint", buffered: true });
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) if (!e.hadRecentInput) w.__perf.cls += e.value;
        }).observe({ type: "layout-shift", buffered: true });
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) w.__perf.blocking += Math.max(0, e.duration - 50);
        }).observe({ type: "longtask", buffered: true });
      });
      await browser.startTracing(page, { categories: ["devtools.timeline", "v8", "disabled-by-default-devtools.timeline"] });
      await page.goto(`${server.url}${PATHS[name]}?lang=en`, { waitUntil: "load" });
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(500);
      const perf = await page.evaluate(() => window.__perf);
      const cpuTime = mainThreadCPU(JSON.parse((await browser.stopTracing()).toString()));
      const { metrics } = await cdp.send("Performance.getMetrics");
      const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
      rows.push({ ...cpuTime, ready: perf.ready, requests, scriptBytes, allBytes, script: m.ScriptDuration * 1000, layout: m.LayoutDuration * 1000, task: m.TaskDuration * 1000, blocking: perf.blocking, lcp: perf.lcp, cls: perf.cls });
      lcpElement = perf.lcpEl;
      await context.close();
    }
    const col = (k) => median(rows.map((r) => r[k]));
    console.log(
      `| ${name} | ${col("cpu").toFixed(0)} | ${col("compile").toFixed(0)} | ${col("ready").toFixed(0)} | ${col("requests")} | ${(col("scriptBytes") / 1024).toFixed(1)} | ${(col("allBytes") / 1024).toFixed(1)} | ${col("script").toFixed(0)} | ${col("layout").toFixed(0)} | ${col("task").toFixed(0)} | ${col("blocking").toFixed(0)} | ${col("lcp").toFixed(0)} | ${lcpElement} | ${col("cls").toFixed(3)} |`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
