// Every link the product mails lands on a working page: the flight change
// mail, the itinerary mail, the convenience-store slip mail (the pending
// payments page), the password reset mail and the two e-mail change mails.
// Each mail is made by the real flow, read from the real outbox with the
// operator command (`members mail list | show`), and every link to the
// members' area in it is opened in a browser. The page must answer, show
// what the mail promised, and show no "Page not found" and no field error
// (the flight change mail's button once led to "Booked from: This field is
// required." and no booking).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, login, screenshot, advanceServerClock, VIEWPORTS, DEMO, DEMO2 } from "./harness.mjs";
import { paymentApi } from "./paymentapi.mjs";
import { outbox } from "./outbox.mjs";
import { signedFeeds, DEMO_FEED_SECRETS } from "./feeds.mjs";

const env = e2eSuite({ before, after }, { serverArgs: ["--test-clock"] });
const { apiCall } = paymentApi(env);
const { mailOf, linksOf } = outbox(env);
const { feedCall } = signedFeeds(env);

/** Opens a mailed link: it answers, and the page is no "Page not found" nor an error. */
async function follow(page, link) {
  const res = await page.goto(link);
  assert.ok(res && res.status() < 400, `${link} answered ${res?.status()}`);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  assert.equal(await page.getByText("Page not found").count(), 0, `${link}: page not found`);
  assert.equal(await page.getByText("This field is required.").count(), 0, `${link}: a field error`);
  assert.equal(await page.getByText("Processing was interrupted").count(), 0, `${link}: an error toast`);
}

function postEvent(event) {
  return feedCall(DEMO_FEED_SECRETS.flightEvents, "POST", "/ops/v1/flight-events", event);
}

/** Renders a mail's HTML part in the browser, for people to look at (make screenshots). */
async function mailScreenshot(html, name) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    const { context, page } = await env.newPage(viewport);
    await page.setContent(html);
    await screenshot(page, `${name}-${size}`);
    await context.close();
  }
}

test("the flight change and itinerary mails lead to the booking, with its new times", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  await signIn(page, env.server.url);
  // CTS4EF: MM171 KIX 07:05 → CTS 09:10, sixty days out; delayed to 23:45.
  const seg = (await (await page.request.get(`${env.server.url}/api/reservations/CTS4EF`, { headers: { "X-Lang": "en" } })).json()).segments[0];
  const date = seg.departDateTime.slice(0, 10);
  const delay = await postEvent({ id: "links-delay", flight: "MM171", date, kind: "delay", occurredAt: new Date().toISOString(), departure: `${date}T23:45:00+09:00` });
  assert.equal(delay.status, 200, JSON.stringify(delay.body));
  await advanceServerClock(env.server, 11 * 60); // past the ten minutes a delay's updates gather

  const change = await mailOf("flight_change", DEMO.email);
  assert.match(change, /is delayed/, "the mail says what happened");
  const links = linksOf(change);
  const booking = links.find((l) => /\/bookings\?/.test(l));
  assert.ok(booking && /pnr=CTS4EF/.test(booking), `the flight change mail links to the booking:\n${change}`);
  for (const link of links) await follow(page, link);
  await page.goto(booking);
  const card = page.getByRole("article", { name: /CTS4EF/ });
  await card.waitFor();
  assert.equal(await card.locator(".flight__time").first().textContent(), "Departure 23:45");
  await screenshot(page, "mailedlinks-flight-change-en-phone");
  await mailScreenshot(await mailOf("flight_change", DEMO.email, { html: true }), "mail-flight-change-en");

  // Home: the delayed booking, sixty days out, comes first, at the top of a phone's screen.
  await page.goto(`${env.server.url}/?lang=en`);
  const recent = page.getByRole("region", { name: "Your upcoming flights" });
  await recent.getByRole("article").first().waitFor();
  assert.match(await recent.getByRole("article").first().getAttribute("aria-label") ?? await recent.getByRole("article").first().innerText(), /CTS4EF/);
  const top = (await recent.getByRole("article").first().boundingBox()).y;
  assert.ok(top < 400, `the first flight on home starts at y=${top}`);

  // The pages the link opens, in three languages and two sizes.
  for (const lang of ["en", "jp", "th"]) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const look = await env.newPage(viewport);
      await signIn(look.page, env.server.url, undefined, lang);
      await look.page.goto(booking.replace("lang=en", `lang=${lang}`));
      await look.page.getByRole("article", { name: /CTS4EF/ }).locator(".flight__time--late").first().waitFor();
      await screenshot(look.page, `mailedlinks-booking-${lang}-${size}`);
      await look.page.goto(`${env.server.url}/?lang=${lang}`);
      await look.page.getByRole("article", { name: /CTS4EF/ }).waitFor();
      await screenshot(look.page, `mailedlinks-home-${lang}-${size}`);
      await look.context.close();
    }
  }

  // The itinerary mail, printed after the change: the new times, and a link to the booking.
  const sent = await apiCall(page, "POST", "/api/reservations/CTS4EF/sendmail");
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const itinerary = await mailOf("itinerary", DEMO.email);
  assert.match(itinerary, /now 23:45 → 01:50 \+1 \(scheduled 07:05 → 09:10\)/, itinerary);
  const itLinks = linksOf(itinerary);
  assert.ok(itLinks.some((l) => /\/bookings\?.*pnr=CTS4EF/.test(l)), `the itinerary mail links to the booking:\n${itinerary}`);
  for (const link of itLinks) {
    await follow(page, link);
    if (/pnr=CTS4EF/.test(link)) await page.getByRole("article", { name: /CTS4EF/ }).waitFor();
  }
  await mailScreenshot(await mailOf("itinerary", DEMO.email, { html: true }), "mail-itinerary-en");
  await context.close();
});

