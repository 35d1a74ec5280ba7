/* global document */
// Conformance end to end: the bookings page as members use it,
// dates and names per language, the brand, the chrome on every page, and
// screenshots in en, jp and th at 375 and 1280 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });

async function memberPage(viewport = VIEWPORTS.desktop, lang = "en") {
  const { context, page } = await env.newPage(viewport);
  await signIn(page, env.server.url, undefined, lang);
  return { context, page };
}

const LANGS = ["en", "jp", "th"];

test("a date typed with the keyboard into a 'to' field stays, and one before its 'from' is cleared with the reason", async () => {
  const { context, page } = await memberPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.getByRole("article").first().waitFor();
  const from = page.getByLabel("Departing from");
  const to = page.getByLabel("Departing to");
  await from.fill("3/10/2026");
  await page.keyboard.press("Tab");
  assert.equal(await from.inputValue(), "Mar 10, 2026");
  // Typed key by key, the English way (month first), whatever the browser's locale.
  await to.click();
  await page.keyboard.type("4/20/2026", { delay: 30 });
  assert.equal(await to.inputValue(), "4/20/2026", "typing a whole date keeps it");
  await page.keyboard.press("Tab");
  assert.equal(await to.inputValue(), "Apr 20, 2026", "the date is written the page's way once left");
  await to.fill("");
  await to.click();
  await page.keyboard.type("3/1/2026", { delay: 30 });
  assert.equal(await to.inputValue(), "3/1/2026", "nothing is cleared while typing");
  // Leaving the field (a click elsewhere) applies the rule.
  await page.getByRole("heading", { level: 1 }).click();
  assert.equal(await to.inputValue(), "", "a to-date before its from-date is cleared when the field is left");
  await page.getByText("Cleared: this date was before the start date.").waitFor();
  await context.close();
});

test("date fields show and read the member's language's format (en, jp, th), typed with the keyboard, sent as ISO", async () => {
  const cases = [
    // lang, label of "Booked from", typed, shown afterwards
    ["en", /^Booked from/, "10/1/2026", "Oct 1, 2026"],
    ["jp", /予約日（開始）/, "2026年10月1日", "2026年10月1日"],
    ["jp", /予約日（開始）/, "２０２６/１０/１", "2026年10月1日"],
    ["th", /วันที่จอง \(ตั้งแต่\)/, "1/10/2569", "1 ต.ค. 2569"],
  ];
  for (const [lang, label, typed, shown] of cases) {
    const { context, page } = await memberPage(VIEWPORTS.desktop, lang);
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    await page.getByRole("search").waitFor();
    const from = page.getByLabel(label);
    // The default (180 days ago) is already written the language's way.
    const initial = await from.inputValue();
    assert.ok(!/^\d{4}-\d{2}-\d{2}$/.test(initial) && initial !== "", `${lang}: default shown as ${initial}`);
    await from.fill("");
    await from.click();
    await page.keyboard.type(typed, { delay: 20 });
    await page.keyboard.press("Tab");
    assert.equal(await from.inputValue(), shown, `${lang}: ${typed}`);
    const request = page.waitForRequest((r) => r.url().includes("/api/reservations?") && r.url().includes("bookingDateFrom=2026-10-01"));
    await page.getByRole("search").locator("button[type=submit]").click();
    await request;
    await screenshot(page, `date-field-${lang}`);
    await context.close();
  }
});

test("five bookings fit in far less height; 'Add a booking' is in the first screen; the receipt asks its addressee only when requested", async () => {
  for (const [name, viewport, limit] of [["desktop", VIEWPORTS.desktop, 3000], ["phone", VIEWPORTS.phone, 5200]]) {
    const { context, page } = await memberPage(viewport);
    await page.goto(`${env.server.url}/bookings?lang=en`);
    await page.getByText("5 bookings found").waitFor();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < limit, `${name}: the page is ${height} px high (was 3,880 / 6,050)`);
    const add = await page.getByRole("button", { name: "Add a booking" }).boundingBox();
    assert.ok(add && add.y + add.height <= viewport.height, `${name}: "Add a booking" is visible without scrolling`);
    const card = page.getByRole("article", { name: /TPE3XY/ });
    assert.equal(await card.getByLabel("Addressee for the receipt").count(), 0);
    await card.getByRole("button", { name: "Receipt (PDF)" }).click();
    await card.getByLabel("Addressee for the receipt").fill("Yamada <Corp>");
    await card.getByRole("button", { name: /Open receipt/ }).click();
    await card.getByText("The addressee must not contain").waitFor();
    await context.close();
  }
});

test("no 'Change booking' for a booking already flown", async () => {
  const { context, page } = await memberPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.getByText("5 bookings found").waitFor();
  assert.equal(await page.getByRole("article", { name: /HNK7Q2/ }).getByRole("button", { name: "Change booking" }).count(), 1);
  await page.getByLabel("All bookings").check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const flown = page.getByRole("article", { name: /SIN8AB/ });
  await flown.waitFor();
  await flown.getByText("Flown").first().waitFor();
  assert.equal(await flown.getByRole("button", { name: "Change booking" }).count(), 0);
  await context.close();
});

