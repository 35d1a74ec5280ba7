// Browser test harness: starts the real server (bin/members serve --demo)
// on a fresh SQLite database and a free port, and drives Debian's Chromium
// with playwright-core. Every test file gets its own server and browser.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const screenshotDir = path.join(here, "screenshots");

export const DEMO = { email: "demo@example.com", password: "Demo1234" };
export const DEMO2 = { email: "demo2@example.com", password: "Demo1234" };

/** A free loopback port (for a server that must know another's address before it starts). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Starts the server (on `port`, else a free one); resolves when it listens. */
export async function startServer(extraArgs = [], { port: fixedPort } = {}) {
  const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
  const dir = mkdtempSync(path.join(tmpdir(), "members-e2e-"));
  const port = fixedPort ?? await freePort();
  const addr = `127.0.0.1:${port}`;
  const proc = spawn(bin, ["serve", "--demo", "--addr", addr, "--db", `sqlite:${dir}/e2e.db`, ...extraArgs], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, MEMBERS_PUBLIC_URL: `http://${addr}` },
  });
  let log = "";
  proc.stderr.on("data", (d) => { log += d; });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30000);
    proc.stdout.on("data", (d) => {
      if (String(d).includes("listening")) { clearTimeout(timer); resolve(); }
    });
    proc.on("exit", (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}:\n${log}`)); });
  });
  return {
    url: `http://${addr}`,
    dir,
    dsn: `sqlite:${dir}/e2e.db`,
    log: () => log,
    async stop() {
      proc.kill("SIGTERM");
      await new Promise((r) => proc.once("exit", r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The browser: Debian's Chromium headless shell (package
 * chromium-headless-shell, Chromium's old headless mode, the build
 * Playwright itself runs headless), else Debian's full Chromium in its
 * headless mode; CHROMIUM_PATH chooses another. The same Blink renders the
 * pages, but the full browser's headless mode runs Chrome's own UI and
 * services beside them: a page load with a new context cost 1.4 CPU s
 * there and 0.5 in the shell (docs/testing.md).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH
  || (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

/**
 * Chromium headless, with no outside network look-ups (localhost
 * stays: a passkey's relying party cannot be an IP address).
 */
export const BROWSER_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
  ],
};

/**
 * The browser of a test file: the one e2e/run.mjs started for all files
 * (E2E_BROWSER_WS; each file's pages are in browser contexts of its own,
 * which share no cookies or storage), else one launched for the file.
 */
export async function launchBrowser() {
  const ws = process.env.E2E_BROWSER_WS;
  return ws ? chromium.connect(ws) : chromium.launch(BROWSER_OPTIONS);
}

/** A phone and a desktop viewport, for screenshots of each page. */
export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 900 },
};

/**
 * Whether the tests save screenshots: E2E_SCREENSHOTS=1 (`make screenshots`).
 * They are for people to look at and assert nothing; make test, where
 * nobody looks, skips them (about 450 a run, a sixth of a page's CPU time
 * each: docs/testing.md).
 */
export const SCREENSHOTS = process.env.E2E_SCREENSHOTS === "1";

/**
 * Saves a screenshot under e2e/screenshots/ when SCREENSHOTS: of the whole
 * page for a page, of the element for a locator.
 */
export async function screenshot(target, name) {
  if (!SCREENSHOTS) return;
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await (typeof target.goto === "function" ? target.screenshot({ path: file, fullPage: true }) : target.screenshot({ path: file }));
}

/**
 * A download's content as text. Download.path() throws on a browser reached
 * over its WebSocket (run.mjs shares one Chromium), so the file is streamed.
 */
