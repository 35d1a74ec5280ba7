/* global document, window */
// Browser history: Back restores the scroll position of the page left, and
// Back after a logout shows the login page and nothing else.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, login, signIn, trackRequests } from "./harness.mjs";

const env = e2eSuite({ before, after });

/** Waits until window.scrollY is within tolerance of y (the page may still be loading its data). */
async function scrolledTo(page, y, tolerance = 2) {
  await page.waitForFunction(([want, tol]) => Math.abs(window.scrollY - want) <= tol, [y, tolerance], { timeout: 10000 }).catch(() => {});
  return page.evaluate(() => Math.round(window.scrollY));
}

/** window.scrollY once it has stayed the same for 300 ms. */
async function settledScroll(page) {
  let last = -1;
  for (let i = 0; i < 20; i++) {
    const y = await page.evaluate(() => Math.round(window.scrollY));
    if (y === last) return y;
    last = y;
    await page.waitForTimeout(300);
  }
  return last;
}

test("Back restores the scroll position of the page left, on three pages", async () => {
  const { context, page } = await env.newPage({ width: 1280, height: 480 });
  await signIn(page, env.server.url);
  for (const [path, next] of [["/points", "/bookings"], ["/bookings", "/points"], ["/account", "/bookings"]]) {
    await page.goto(`${env.server.url}${path}?lang=en`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    const want = await page.evaluate(() => Math.min(1200, document.documentElement.scrollHeight - window.innerHeight));
    assert.ok(want > 300, `${path} is too short to scroll (${want})`);
    await page.mouse.wheel(0, want);
    const scrolled = await scrolledTo(page, want);
    assert.ok(Math.abs(scrolled - want) <= 24, `${path} scrolled to ${scrolled}, not about ${want}`);
    // Where the member is once the page has settled: content that arrives
    // late above the fold may move it by a few pixels (scroll anchoring), and
    // Back must bring back that place, not the wheel's distance.
    const at = await settledScroll(page);
    // Leave through an in-app link. A click in the script (not Playwright's,
    // which first scrolls the header's link into view) keeps the position.
    await page.locator(`a[href^="${next}?"]`).first().evaluate((a) => a.click());
    await page.waitForURL((u) => u.pathname === next);
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.equal(await scrolledTo(page, 0), 0, `${next} opens at the top`);
    await page.goBack();
    await page.waitForURL((u) => u.pathname === path);
    // Within a line: content above the fold that arrives again (a search's
    // answer on /bookings) may move the page by a few pixels under scroll
    // anchoring, which keeps the member's view where it was.
    const back = await scrolledTo(page, at, 24);
    assert.ok(Math.abs(back - at) <= 24, `Back to ${path} restores the position: ${back}, not about ${at}`);
  }
  await context.close();
});

test("Back after a logout shows the login page, with no timeout or error dialog", async () => {
  const { context, page } = await env.newPage();
  // Through the form (not signIn): Back from the first page reaches the
  // member page the login landed on, in the history the test relies on.
  await login(page, env.server.url);
  for (const path of ["/account", "/passengers"]) {
    await page.goto(`${env.server.url}${path}?lang=en`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    // as a member would: Back once the login page shows
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    const requests = trackRequests(page);
    await page.goBack();
    // The login page took the place of the page left: Back reaches the
    // entry before it, a member page, which sends the visitor to the login
    // page (the app redirects inside the page, history API: poll the address).
    await page.waitForFunction(() => {
      const u = new URL(globalThis.location.href);
      return u.pathname === "/login" && u.searchParams.has("redirect");
    });
    assert.ok(!new URL(page.url()).searchParams.get("redirect").startsWith(path), "the page left is not in the history any more");
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    // Give a stray data call time to fail and open a dialog.
    await requests.quiet();
    assert.equal(await page.getByRole("dialog").or(page.getByRole("alertdialog")).count(), 0, `no dialog after Back from ${path}`);
    assert.equal(await page.getByText(/inactivity/i).count(), 0);
    assert.equal(new URL(page.url()).pathname, "/login");
    await login(page, env.server.url);
  }
  await context.close();
});

test("Back pressed after a logout before the login page first paints shows the login page and nothing else", async () => {
  const { context, page } = await env.newPage();
  // Through the form, as above: the history holds the landing page.
  await login(page, env.server.url);
  for (const path of ["/account", "/bookings"]) {
    await page.goto(`${env.server.url}${path}?lang=en`);
    const heading = await page.getByRole("heading", { level: 1 }).textContent();
    // The login page's script arrives late: Back comes before its first paint.
    const delayed = [];
    await page.route("**/assets/**", (route) => {
      const sent = new Promise((r) => setTimeout(r, 1500)).then(() => route.continue().catch(() => {}));
      delayed.push(sent);
      return sent;
    });
    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await page.goBack();
    await page.unroute("**/assets/**");
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    // Every late script has arrived and the page has nothing more on its
    // way: a page that could still come back would have come by now.
    await Promise.all(delayed);
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => new Promise((r) => globalThis.requestAnimationFrame(() => globalThis.requestAnimationFrame(r))));
    assert.equal(new URL(page.url()).pathname, "/login", `Back after the logout from ${path}`);
    assert.equal(await page.getByRole("heading", { level: 1, name: heading }).count(), 0, `${path} is not shown`);
    assert.equal(await page.getByRole("heading", { level: 1 }).count(), 1);
    assert.equal(await page.getByRole("dialog").or(page.getByRole("alertdialog")).count(), 0, "no dialog");
    await login(page, env.server.url);
  }
  await context.close();
});
