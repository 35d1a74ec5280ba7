// What a phone downloads on its first visit: the login page's
// JavaScript, as the browser receives it from the real server, stays within
// 130 KiB compressed, and every script comes precompressed. The build checks
// the same budget from the bundler's graph (scripts/scriptBudget.ts); this
// test also catches a script the page fetches at run time (an import() run
// on mount, for instance).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });
const BUDGET = 130 * 1024;

test("the login page loads at most 130 KiB of compressed JavaScript, all but the smallest files brotli", async (t) => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  const scripts = [];
  page.on("requestfinished", async (req) => {
    if (req.resourceType() !== "script") return;
    const res = await req.response();
    const sizes = await req.sizes();
    scripts.push({ url: new URL(req.url()).pathname, bytes: sizes.responseBodySize, encoding: res?.headers()["content-encoding"] });
  });
  await page.goto(`${env.server.url}/login?lang=en`);
  await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
  await page.waitForLoadState("networkidle");
  const total = scripts.reduce((n, s) => n + s.bytes, 0);
  const list = scripts.map((s) => `${s.url} ${s.bytes} ${s.encoding}`).join("\n");
  assert.ok(scripts.length > 0, "no script seen");
  // (a file of a few hundred bytes is sent as it is: scripts/compress.mjs)
  for (const s of scripts) if (s.bytes > 1024) assert.equal(s.encoding, "br", `${s.url} is not sent brotli-compressed`);
  assert.ok(total <= BUDGET, `login page JavaScript: ${(total / 1024).toFixed(1)} KiB compressed, budget 130 KiB:\n${list}`);
  t.diagnostic(`login page JavaScript: ${(total / 1024).toFixed(1)} KiB compressed in ${scripts.length} files`);
  await context.close();
});

test("a visitor's first load logs nothing in the console: the session check is the session info (200 for a visitor too), asked once", async () => {
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    const { context, page } = await env.newPage(viewport);
    const logged = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") logged.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => logged.push(`pageerror: ${e.message}`));
    const sessionCalls = [];
    page.on("request", (r) => {
      const p = new URL(r.url()).pathname;
      if (p === "/api/session" || p === "/api/session/info") sessionCalls.push(`${r.method()} ${p}`);
    });
    await page.goto(`${env.server.url}/login?lang=en`);
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    assert.deepEqual(logged, [], "console of a visitor's first load");
    assert.deepEqual(sessionCalls, ["GET /api/session/info"], "one call answers both the session check and the footer");
    // A member address (home) in a browser that never had a session: the
    // member's data waits for the check, so nothing is refused on the way
    // to the login page.
    await page.goto(`${env.server.url}/?lang=en`);
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    // Chromium warns of a preload left unused a few seconds after the load
    // event (index.html preloads the origin access check; a cached answer
    // once left it unused here, seen under load in CI): no condition to
    // wait for, so the test waits past those seconds.
    await page.waitForTimeout(4000);
    assert.deepEqual(logged, [], "console of a visitor's first load of a member address");
    await context.close();
  }
});
