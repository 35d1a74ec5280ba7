// Runs the browser test files, E2E_JOBS at a time (default 1), against one
// Chromium shared by all of them: launching a browser for each file cost
// more than a CPU second a file (docs/testing.md). Each file still has its
// own server, port, database and browser contexts (harness.mjs).
//   node e2e/run.mjs                   every e2e/*.test.mjs
//   node e2e/run.mjs e2e/points.test.mjs …
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";
import { BROWSER_OPTIONS } from "./harness.mjs";

const files = process.argv.slice(2);
const jobs = process.env.E2E_JOBS || "1";
const browser = await chromium.launchServer(BROWSER_OPTIONS);
const child = spawn(process.execPath, ["--test", `--test-concurrency=${jobs}`, ...(files.length ? files : ["e2e/"])], {
  stdio: "inherit",
  env: { ...process.env, E2E_BROWSER_WS: browser.wsEndpoint() },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
const code = await new Promise((resolve) => child.on("exit", (c, sig) => resolve(c ?? (sig ? 1 : 0))));
await browser.close();
process.exit(code);
