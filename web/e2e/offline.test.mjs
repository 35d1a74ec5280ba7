// The installable app and the trips kept offline (docs/offline.md):
// install criteria, the kept trips at 375 px without a network (en, jp, th)
// and their refresh when it returns, the notice without the choice, erasure
// (switching off, logout, a password change, "end all other sessions" at the
// device's next connection, account deletion; another member), and a new
// release announced.
/* global document, window, indexedDB, caches */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { e2eSuite, signIn, apiCall, screenshot, downloadText, advanceServerClock, VIEWPORTS, DEMO, DEMO2, root } from "./harness.mjs";

// The test clock: a session that simply runs out (30 idle minutes) without waiting.
const env = e2eSuite({ before, after }, { serverArgs: ["--test-clock"] });

// Member 1's bookings with a flight in the next 30 days (internal/demo/bookings.go), and one further off.
const KEPT = ["BKK5LM", "HNK7Q2", "TPE3XY"].sort();
const NOT_KEPT = ["CTS4EF", "OKA2CD"];
const SAVED = { en: "Saved on this device — last updated", jp: "この端末に保存済み — 最終更新", th: "บันทึกไว้ในอุปกรณ์นี้ — อัปเดตล่าสุด" };
const KEEP = { en: "Keep my trips on this device", jp: "この端末に旅程を保存する", th: "เก็บทริปของฉันไว้ในอุปกรณ์นี้" };

/** Waits until the service worker is active and controls the page (a first visit's page is controlled after a reload). */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }
}

/** A new page of a member (the demo member unless told), signed in, on the bookings page in lang under the service worker's control. */
async function bookingsPage(viewport, lang = "en", user = DEMO) {
  const { context, page } = await env.newPage(viewport);
  const base = env.server.url;
  await signIn(page, base, user, lang);
  await page.goto(`${base}/bookings?lang=${lang}`);
  await controlled(page);
  return { context, page, base };
}

