/* global document, window */
// Browser history: Back restores the scroll position of the page left, and
// Back after a logout shows the login page and nothing else.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, login } from "./harness.mjs";

const env = e2eSuite({ before, after });

/** Waits until window.scrollY is near y (the page may still be loading its data). */
async function scrolledTo(page, y) {
  await page.waitForFunction((want) => Math.abs(window.scrollY - want) <= 2, y, { timeout: 10000 }).catch(() => {});
  return page.evaluate(() => Math.round(window.scrollY));
}

test("Back restores the scroll position of the page left, on three pages", async () => {
  const { context, page } = await env.newPage({ width: 1280, height: 480 });
  await login(page, env.server.url);
  for (const [path, next] of [["/points", "/bookings"], ["/bookings", "/points"], ["/account", "/bookings"]]) {
    await page.goto(`${env.server.url}${path}?lang=en`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    const want = await page.evaluate(() => Math.min(1200, document.documentElement.scrollHeight - window.innerHeight));
    assert.ok(want > 300, `${path} is too short to scroll (${want})`);
    await page.mouse.wheel(0, want);
    assert.equal(await scrolledTo(page, want), want, `${path} scrolled`);
    // Leave through an in-app link. A click in the script (not Playwright's,
    // which first scrolls the header's link into view) keeps the position.
    await page.locator(`a[href^="${next}?"]`).first().evaluate((a) => a.click());
    await page.waitForURL((u) => u.pathname === next);
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.equal(await scrolledTo(page, 0), 0, `${next} opens at the top`);
    await page.goBack();
    await page.waitForURL((u) => u.pathname === path);
    assert.equal(await scrolledTo(page, want), want, `Back to ${path} restores the position`);
  }
  await context.close();
});

test("Back after a logout shows the login page, with no timeout or error dialog", async () => {
  const { context, page } = await env.newPage();
  await login(page, env.server.url);
  for (const path of ["/account", "/passengers"]) {
    await page.goto(`${env.server.url}${path}?lang=en`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    // as a member would: Back once the login page shows
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    await page.goBack();
    // the app redirects inside the page (history API): poll the address
    await page.waitForFunction((p) => {
      const u = new URL(globalThis.location.href);
      return u.pathname === "/login" && (u.searchParams.get("redirect") ?? "").startsWith(p);
    }, path);
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    // Give a stray data call time to fail and open a dialog.
    await page.waitForTimeout(1500);
    assert.equal(await page.getByRole("dialog").or(page.getByRole("alertdialog")).count(), 0, `no dialog after Back from ${path}`);
    assert.equal(await page.getByText(/inactivity/i).count(), 0);
    assert.equal(new URL(page.url()).pathname, "/login");
    await login(page, env.server.url);
  }
  await context.close();
});
