// Runs the browser test files, E2E_JOBS at a time (default 1), against one
// Chromium shared by all of them: launching a browser for each file cost
// more than a CPU second a file (docs/testing.md). Each file still has its
// own server, port, database and browser contexts (harness.mjs).
//   node e2e/run.mjs                   every e2e/*.test.mjs
//   node e2e/run.mjs e2e/points.test.mjs …
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { chromium } from "playwright-core";
import { BROWSER_OPTIONS } from "./harness.mjs";

// Every file listed by name: Node 22 and later take a folder given to
// --test as a module to run, not as a folder to search.
const named = process.argv.slice(2);
const files = named.length ? named : readdirSync("e2e").filter((f) => f.endsWith(".test.mjs")).sort().map((f) => `e2e/${f}`);
const jobs = process.env.E2E_JOBS || "1";
const browser = await chromium.launchServer(BROWSER_OPTIONS);
const child = spawn(process.execPath, ["--test", `--test-concurrency=${jobs}`, ...files], {
  stdio: "inherit",
  env: { ...process.env, E2E_BROWSER_WS: browser.wsEndpoint() },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
const code = await new Promise((resolve) => child.on("exit", (c, sig) => resolve(c ?? (sig ? 1 : 0))));
await browser.close();
process.exit(code);