/** The kept record in IndexedDB (members-kept), with the itineraries as their types and sizes; null when there is none. */
function keptRecord(page) {
  return page.evaluate(async () => {
    const dbs = await indexedDB.databases();
    if (!dbs.some((d) => d.name === "members-kept")) return null;
    const db = await new Promise((res, rej) => {
      const r = indexedDB.open("members-kept");
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    try {
      if (!db.objectStoreNames.contains("kept")) return null;
      const value = await new Promise((res, rej) => {
        const r = db.transaction("kept").objectStore("kept").get("trips");
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      if (!value) return null;
      const itineraries = Object.fromEntries(Object.entries(value.itineraries).map(([k, b]) => [k, { type: b.type, size: b.size }]));
      return { ...value, itineraries };
    } finally {
      db.close();
    }
  });
}

/** Every URL in Cache Storage: the precached shell only, never an API answer. */
function cachedURLs(page) {
  return page.evaluate(async () => {
    const urls = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    return urls;
  });
}

/** Nothing kept: no record in IndexedDB, no flag, no Cache Storage cache of kept data nor any API answer there. */
async function assertErased(page, what) {
  await page.waitForFunction(() => localStorage.getItem("members.keptTrips") === null);
  // The flag goes first, the IndexedDB record with the store's clear a moment later.
  for (const until = Date.now() + 15000; (await keptRecord(page)) !== null && Date.now() < until; ) await page.waitForTimeout(100);
  assert.equal(await keptRecord(page), null, `${what}: IndexedDB`);
  assert.deepEqual(await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith("members-kept"))), [], `${what}: kept caches`);
  assert.ok((await cachedURLs(page)).every((u) => !u.startsWith("/api")), `${what}: no API answer in Cache Storage`);
}

/** Another member logs in on the same browser: the choice is off, and without a network nothing of the trips shows. */
async function anotherMemberSeesNone(context, page, user) {
  const base = env.server.url;
  await signIn(page, base, user);
  await page.goto(`${base}/bookings?lang=en`);
  const box = page.getByRole("checkbox", { name: KEEP.en });
  await box.waitFor();
  assert.equal(await box.isChecked(), false);
  assert.equal(await keptRecord(page), null);
  await context.setOffline(true);
  await page.goto(`${base}/?lang=en`);
  await page.locator(".offline__notice").waitFor();
  for (const pnr of KEPT) assert.equal(await page.getByText(pnr).count(), 0, pnr);
  await context.setOffline(false);
}

async function switchOn(page, lang) {
  const box = page.getByRole("checkbox", { name: KEEP[lang] });
  await box.waitFor();
  assert.equal(await box.isChecked(), false, "off by default");
  await box.check();
  await page.getByText(SAVED[lang]).first().waitFor();
}

test("installable: a valid manifest in the member's language, the brand's icons, and the service worker controls the page", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  const base = env.server.url;
  // A visitor's first load registers nothing (the login page's budget): a member's page does.
  await page.goto(`${base}/login?lang=en`);
  await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
  await page.waitForLoadState("networkidle");
  assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0, "no worker for a visitor's first load");
  await signIn(page, base);
  for (const [lang, name, shortName] of [["th", "Peach Members", "Peach สมาชิก"], ["jp", "Peach メンバーズ", "Peachメンバーズ"]]) {
    await page.goto(`${base}/?lang=${lang}`);
    await controlled(page);
    // the page names its language's manifest once the language is applied
    await page.waitForFunction((l) => document.querySelector('link[rel="manifest"]')?.getAttribute("href") === `/manifest-${l}.webmanifest`, lang, { timeout: 10_000 }).catch(() => {});
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    assert.equal(href, `/manifest-${lang}.webmanifest`);
    const res = await page.request.get(`${base}${href}`);
    assert.equal(res.status(), 200);
    assert.match(res.headers()["content-type"], /^application\/manifest\+json/);
    const m = await res.json();
    assert.equal(m.name, name);
    assert.equal(m.short_name, shortName);
    assert.equal(m.start_url, "/");
    assert.equal(m.display, "standalone");
    assert.equal(m.theme_color, "#a3186b");
    for (const [size, purpose] of [["192x192", "any"], ["512x512", "any"], ["512x512", "maskable"]]) {
      const icon = m.icons.find((i) => i.sizes === size && i.purpose === purpose);
      assert.ok(icon, `${size} ${purpose} icon`);
      const png = await page.request.get(`${base}${icon.src}`);
      assert.equal(png.status(), 200);
      const b = await png.body();
      assert.equal(b.subarray(1, 4).toString(), "PNG");
      assert.equal(`${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`, size, icon.src);
    }
  }
  // Chromium's own check of the install criteria.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  assert.deepEqual(installabilityErrors, [], JSON.stringify(installabilityErrors));
  const sw = await page.request.get(`${base}/sw.js`);
  assert.equal(sw.headers()["cache-control"], "no-cache", "the worker is revalidated, never immutable");
  await context.close();
});

