// The app shell end to end: login, redirects, language, logout, timeout.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, login, screenshot, VIEWPORTS, DEMO } from "./harness.mjs";

const env = e2eSuite({ before, after });

const newPage = (viewport = VIEWPORTS.desktop) => env.newPage(viewport);

test("a member page without a session goes to /login with the redirect, and back after login", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.waitForURL(/\/login\?/);
  const u = new URL(page.url());
  assert.equal(u.searchParams.get("redirect"), "/bookings?lang=en");
  await page.getByLabel("E-mail address").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/bookings");
  assert.equal(new URL(page.url()).searchParams.get("lang"), "en");
  await context.close();
});

test("a wrong password shows the server's message and stays on /login", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/login?lang=en`);
  await page.getByLabel("E-mail address").fill(DEMO.email);
  await page.getByLabel("Password").fill("Wrong1234");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.getByRole("alert").filter({ hasText: "incorrect" }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/login/);
  await context.close();
});

test("lang is added when missing and kept across navigation; the switch changes the language", async () => {
  const { context, page } = await newPage();
  await login(page, env.server.url, DEMO, "jp");
  assert.equal(new URL(page.url()).searchParams.get("lang"), "jp");
  await page.getByRole("navigation").getByRole("link", { name: "予約" }).first().click();
  await page.waitForURL((u) => u.pathname === "/bookings");
  assert.equal(new URL(page.url()).searchParams.get("lang"), "jp");
  // A bare path gets the stored language added.
  await page.goto(`${env.server.url}/account`);
  await page.waitForURL((u) => u.searchParams.get("lang") === "jp");
  // The address gets lang before the first render: wait for the page itself.
  await page.getByRole("heading", { level: 1 }).waitFor();
  // Every internal link carries lang.
  const hrefs = await page.locator("a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(hrefs.length > 0);
  for (const h of hrefs) assert.match(h, /[?&]lang=jp/, `link ${h} lacks lang`);
  // Switch to Thai.
  await page.getByLabel("言語").selectOption("th");
  await page.waitForURL((u) => u.searchParams.get("lang") === "th");
  await page.getByRole("navigation").getByText("หน้าแรก").first().waitFor();
  assert.equal(await page.locator("html").getAttribute("lang"), "th-TH");
  await context.close();
});

test("logout ends the session and member pages go back to /login", async () => {
  const { context, page } = await newPage();
  await login(page, env.server.url);
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL(/\/login/);
  const res = await page.request.get(`${env.server.url}/api/session`);
  assert.equal(res.status(), 403);
  await page.goto(`${env.server.url}/account?lang=en`);
  await page.waitForURL(/\/login\?/);
  await context.close();
});

test("a 403 on a data call opens the timeout modal, which leads to /login with the redirect", async () => {
  const { context, page } = await newPage();
  await login(page, env.server.url);
  await page.goto(`${env.server.url}/?lang=en`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  await context.clearCookies();
  await page.getByRole("navigation").getByRole("link", { name: "Bookings" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Please try to log in again" })
    .or(page.getByRole("alertdialog", { name: "Please try to log in again" }));
  await dialog.waitFor();
  await page.keyboard.press("Escape");
  assert.equal(await dialog.isVisible(), true, "the timeout modal cannot be closed with Escape");
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL(/\/login\?/);
  assert.match(new URL(page.url()).searchParams.get("redirect") ?? "", /^\/bookings/);
  await context.close();
});

test("screenshots of login and home at 375 px and 1280 px", async () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const { context, page } = await newPage(viewport);
    await page.goto(`${env.server.url}/login?sso=failed&lang=en`);
    await page.getByRole("alert").filter({ hasText: "Please log in again due to an error." }).waitFor();
    await screenshot(page, `login-sso-failed-${name}`);
    await page.goto(`${env.server.url}/login?lang=en`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await screenshot(page, `login-${name}`);
    await login(page, env.server.url);
    await page.getByRole("heading", { name: /Hello/ }).waitFor();
    await screenshot(page, `home-${name}`);
    if (name === "phone") {
      assert.equal(await page.getByRole("button", { name: "Menu" }).isVisible(), true);
    } else {
      assert.equal(await page.getByRole("navigation").first().isVisible(), true);
    }
    await context.close();
  }
  const { context, page } = await newPage(VIEWPORTS.phone);
  await login(page, env.server.url, DEMO, "th");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await screenshot(page, "home-phone-th");
  await context.close();
});
