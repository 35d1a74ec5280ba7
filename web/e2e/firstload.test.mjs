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
// V8's compile hint on the chunks a first load runs (scripts/compileHints.ts).
const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

test("the login page loads at most 130 KiB of compressed JavaScript, all but the smallest files brotli, each with V8's compile hint", async (t) => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  const scripts = [];
  page.on("requestfinished", async (req) => {
    if (req.resourceType() !== "script") return;
    const res = await req.response();
    const sizes = await req.sizes();
    const body = (await res?.text()) ?? "";
    scripts.push({ url: new URL(req.url()).pathname, bytes: sizes.responseBodySize, encoding: res?.headers()["content-encoding"], hinted: body.startsWith(COMPILE_HINT) });
  });
  await page.goto(`${env.server.url}/login?lang=en`);
  await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
  await page.waitForLoadState("networkidle");
  const total = scripts.reduce((n, s) => n + s.bytes, 0);
  const list = scripts.map((s) => `${s.url} ${s.bytes} ${s.encoding}`).join("\n");
  assert.ok(scripts.length > 0, "no script seen");
  // (a file of a few hundred bytes is sent as it is: scripts/compress.mjs)
  for (const s of scripts) if (s.bytes > 1024) assert.equal(s.encoding, "br", `${s.url} is not sent brotli-compressed`);
  // Every script of the first load but the catalogues (data) comes with the compile hint first.
  for (const s of scripts) if (!/\/locale-/.test(s.url)) assert.ok(s.hinted, `${s.url} does not start with V8's compile hint`);
  assert.ok(total <= BUDGET, `login page JavaScript: ${(total / 1024).toFixed(1)} KiB compressed, budget 130 KiB:\n${list}`);
  t.diagnostic(`login page JavaScript: ${(total / 1024).toFixed(1)} KiB compressed in ${scripts.length} files`);
  await context.close();
});