for (const lang of ["en", "jp", "th"]) {
  test(`with the choice on, the next trips without a network at 375 px (${lang}), and refreshed when the network returns`, async () => {
    const { context, page, base } = await bookingsPage(VIEWPORTS.phone, lang);
    await switchOn(page, lang);
    const kept = await keptRecord(page);
    assert.deepEqual(kept.trips.map((t) => t.pnr).sort(), KEPT);
    // Only what the trip needs: nothing of payment, points or PINs.
    const json = JSON.stringify(kept.trips);
    for (const word of ["amount", "currency", "card", "pin", "point", "payment", "email", "bookingDate"]) assert.ok(!json.toLowerCase().includes(`"${word.toLowerCase()}`), `kept ${word}`);
    for (const pnr of KEPT) assert.equal(kept.itineraries[pnr]?.type, "application/pdf", `${pnr} itinerary`);
    assert.ok((await cachedURLs(page)).every((u) => !u.startsWith("/api")), "no API answer in Cache Storage");

    const dialogs = [];
    page.on("dialog", (d) => dialogs.push(d.message()));
    await context.setOffline(true);
    for (const path of ["/", "/bookings"]) {
      await page.goto(`${base}${path}?lang=${lang}`);
      await page.getByText(SAVED[lang]).waitFor();
      for (const pnr of KEPT) await page.locator(`[data-pnr="${pnr}"]`).waitFor();
      for (const pnr of NOT_KEPT) assert.equal(await page.getByText(pnr).count(), 0, `${pnr} is not kept`);
      await page.waitForTimeout(300);
      assert.equal(await page.locator('[role="dialog"], [role="alertdialog"]').count(), 0, `${path}: no dialog offline`);
      assert.equal(await page.locator(".toast, [role='alert']").count(), 0, `${path}: no error toast offline`);
      // Nothing that needs the server is a control: no menu, no logout; the buttons are the kept itineraries'.
      assert.equal(await page.locator("nav").count(), 0, "no member menu");
      assert.equal(await page.locator("main button").count(), 0, "no button");
      assert.equal(await page.locator("main a[download]").count(), KEPT.length, "each kept itinerary");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path}: ${overflow}px wider than the phone`);
      await screenshot(page, `offline-${path === "/" ? "home" : "bookings"}-${lang}-phone`);
    }
    // The itinerary opens from the device.
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator(`[data-pnr="TPE3XY"] a[download]`).click()]);
    assert.equal(download.suggestedFilename(), "itinerary-TPE3XY.pdf");
    assert.equal((await downloadText(download)).slice(0, 5), "%PDF-");
    // Another page says it needs a connection.
    await page.goto(`${base}/points?lang=${lang}`);
    await page.locator(".offline__notice").waitFor();
    await screenshot(page, `offline-points-${lang}-phone`);
    assert.deepEqual(dialogs, []);

    // Back online: the page is the bookings page again, and the kept copy is brought up to date.
    await page.goto(`${base}/bookings?lang=${lang}`);
    await page.getByText(SAVED[lang]).waitFor();
    const before = (await keptRecord(page)).savedAt;
    await context.setOffline(false);
    await page.locator("#booking-search-title").waitFor();
    await page.waitForFunction(async (b) => {
      const db = await new Promise((res) => { const r = indexedDB.open("members-kept"); r.onsuccess = () => res(r.result); });
      const v = await new Promise((res) => { const r = db.transaction("kept").objectStore("kept").get("trips"); r.onsuccess = () => res(r.result); });
      db.close();
      return v && v.savedAt > b;
    }, before);
    assert.equal(await page.locator('[role="dialog"]').count(), 0, "no dialog after the reconnection");
    await context.close();
  });
}

const SAVED_TRIPS = { en: "Your saved trips", jp: "保存した旅程", th: "ทริปที่บันทึกไว้" };

for (const lang of ["en", "jp", "th"]) {
  test(`a session that ran out keeps the kept trips: the login page offers them, offline shows them, and the choice stays on after logging in (375 px, ${lang})`, async () => {
    const { context, page, base } = await bookingsPage(VIEWPORTS.phone, lang);
    await switchOn(page, lang);
    // The member leaves for more than the idle limit.
    await advanceServerClock(env.server, 31 * 60);
    // The sync's own question: why the session is gone (asked once the page finds it gone).
    const asked = page.waitForResponse((r) => r.url().includes("/api/session/info") && r.request().frame() === page.mainFrame(), { timeout: 30000 });
    await page.goto(`${base}/bookings?lang=${lang}`);
    await page.waitForURL((u) => u.pathname === "/login");
    await asked;
    const link = page.getByTestId("login-saved-trips");
    await link.waitFor();
    const text = await link.textContent();
    assert.ok(text.includes(SAVED_TRIPS[lang]), text);
    assert.match(text, /\d\d:\d\d \(UTC[+-]\d\d:\d\d\)/, "last updated, with its zone");
    assert.equal(await page.evaluate(() => localStorage.getItem("members.keptTrips")), "1", "the choice is still on");
    assert.ok(await keptRecord(page), "the copy is kept");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `login page: ${overflow}px wider than the phone`);
    await screenshot(page, `login-saved-trips-${lang}-phone`);
    // The link shows them online, without a session.
    await link.getByRole("link").click();
    await page.waitForURL((u) => u.pathname === "/saved-trips");
    for (const pnr of KEPT) await page.locator(`[data-pnr="${pnr}"]`).waitFor();
    // Offline at the gate: still there.
    await context.setOffline(true);
    await page.goto(`${base}/?lang=${lang}`);
    for (const pnr of KEPT) await page.locator(`[data-pnr="${pnr}"]`).waitFor();
    await context.setOffline(false);
    // Logged in again: the choice is on.
    await signIn(page, base, DEMO, lang);
    await page.goto(`${base}/bookings?lang=${lang}`);
    const box = page.getByRole("checkbox", { name: KEEP[lang] });
    await box.waitFor();
    assert.equal(await box.isChecked(), true, "the choice stays on");
    assert.ok(await keptRecord(page));
    await context.close();
  });
}

const NARROW = { width: 320, height: 700 };
const LOG_IN = { en: "Log in", jp: "ログイン", th: "เข้าสู่ระบบ" };

/** The page is no wider than its viewport, and the product's name in the header breaks only between its words. */
async function assertFits(page, where) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${where}: ${overflow}px wider than the screen`);
  const broken = await page.evaluate(() => {
    const text = document.querySelector(".header__title")?.firstChild;
    if (!text) return ["no title"];
    const out = [];
    for (const m of text.textContent.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) out.push(m[0]);
    }
    return out;
  });
  assert.deepEqual(broken, [], `${where}: the product's name broken inside a word`);
}

