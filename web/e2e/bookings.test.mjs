// Bookings end to end: search, paging, adding a booking, documents.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { e2eSuite, signIn, screenshot, VIEWPORTS, DEMO, DEMO2 } from "./harness.mjs";

const env = e2eSuite({ before, after });

async function newPage(viewport = VIEWPORTS.desktop, user = DEMO, lang = "en") {
  const { context, page } = await env.newPage(viewport);
  await signIn(page, env.server.url, user, lang);
  return { context, page };
}

const results = (page) => page.locator("section[aria-labelledby='booking-results-title']");

test("search: upcoming bookings by default, all bookings on request, irregular flights marked", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await results(page).getByRole("status").first().waitFor();
  await page.getByText("HNK7Q2").first().waitFor();
  // Only future flights with the default (ACTIVE) search.
  assert.equal(await page.getByText("SIN8AB").count(), 0, "a flown booking is not upcoming");
  await page.getByText("Delayed (not yet departed)").first().waitFor();
  await page.getByText("Cancelled", { exact: true }).first().waitFor();

  await page.getByLabel("All bookings").check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("SIN8AB").first().waitFor();
  await screenshot(page, "bookings-desktop");
  // Another member's booking never shows.
  assert.equal(await page.getByText("KIM1AA").count(), 0);
  await context.close();
});

test("search rules: a booking date in the future is refused with the spec's message", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.getByLabel("Booked to").fill("2099-01-01");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("Select a past date.").first().waitFor();
  await page.getByLabel("Booked from").fill("2011-06-01");
  await page.getByLabel("Booked to").fill("2026-01-01");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("Select a date after 2012.").first().waitFor();
  // A to-date before its from-date is cleared once the field is left, with the reason.
  await page.getByLabel("Booked to").fill("2011-01-01");
  await page.getByLabel("Booked to").blur();
  assert.equal(await page.getByLabel("Booked to").inputValue(), "");
  await page.getByText("Cleared: this date was before the start date.").waitFor();
  await context.close();
});

test("paging moves through the results with the last condition", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.getByLabel("All bookings").check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const pager = page.getByRole("navigation", { name: "Result pages" });
  await pager.getByText("Page 1 of 2").waitFor();
  const firstPage = await page.locator("article h3, article h2").allInnerTexts();
  await pager.getByRole("button", { name: "Next page" }).click();
  await pager.getByText("Page 2 of 2").waitFor();
  const secondPage = await page.locator("article h3, article h2").allInnerTexts();
  assert.ok(secondPage.length > 0 && secondPage.every((h) => !firstPage.includes(h)), "page 2 shows other bookings");
  // The condition (all bookings, ascending) holds on both pages: the trips
  // to come first, nearest first (the delayed TPE3XY in 3 days), then the
  // flown ones, latest first.
  assert.match(firstPage[0], /TPE3XY/, firstPage.join(", "));
  assert.ok(firstPage.some((h) => /HNK7Q2/.test(h)), firstPage.join(", "));
  assert.ok(secondPage.some((h) => /HIS/.test(h)) && !secondPage.some((h) => /HNK7Q2|TPE3XY|CTS4EF/.test(h)), secondPage.join(", "));
  await screenshot(page, "bookings-page2-desktop");
  await context.close();
});