test("Thai and Japanese airport names and terminals never break inside a word", async () => {
  for (const lang of ["th", "jp"]) {
    const { context, page } = await memberPage(VIEWPORTS.phone, lang);
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    await page.getByRole("article").first().waitFor();
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll(".flight .nowrap")]
        .filter((el) => {
          const r = document.createRange();
          r.selectNodeContents(el);
          const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
          return tops.size > 1;
        })
        .map((el) => el.textContent),
    );
    assert.deepEqual(broken, [], `${lang}: words split over lines`);
    await context.close();
  }
});

test("the Thai page and the Thai PDF write the same date with the Buddhist-era year; airports are in Thai", async () => {
  const { context, page } = await memberPage(VIEWPORTS.desktop, "th");
  await page.goto(`${env.server.url}/bookings?lang=th`);
  const card = page.getByRole("article", { name: /HNK7Q2/ });
  await card.waitFor();
  const meta = await card.locator(".reservation__meta").innerText();
  const date = meta.match(/\d{1,2} \S+ 25\d\d/)?.[0];
  assert.ok(date, `a Thai date in "${meta}"`);
  assert.match(await card.innerText(), /โอซาก้า/);
  const res = await page.request.get(`${env.server.url}/api/reservations/HNK7Q2/itinerary?lang=th`);
  assert.equal(res.status(), 200);
  const file = path.join(env.server.dir, "itinerary-th.pdf");
  writeFileSync(file, await res.body());
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  assert.ok(text.includes(date), `the PDF writes ${date} too`);
  assert.match(text, /Peach Aviation/);
  await context.close();
});

test("the brand names the header and each tab in the member's language; the logo leads home", async () => {
  const { context, page } = await memberPage(VIEWPORTS.desktop, "jp");
  await page.goto(`${env.server.url}/bookings?lang=jp`);
  await page.getByRole("heading", { level: 1, name: "予約管理" }).waitFor();
  assert.equal(await page.title(), "予約管理 | Peach メンバーズ");
  // One name per page: the menu says the same as the heading.
  await page.getByRole("navigation").getByText("予約管理").waitFor();
  await page.locator(".header__brand").click();
  await page.waitForURL((u) => u.pathname === "/");
  await context.close();
});

test("a logged-in member's 404 keeps the menu; logout says 'Logged out.'", async () => {
  const { context, page } = await memberPage();
  await page.goto(`${env.server.url}/no-such-page?lang=en`);
  await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
  await page.getByRole("navigation", { name: "Main menu" }).waitFor();
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((u) => u.pathname === "/login");
  await page.getByText("Logged out.").waitFor();
  await context.close();
});

test("the reset-password pages lead back to login", async () => {
  const { context, page } = await env.newPage();
  await page.goto(`${env.server.url}/reset-password?lang=en`);
  await page.getByRole("link", { name: "Back to login" }).click();
  await page.waitForURL((u) => u.pathname === "/login");
  await page.goto(`${env.server.url}/reset-password/invalid?lang=en`);
  await page.getByRole("link", { name: "Back to login" }).waitFor();
  await context.close();
});

test("a content delivery network's 403 page replaces the app", async () => {
  const { context, page } = await memberPage();
  await page.route("**/api/topic_banner", (route) =>
    route.fulfill({ status: 403, contentType: "text/html", body: "<!doctype html><title>Blocked</title><h1>Request blocked by the CDN</h1>" }),
  );
  await page.goto(`${env.server.url}/?lang=en`);
  await page.getByRole("heading", { name: "Request blocked by the CDN" }).waitFor();
  assert.equal(await page.locator("#root").count(), 0, "the app is gone");
  await context.close();
});

test("screenshots in en, jp and th at 375 and 1280 px", async () => {
  for (const lang of LANGS) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const anon = await env.newPage(viewport);
      await anon.page.goto(`${env.server.url}/login?lang=${lang}`);
      await anon.page.locator("form").first().waitFor();
      await screenshot(anon.page, `conform-login-${lang}-${name}`);
      await anon.page.goto(`${env.server.url}/reset-password?lang=${lang}`);
      await anon.page.locator("form").first().waitFor();
      await screenshot(anon.page, `conform-reset-${lang}-${name}`);
      await anon.context.close();

      const { context, page } = await memberPage(viewport, lang);
      for (const [route, shot] of [["/", "home"], ["/bookings", "bookings"], ["/account", "account"], ["/passengers", "passengers"]]) {
        await page.goto(`${env.server.url}${route}?lang=${lang}`);
        await page.locator("h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        await screenshot(page, `conform-${shot}-${lang}-${name}`);
      }
      await context.close();
    }
  }
});