for (const lang of ["en", "jp", "th"]) {
  test(`the login page's "Your saved trips" link leads to the kept trips, and offline shows them, at 320 and 1280 px (${lang})`, async () => {
    const { context, page, base } = await bookingsPage(NARROW, lang);
    await switchOn(page, lang);
    await advanceServerClock(env.server, 31 * 60);
    await page.goto(`${base}/bookings?lang=${lang}`);
    await page.waitForURL((u) => u.pathname === "/login");
    const link = page.getByTestId("login-saved-trips").getByRole("link");
    await link.waitFor();
    assert.ok((await link.textContent()).includes(SAVED_TRIPS[lang]));
    for (const [size, viewport] of [["320", NARROW], ["desktop", VIEWPORTS.desktop]]) {
      await page.setViewportSize(viewport);
      await assertFits(page, `login page at ${size}`);
      await screenshot(page, `login-saved-trips-${lang}-${size}`);
    }
    // Followed: the kept trips, with no session, asking the server nothing.
    await page.setViewportSize(NARROW);
    const asked = [];
    page.on("request", (r) => { if (new URL(r.url()).pathname.startsWith("/api/")) asked.push(r.url()); });
    await link.click();
    await page.waitForURL((u) => u.pathname === "/saved-trips");
    for (const pnr of KEPT) await page.locator(`[data-pnr="${pnr}"]`).waitFor();
    for (const pnr of NOT_KEPT) assert.equal(await page.locator(`[data-pnr="${pnr}"]`).count(), 0, `${pnr} is not kept`);
    await page.getByText(SAVED[lang]).waitFor();
    assert.deepEqual(asked.filter((u) => !u.includes("/api/session/info")), [], "the saved trips ask the server nothing but the session check");
    for (const [size, viewport] of [["320", NARROW], ["desktop", VIEWPORTS.desktop]]) {
      await page.setViewportSize(viewport);
      await assertFits(page, `/saved-trips at ${size}`);
      await screenshot(page, `saved-trips-${lang}-${size}`);
    }
    // The way back to the login page (online only: offline, nothing needs the server).
    await page.getByRole("link", { name: LOG_IN[lang], exact: true }).waitFor();
    // Offline: the same trips on home, and another page's notice.
    await context.setOffline(true);
    for (const [size, viewport] of [["320", NARROW], ["desktop", VIEWPORTS.desktop]]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/?lang=${lang}`);
      for (const pnr of KEPT) await page.locator(`[data-pnr="${pnr}"]`).waitFor();
      assert.equal(await page.locator(".offline__login").count(), 0, "no login link offline");
      await assertFits(page, `offline home at ${size}`);
      await screenshot(page, `offline-home-${lang}-${size}`);
      await page.goto(`${base}/points?lang=${lang}`);
      await page.locator(".offline__notice").waitFor();
      await assertFits(page, `offline /points at ${size}`);
      await screenshot(page, `offline-points-${lang}-${size}`);
    }
    await context.setOffline(false);
    // Online again, /saved-trips leads back to the login page.
    await page.goto(`${base}/saved-trips?lang=${lang}`);
    await page.getByRole("link", { name: LOG_IN[lang], exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByTestId("login-saved-trips").waitFor();
    await context.close();
  });
}

const NOT_ANSWERING = {
  en: "The connection is not answering",
  jp: "通信が応答していません",
  th: "การเชื่อมต่อไม่ตอบสนอง",
};

for (const lang of ["en", "jp", "th"]) {
  test(`a signal that does not answer (requests fail, then hang; the phone says it is online) shows the kept trips, saying so, never the login form (375 px, ${lang})`, async () => {
    const { context, page, base } = await bookingsPage(VIEWPORTS.phone, lang);
    await switchOn(page, lang);
    const shown = async (what) => {
      await page.getByTestId("not-answering").waitFor({ timeout: 60000 });
      assert.ok((await page.getByTestId("not-answering").textContent()).includes(NOT_ANSWERING[lang]), what);
      for (const pnr of KEPT) await page.locator(`[data-pnr="${pnr}"]`).waitFor();
      assert.equal(await page.evaluate(() => navigator.onLine), true, "the phone says it is online");
      assert.equal(await page.locator('input[type="password"]').count(), 0, `${what}: no login form`);
      assert.ok(!new URL(page.url()).pathname.startsWith("/login"), `${what}: not sent to the login page`);
      assert.equal(await page.locator(".toast, [role='alert']").count(), 0, `${what}: no error`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${what}: ${overflow}px wider than the phone`);
    };
    // Requests fail at the network level (a captive portal refusing them).
    await context.route("**/api/**", (route) => route.abort("failed"));
    await page.goto(`${base}/bookings?lang=${lang}`);
    await shown("failing requests");
    await screenshot(page, `not-answering-${lang}-phone`);
    // Requests get no answer at all (one bar): within a few seconds, the same.
    await context.unroute("**/api/**");
    await context.route("**/api/**", () => {});
    await page.goto(`${base}/?lang=${lang}`);
    await shown("hanging requests");
    await context.unroute("**/api/**");
    // The kept copy is untouched.
    assert.ok(await keptRecord(page));
    await context.close();
  });
}