test("the slip mail leads to the pending payment and its slip", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  const buy = await apiCall(page, "POST", "/api/peachpoints/buy", {
    nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "convenienceStore", requestId: `links-slip-${Date.now()}`,
  });
  assert.equal(buy.status, 200, JSON.stringify(buy.body));
  const cont = await apiCall(page, "POST", `/api/peachpoints/buy/${buy.body.paymentProcessId}/continue`);
  assert.equal(cont.body.status, "pending");
  const pending = await apiCall(page, "GET", "/api/payments/pending");
  const slip = pending.body.payments[0].slip;

  const text = await mailOf("payment_slip", DEMO.email);
  const links = linksOf(text);
  assert.ok(links.some((l) => /\/payments\/pending/.test(l)), `the slip mail links to the pending payments:\n${text}`);
  for (const link of links) {
    await follow(page, link);
    if (/\/payments\/pending/.test(link)) await page.getByText(slip.receiptNumber).first().waitFor();
  }
  // The pending payment's own slip page, from there.
  await page.getByRole("link", { name: "Show the payment slip" }).first().click();
  await page.getByText(slip.receiptNumber).first().waitFor();
  assert.equal(await page.getByText("Page not found").count(), 0);
  await context.close();
});

test("the slip cancelled mail's button leads to the payment, cancelled, with Start again", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  await signIn(page, env.server.url, DEMO2);
  const buy = await apiCall(page, "POST", "/api/peachpoints/buy", {
    nominee: "KIM LEE", currencyCode: "JPY", amount: 3000, paymentMethod: "convenienceStore", requestId: `links-slip-cancel-${Date.now()}`,
  });
  assert.equal(buy.status, 200, JSON.stringify(buy.body));
  const id = buy.body.paymentProcessId;
  assert.equal((await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`)).body.status, "pending");
  const cancel = await apiCall(page, "POST", `/api/payments/${id}/cancel`);
  assert.equal(cancel.body.failureCode, "canceled", JSON.stringify(cancel.body));

  const text = await mailOf("payment_slip_cancelled", DEMO2.email);
  assert.match(text, /Nothing was charged/, text);
  const html = await mailOf("payment_slip_cancelled", DEMO2.email, { html: true });
  // the button: the link its HTML part gives the action's words
  const button = [...html.matchAll(/<a\b[^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)]
    .find(([, , inner]) => /See the payment/.test(inner.replace(/<[^>]+>/g, "")))?.[1]?.replaceAll("&amp;", "&");
  assert.ok(button && new URL(button).pathname === `/payment/peachpoints/${id}/result`, `the button leads to the payment's result: ${button}\n${html}`);
  for (const link of linksOf(text)) await follow(page, link);
  await follow(page, button);
  const outcome = page.locator(".pay-notice--done");
  await outcome.getByText("You cancelled this payment.").waitFor();
  await outcome.getByText(/Nothing was charged\. The slip can no longer be paid/).waitFor();
  await outcome.getByRole("link", { name: "Start again" }).waitFor();
  await screenshot(page, "mailedlinks-slip-cancelled-en-phone");
  // the same page in Thai, as a member reading it in Thai finds it
  const th = new URL(button);
  th.searchParams.set("lang", "th");
  await page.goto(th.href);
  await page.locator(".pay-notice--done .pay-notice__again a").waitFor();
  await screenshot(page, "mailedlinks-slip-cancelled-th-phone");
  await mailScreenshot(html, "mail-slip-cancelled-en");
  await context.close();
});

test("the password reset and e-mail change mails lead to their pages", async () => {
  // Reset: asked for without a session, the link opened in a new browser.
  const asker = await env.newPage(VIEWPORTS.phone);
  await asker.page.goto(`${env.server.url}/reset-password?lang=en`);
  await asker.page.getByLabel("E-mail address").fill(DEMO2.email);
  await asker.page.getByRole("button", { name: "Send the link" }).click();
  await asker.page.getByText(/If the address is registered/).waitFor();
  await asker.context.close();
  const reset = await mailOf("password_reset", DEMO2.email);
  const resetLinks = linksOf(reset);
  assert.ok(resetLinks.some((l) => /\/reset-password\//.test(l)), reset);
  const opener = await env.newPage(VIEWPORTS.phone);
  for (const link of resetLinks) await follow(opener.page, link);
  await opener.page.goto(resetLinks.find((l) => /\/reset-password\//.test(l)));
  await opener.page.getByLabel(/^New password/).waitFor();
  await opener.context.close();

  // E-mail change: the confirmation to the new address, the notice (undo) to the old one.
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await login(page, env.server.url, DEMO2);
  await page.goto(`${env.server.url}/account?lang=en`);
  const email = page.getByLabel(/^E-mail address/);
  await email.waitFor();
  const newAddr = "kim.links@example.com";
  await email.fill(newAddr);
  const profile = page.locator("section", { has: page.getByRole("heading", { name: "Profile" }) });
  await profile.getByLabel(/^Current password/).fill(DEMO2.password);
  await profile.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").filter({ hasText: `will change to ${newAddr}` }).waitFor();

  const confirm = await mailOf("email_change_confirm", newAddr);
  const confirmLink = linksOf(confirm).find((l) => /\/email-change\/confirm\//.test(l));
  assert.ok(confirmLink, confirm);
  const other = await env.newPage(VIEWPORTS.phone);
  await follow(other.page, confirmLink);
  await other.page.getByText(`Your e-mail address is now ${newAddr}.`).waitFor();
  await other.context.close();

  const notice = await mailOf("email_change_notice", DEMO2.email);
  const noticeLinks = linksOf(notice);
  const undo = noticeLinks.find((l) => /\/email-change\/undo\//.test(l));
  assert.ok(undo, notice);
  for (const link of noticeLinks.filter((l) => l !== undo)) await follow(page, link);
  await follow(page, undo);
  await page.getByText(/The change was undone/).waitFor();
  await context.close();
});
