// Session security end to end, on a server whose clock the test moves
// (--test-clock): the spec's whole idle-timeout flow, and login after it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, advanceServerClock, login, screenshot, VIEWPORTS, DEMO } from "./harness.mjs";

const env = e2eSuite({ before, after }, { serverArgs: ["--test-clock"] });

const IDLE_LIMIT_SECONDS = 30 * 60;

test("a page load after the idle limit goes to /login with the redirect; login returns to the page", async () => {
  for (const viewport of Object.values(VIEWPORTS)) {
    const { context, page } = await env.newPage(viewport);
    await login(page, env.server.url);
    await page.goto(`${env.server.url}/bookings?lang=en`);
    await page.getByRole("heading", { level: 1 }).waitFor();

    // 31 idle minutes on the server: the session is dead, the cookie still in the browser.
    await advanceServerClock(env.server, IDLE_LIMIT_SECONDS + 60);
    await page.goto(`${env.server.url}/account?lang=en`);
    // The page's session check finds no live session: /login with the redirect.
    await page.waitForURL(/\/login\?/);
    assert.match(new URL(page.url()).searchParams.get("redirect") ?? "", /^\/account/);

    await page.getByLabel("E-mail address").fill(DEMO.email);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL((u) => u.pathname === "/account");
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.equal(await page.getByText("Processing was interrupted").count(), 0);
    await context.close();
  }
});

test("a data call after the idle limit opens the timeout modal; login from it returns to the page", async () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  const { context, page } = await env.newPage(viewport);
  await login(page, env.server.url);
  await page.goto(`${env.server.url}/?lang=en`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  await advanceServerClock(env.server, IDLE_LIMIT_SECONDS + 60);
  // In-app navigation: the next data call answers 403.
  await page.getByRole("navigation").getByRole("link", { name: "Bookings" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Please try to log in again" })
    .or(page.getByRole("alertdialog", { name: "Please try to log in again" }));
  await dialog.waitFor();
  await screenshot(page, `session-timeout-modal-${name}`);
  await dialog.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL(/\/login\?/);
  const redirect = new URL(page.url()).searchParams.get("redirect") ?? "";
  assert.match(redirect, /^\/bookings/);
  // The browser still holds the dead session cookie if the 403 did not
  // clear it; login must work either way.
  await page.getByLabel("E-mail address").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((u) => u.pathname === "/bookings");
  assert.equal(await page.getByText("Processing was interrupted").count(), 0);
  await context.close();
  }
});