test("without the choice, the offline notice only", async () => {
  const { context, page, base } = await bookingsPage(VIEWPORTS.phone);
  await page.getByRole("checkbox", { name: KEEP.en }).waitFor();
  await context.setOffline(true);
  await page.goto(`${base}/?lang=en`);
  await page.locator(".offline__notice").waitFor();
  assert.match(await page.locator(".offline__notice").textContent(), /not kept on this device/);
  assert.equal(await page.locator(".reservation").count(), 0);
  assert.equal(await keptRecord(page), null);
  await screenshot(page, "offline-notice-en-phone");
  await context.close();
});

test("switching off and logging out erase the kept trips, and another member logging in sees none", async () => {
  const { context, page, base } = await bookingsPage(VIEWPORTS.desktop);
  await switchOn(page, "en");
  assert.ok(await keptRecord(page));

  // Switching off erases at once: IndexedDB, the flag, and no API answer in Cache Storage.
  await page.getByRole("checkbox", { name: KEEP.en }).uncheck();
  await page.waitForFunction(() => localStorage.getItem("members.keptTrips") === null);
  assert.equal(await keptRecord(page), null);
  assert.ok((await cachedURLs(page)).every((u) => !u.startsWith("/api")));

  // On again, then the logout erases.
  await page.getByRole("checkbox", { name: KEEP.en }).check();
  await page.getByText(SAVED.en).waitFor();
  assert.ok(await keptRecord(page));
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((u) => u.pathname === "/login");
  assert.equal(await keptRecord(page), null);
  assert.equal(await page.evaluate(() => localStorage.getItem("members.keptTrips")), null);

  // Member 1 keeps them again; member 2 logs in on the same browser: erased before anything shows.
  await signIn(page, base);
  await page.goto(`${base}/bookings?lang=en`);
  await switchOn(page, "en");
  await signIn(page, base, DEMO2);
  await page.goto(`${base}/bookings?lang=en`);
  await page.getByRole("checkbox", { name: KEEP.en }).waitFor();
  await page.waitForFunction(() => localStorage.getItem("members.keptTrips") === null);
  assert.equal(await keptRecord(page), null);
  assert.equal(await page.getByRole("checkbox", { name: KEEP.en }).isChecked(), false);
  await context.setOffline(true);
  await page.goto(`${base}/?lang=en`);
  await page.locator(".offline__notice").waitFor();
  assert.equal(await page.getByText("HNK7Q2").count(), 0);
  await context.close();
});