test("add a booking by booking number and last name", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.getByRole("button", { name: "Add a booking" }).click();
  const form = page.getByRole("form", { name: "Add a booking" });
  await form.getByLabel("Booking number").fill("ADD7YM");
  await form.getByLabel(/Passenger's last name/).fill("Wrong");
  await form.getByRole("button", { name: "Add booking" }).click();
  await form.getByRole("alert").waitFor();
  await form.getByLabel(/Passenger's last name/).fill("Yamada");
  await form.getByRole("button", { name: "Add booking" }).click();
  await form.getByText("Booking ADD7YM was added to your account.").waitFor();
  await context.close();
  // Nobody else can add it now, and the answer does not tell whose it is.
  const other = await newPage(VIEWPORTS.desktop, DEMO2);
  await other.page.goto(`${env.server.url}/bookings?lang=en`);
  await other.page.getByRole("button", { name: "Add a booking" }).click();
  const f2 = other.page.getByRole("form", { name: "Add a booking" });
  await f2.getByLabel("Booking number").fill("ADD7YM");
  await f2.getByLabel(/Passenger's last name/).fill("Yamada");
  await f2.getByRole("button", { name: "Add booking" }).click();
  const msg = await f2.getByRole("alert").innerText();
  assert.doesNotMatch(msg, /Yamada|demo@/i);
  await other.context.close();
});

test("the itinerary PDF downloads with the booking number inside", async () => {
  const { context, page } = await newPage(VIEWPORTS.desktop, DEMO, "jp");
  await page.goto(`${env.server.url}/bookings?lang=jp`);
  const link = page.locator("a[href*='/api/reservations/HNK7Q2/itinerary']").first();
  await link.waitFor();
  const res = await page.request.get(new URL(await link.getAttribute("href"), env.server.url).toString(), { headers: { "X-Lang": "jp" } });
  assert.equal(res.status(), 200);
  assert.match(res.headers()["content-type"], /application\/pdf/);
  const file = path.join(env.server.dir, "itinerary.pdf");
  writeFileSync(file, await res.body());
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
  assert.match(text, /HNK7Q2/);
  // Another member's booking: 404.
  const other = await page.request.get(`${env.server.url}/api/reservations/KIM1AA/itinerary`);
  assert.equal(other.status(), 404);
  await context.close();
});

test("screenshots of bookings and home at 375 px and 1280 px", async () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const { context, page } = await newPage(viewport);
    await page.goto(`${env.server.url}/?lang=en`);
    await page.getByText("HNK7Q2").first().waitFor();
    await screenshot(page, `home-bookings-${name}`);
    await page.goto(`${env.server.url}/bookings?lang=en`);
    await page.getByText("HNK7Q2").first().waitFor();
    await screenshot(page, `bookings-${name}`);
    await context.close();
  }
});

test("on a phone the search's dates show whole in every language, however long the language writes them", async () => {
  for (const lang of ["jp", "kr", "th", "en"]) {
    const { context, page } = await newPage(VIEWPORTS.phone, DEMO, lang);
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    await results(page).getByRole("status").first().waitFor();
    const fields = page.locator("form .date-field input.field__input");
    assert.equal(await fields.count(), 4);
    // A text input's scrollWidth passes its clientWidth when its text (or placeholder) is cut off.
    const clipped = await fields.evaluateAll((inputs) =>
      inputs.filter((i) => i.scrollWidth > i.clientWidth).map((i) => `${i.value || i.placeholder} (${i.scrollWidth} > ${i.clientWidth} px)`),
    );
    assert.deepEqual(clipped, [], `${lang}: date fields cut off at 375 px`);
    await context.close();
  }
});

test("the search is in the address: Back returns to the previous search, a reload keeps it", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.getByText("HNK7Q2").first().waitFor();
  // First search: all bookings (a flown one shows).
  await page.getByLabel("All bookings").check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("status") === "all");
  await page.getByText("SIN8AB").first().waitFor();
  // Second search: one booking number.
  await page.getByRole("search").getByLabel("Booking number").fill("HNK7Q2");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.get("pnr") === "HNK7Q2");
  await results(page).getByRole("status").filter({ hasText: /^1\s+booking/ }).waitFor();
  assert.equal(await page.getByText("SIN8AB").count(), 0);
  assert.equal(new URL(page.url()).searchParams.get("lang"), "en");

  // Back: the previous search, its results and its form.
  await page.goBack();
  await page.waitForURL((u) => u.pathname === "/bookings" && !u.searchParams.has("pnr") && u.searchParams.get("status") === "all");
  await page.getByText("SIN8AB").first().waitFor();
  assert.equal(await page.getByRole("search").getByLabel("Booking number").inputValue(), "");
  assert.equal(await page.getByLabel("All bookings").isChecked(), true);
  // Back again: the default search, still on the bookings page.
  await page.goBack();
  await page.waitForURL((u) => u.pathname === "/bookings" && !u.searchParams.has("status"));
  await page.getByLabel("Upcoming flights").and(page.locator(":checked")).waitFor();
  await page.getByText("HNK7Q2").first().waitFor();
  assert.equal(await page.getByText("SIN8AB").count(), 0);
  // Forward and a reload: the same search again.
  await page.goForward();
  await page.waitForURL((u) => u.searchParams.get("status") === "all");
  await page.reload();
  await page.getByText("SIN8AB").first().waitFor();
  assert.equal(await page.getByLabel("All bookings").isChecked(), true);
  await context.close();
});
