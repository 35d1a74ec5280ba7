// Your calendar end to end: a booking's .ics download, the private
// subscription made, fetched without a session, renewed and stopped.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { downloadText, e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });

async function bookingsPage(viewport, lang = "en") {
  const { context, page } = await env.newPage(viewport);
  await signIn(page, env.server.url, undefined, lang);
  await page.goto(`${env.server.url}/bookings?lang=${lang}`);
  await page.getByRole("article", { name: /HNK7Q2/ }).waitFor();
  return { context, page };
}

test("a booking downloads as an iCalendar file with one event per flight", async () => {
  const { context, page } = await bookingsPage(VIEWPORTS.desktop);
  const card = page.getByRole("article", { name: /HNK7Q2/ });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    card.getByRole("button", { name: "More" }).click().then(() => card.getByRole("menuitem", { name: "Add to calendar (.ics)" }).click()),
  ]);
  assert.equal(download.suggestedFilename(), "booking-HNK7Q2.ics");
  const body = await downloadText(download);
  assert.match(body, /^BEGIN:VCALENDAR\r\n/);
  assert.equal(body.match(/BEGIN:VEVENT/g).length, 2, "KIX-ICN and ICN-KIX");
  assert.match(body, /DTSTART;TZID=Asia\/Tokyo:\d{8}T083000\r\n/);
  assert.match(body, /DTSTART;TZID=Asia\/Seoul:\d{8}T134500\r\n/);
  assert.match(body, /Booking number \(PNR\): HNK7Q2/);
  await context.close();
});

test("the private subscription: made once, opened without a session, renewed, stopped", async () => {
  const { context, page } = await bookingsPage(VIEWPORTS.phone);
  const section = page.getByRole("region", { name: "Your flights in your calendar" });
  await section.getByRole("button", { name: "Create my private calendar link" }).click();
  const field = section.getByLabel("Your private calendar address");
  await field.waitFor();
  const url = await field.inputValue();
  const parsed = new URL(url);
  assert.equal(parsed.origin + parsed.pathname, `${env.server.url}/api/calendar/feed.ics`);
  assert.equal(parsed.searchParams.get("token").length, 43, "256 random bits");
  await section.getByText(/has been active since/).waitFor();
  await screenshot(section, "calendar-subscription-phone");
  await screenshot(page, "bookings-calendar-phone");

  // A calendar app has no cookie: the token alone opens the feed.
  const feed = await fetch(url);
  assert.equal(feed.status, 200);
  assert.match(feed.headers.get("content-type"), /^text\/calendar/);
  const text = await feed.text();
  assert.match(text, /HNK7Q2/);
  assert.match(text, /STATUS:CANCELLED/, "the cancelled flight BKK5LM is marked");
  assert.doesNotMatch(text, /KIM1AA/, "nobody else's flights");

  // The page shows the last use after a reload, never the address again.
  await page.reload();
  await section.getByText(/last updated it on/).waitFor();
  assert.equal(await section.getByLabel("Your private calendar address").count(), 0);

  // Renewing asks first; the old address stops working.
  await section.getByRole("button", { name: "Renew link" }).click();
  const dialog = page.getByRole("dialog", { name: "Renew your calendar link?" });
  await dialog.getByRole("button", { name: "Renew link" }).click();
  const renewed = await section.getByLabel("Your private calendar address").inputValue();
  assert.notEqual(renewed, url);
  assert.equal((await fetch(url)).status, 404);
  assert.equal((await fetch(renewed)).status, 200);

  await section.getByRole("button", { name: "Stop subscription" }).click();
  await page.getByRole("dialog", { name: "Stop your calendar subscription?" }).getByRole("button", { name: "Stop subscription" }).click();
  await section.getByRole("button", { name: "Create my private calendar link" }).waitFor();
  assert.equal((await fetch(renewed)).status, 404);
  await context.close();
});

test("screenshots: the calendar parts of the bookings page in Japanese and English", async () => {
  for (const [name, viewport, lang] of [["desktop", VIEWPORTS.desktop, "en"], ["jp-phone", VIEWPORTS.phone, "jp"]]) {
    const { context, page } = await bookingsPage(viewport, lang);
    const section = page.locator("section.calendar-sub");
    await section.locator(".actions button").first().click();
    const confirm = page.getByRole("dialog");
    if (await section.locator("input[readonly]").count() === 0 && await confirm.count() > 0) {
      await confirm.locator("button.button--primary").click();
    }
    await section.locator("input[readonly]").waitFor();
    await screenshot(section, `calendar-subscription-${name}`);
    await screenshot(page.getByRole("article", { name: /HNK7Q2/ }), `calendar-booking-card-${name}`);
    await context.close();
  }
});