test("a new release is announced: Reload to update", async () => {
  // A proxy in front of the server serves the worker of "the next release" (one more line) once asked to.
  let release = 1;
  const target = new URL(env.server.url);
  const proxy = http.createServer((req, res) => {
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host, "accept-encoding": "identity" } }, (r) => {
      if (req.url.startsWith("/sw.js") && release > 1) {
        const chunks = [];
        r.on("data", (c) => chunks.push(c));
        r.on("end", () => {
          const body = Buffer.concat([...chunks, Buffer.from(`\n// release ${release}\n`)]);
          res.writeHead(r.statusCode, { ...r.headers, "content-length": body.length });
          res.end(body);
        });
        return;
      }
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${proxy.address().port}`;
  try {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, base);
    await page.goto(`${base}/?lang=en`);
    await controlled(page);
    // Installed, the worker is registered on the login page too: a new release is found there.
    await page.request.delete(`${base}/api/session`, { headers: { "X-Csrf-Token": (await (await page.request.get(`${base}/api/csrf_token`)).json()).csrfToken } });
    await page.goto(`${base}/login?lang=en`);
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    assert.equal(await page.getByText("Reload to update").count(), 0);
    release = 2;
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await page.getByRole("button", { name: "Reload to update" }).waitFor();
    assert.equal(await page.getByRole("status").filter({ hasText: "A new release is ready." }).count(), 1);
    await screenshot(page, "release-banner-en-phone");
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Reload to update" }).click()]);
    await page.waitForFunction(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return r && !r.waiting && !!navigator.serviceWorker.controller;
    });
    assert.equal(await page.getByText("Reload to update").count(), 0);
    await context.close();
  } finally {
    proxy.close();
  }
});

test("a password change on this device erases the kept trips, and another member logging in sees none", async () => {
  const { context, page, base } = await bookingsPage(VIEWPORTS.phone);
  await switchOn(page, "en");
  assert.ok(await keptRecord(page));
  await page.goto(`${base}/account?lang=en`);
  const changed = "Newpass99";
  await page.locator("input[name='passwordOld']").fill(DEMO.password);
  await page.locator("input[name='passwordNew']").fill(changed);
  await page.locator("input[name='passwordReenter']").fill(changed);
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/user/password") && r.request().method() === "PUT");
  await page.getByRole("button", { name: /^Change password$/ }).first().click();
  assert.equal((await answered).headers()["x-status"] ?? "200", "200");
  await assertErased(page, "password change");
  // The demo member's password back, for the tests after this one.
  const back = await apiCall(page, base, "PUT", "/api/user/password", { passwordOld: changed, passwordNew: DEMO.password, passwordReenter: DEMO.password });
  assert.ok(back.status < 300, `password back: ${back.status} ${back.text}`);
  await anotherMemberSeesNone(context, page, DEMO2);
  await context.close();
});

test("signing out everywhere erases the kept trips at the device's next connection, and another member logging in sees none", async () => {
  const { context, page, base } = await bookingsPage(VIEWPORTS.phone);
  await switchOn(page, "en");
  // Another device of the same member ends every other session ("End all other sessions").
  const other = await env.newPage(VIEWPORTS.phone);
  await signIn(other.page, base);
  assert.equal((await apiCall(other.page, base, "DELETE", "/api/security/sessions")).status, 204);
  await other.context.close();
  // Without a network the copy stays (nothing said the session ended); at the next connection it goes.
  await context.setOffline(true);
  await page.goto(`${base}/bookings?lang=en`);
  await page.getByText(SAVED.en).first().waitFor();
  assert.ok(await keptRecord(page));
  await context.setOffline(false);
  await page.goto(`${base}/bookings?lang=en`);
  await page.waitForURL((u) => u.pathname === "/login");
  await assertErased(page, "sign out everywhere");
  await anotherMemberSeesNone(context, page, DEMO2);
  await context.close();
});

test("an erasure a closed page left unfinished is finished by the next page", async () => {
  const { context, page, base } = await bookingsPage(VIEWPORTS.phone);
  await switchOn(page, "en");
  // the page went away between the start of an erasure and its end: the copy is still there
  await page.evaluate(() => localStorage.setItem("members.keptTrips.erasing", "1"));
  assert.ok(await keptRecord(page));
  await page.goto(`${base}/?lang=en`);
  await assertErased(page, "unfinished erasure");
  assert.equal(await page.evaluate(() => localStorage.getItem("members.keptTrips.erasing")), null);
  await context.close();
});

test("deleting the account on this device erases the kept trips, and another member logging in sees none", async () => {
  const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
  const { context, page, base } = await bookingsPage(VIEWPORTS.phone, "en", DEMO2);
  await switchOn(page, "en");
  assert.ok(await keptRecord(page));
  // The deletion as the member does it: the password, the mailed link, every loss ticked.
  await page.goto(`${base}/your-data?lang=en`);
  const zone = page.getByRole("region", { name: "Delete your account" });
  await zone.getByLabel(/Current password/).fill(DEMO2.password);
  await zone.getByRole("button", { name: "Send me the confirmation link" }).click();
  await zone.getByText(/We sent a confirmation link/).waitFor();
  const list = execFileSync(bin, ["mail", "list", "--db", env.server.dsn], { encoding: "utf8" });
  const row = list.split("\n").find((l) => l.includes("account_deletion") && l.includes(DEMO2.email));
  assert.ok(row, list);
  const mail = execFileSync(bin, ["mail", "show", "--db", env.server.dsn, row.split(/\s+/)[0]], { encoding: "utf8" });
  const link = mail.match(/https?:\/\/\S+\/delete-account\/[A-Za-z0-9_-]+\?lang=[a-z]{2}/);
  assert.ok(link, mail);
  await page.goto(link[0].replace(/^https?:\/\/[^/]+/, base).replace(/lang=[a-z]{2}/, "lang=en"));
  const boxes = page.getByRole("group", { name: "What you will lose" }).getByRole("checkbox");
  await boxes.first().waitFor();
  for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
  await page.getByRole("button", { name: "Delete my account permanently" }).click();
  await page.waitForURL((u) => u.pathname === "/account-deleted");
  await assertErased(page, "account deletion");
  await anotherMemberSeesNone(context, page, DEMO);
  await context.close();
});