export async function downloadText(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Calls the API as the page's member: the page's cookies and user agent
 * (page.request sends the browser's), a fresh CSRF token (for the
 * session's cookie, or the pre-login one) and X-Lang set to `lang`. The
 * body is sent as JSON; the answer's body is read as JSON ({} when it is
 * not).
 */
export async function apiCall(page, baseURL, method, p, body, { lang = "en" } = {}) {
  const token = await page.request.get(`${baseURL}/api/csrf_token`, { headers: { "X-Lang": lang } });
  assert.equal(token.status(), 200, "csrf token");
  const res = await page.request.fetch(`${baseURL}${p}`, {
    method,
    headers: { "X-Lang": lang, "Content-Type": "application/json", "X-Csrf-Token": (await token.json()).csrfToken },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = {};
  try { json = JSON.parse(text); } catch { /* not JSON: an empty answer */ }
  return { status: res.status(), body: json, text };
}

/**
 * Logs in over the API, as the login form's own call does (POST
 * /api/session with the browser's cookies, user agent and language) and
 * loads no page: for the tests that are not about logging in, whose next
 * step loads the page they test. It saves the login page and the home page
 * a form login loads (about 3 CPU s a login under load, docs/testing.md).
 */
export async function signIn(page, baseURL, user = DEMO, lang = "en") {
  const res = await apiCall(page, baseURL, "POST", "/api/session", { email: user.email, password: user.password }, { lang });
  assert.equal(res.status, 204, `login of ${user.email}: ${res.status} ${res.text}`);
}

/** Logs in through the login form and waits for the landing page. */
export async function login(page, baseURL, user = DEMO, lang = "en") {
  await page.goto(`${baseURL}/login?lang=${lang}`);
  await page.locator('input[type="email"], input[name="email"]').first().fill(user.email);
  await page.locator('input[type="password"]').first().fill(user.password);
  await page.locator('form button[type="submit"]').first().click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/**
 * Registers the suite's server and browser (started before the tests of the
 * file, stopped after) and returns them with a page factory.
 */
export function e2eSuite(hooks, { serverArgs = [] } = {}) {
  const env = {
    server: undefined,
    browser: undefined,
    /** A fresh browser context (own cookies) and page. */
    async newPage(viewport = VIEWPORTS.desktop) {
      const context = await env.browser.newContext({ viewport, locale: "en-US" });
      return { context, page: await context.newPage() };
    },
  };
  hooks.before(async () => {
    env.server = await startServer(serverArgs);
    env.browser = await launchBrowser();
  });
  hooks.after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/**
 * Moves the clock of a server started with --test-clock forward (the
 * session idle limit, link lifetimes) without waiting.
 */
export async function advanceServerClock(server, seconds) {
  const res = await fetch(`${server.url}/_test/clock`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  if (!res.ok) throw new Error(`advance clock: ${res.status} ${await res.text()}`);
}

/**
 * Waits until a form control holds value (a form may settle its fields a
 * render after the status that announces the save), then returns it.
 */
export async function settledValue(locator, value, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  let got = await locator.inputValue();
  while (got !== value && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    got = await locator.inputValue();
  }
  return got;
}

/**
 * Follows the page's requests from now on. quiet() then waits until none
 * has been in flight for quietMs (a data call the page sent has been
 * answered and handled), at most timeoutMs, and stops following. Unlike
 * waitForLoadState("networkidle"), it also waits after a navigation inside
 * the page (history API).
 */
export function trackRequests(page) {
  let inFlight = 0;
  let last = Date.now();
  const start = () => { inFlight++; last = Date.now(); };
  const end = () => { inFlight = Math.max(0, inFlight - 1); last = Date.now(); };
  page.on("request", start);
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  return {
    async quiet(quietMs = 500, timeoutMs = 15000) {
      try {
        const until = Date.now() + timeoutMs;
        while (inFlight > 0 || Date.now() - last < quietMs) {
          if (Date.now() > until) throw new Error(`requests still in flight after ${timeoutMs} ms: ${inFlight}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        page.off("request", start);
        page.off("requestfinished", end);
        page.off("requestfailed", end);
      }
    },
  };
}
