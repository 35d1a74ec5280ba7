// Flight change alerts end to end: the operations feed posts signed events
// (a delay with a new gate, a schedule change) and the member sees them on
// the home page and the bookings page, in several languages and sizes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });
const SECRET = "demo-ops-secret"; // serve --demo without --ops-secret (docs/flight-alerts.md)

async function postEvent(event, secret = SECRET) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const sig = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  const res = await fetch(`${env.server.url}/ops/v1/flight-events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Ops-Signature": `t=${t},v1=${sig}` },
    body,
  });
  return { status: res.status, body: await res.json() };
}

/** The local date of a segment's departure ("2026-12-04T08:30:00+09:00" → "2026-12-04"). */
const localDate = (dt) => dt.slice(0, 10);

test("a signed delay and a schedule change show on home and on the bookings page", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  const res = await page.request.get(`${env.server.url}/api/reservations/HNK7Q2`, { headers: { "X-Lang": "en" } });
  const [out, back] = (await res.json()).segments;
  assert.equal(out.flight, "MM001");

  // A wrong signature is refused and changes nothing.
  const refused = await postEvent({ id: "e2e-x", flight: "MM001", date: localDate(out.departDateTime), kind: "cancellation", occurredAt: new Date().toISOString() }, "wrong");
  assert.equal(refused.status, 401);

  const delay = await postEvent({
    id: "e2e-delay-1", flight: "MM001", date: localDate(out.departDateTime), kind: "delay",
    occurredAt: new Date().toISOString(), departure: `${localDate(out.departDateTime)}T10:40:00+09:00`, gate: "31",
  });
  assert.equal(delay.status, 200);
  assert.equal(delay.body.outcome, "applied");
  const moved = await postEvent({
    id: "e2e-time-1", flight: "MM002", date: localDate(back.departDateTime), kind: "time_change",
    occurredAt: new Date().toISOString(), departure: `${localDate(back.departDateTime)}T15:05:00+09:00`,
  });
  assert.equal(moved.status, 200);
  assert.equal(moved.body.bookings, 1);
  // A resend is a no-op.
  const again = await postEvent({
    id: "e2e-delay-1", flight: "MM001", date: localDate(out.departDateTime), kind: "delay",
    occurredAt: new Date().toISOString(), departure: `${localDate(out.departDateTime)}T12:00:00+09:00`,
  });
  assert.equal(again.body.outcome, "duplicate");

  // Home: the recent bookings show the estimate in red and the new gate.
  await page.goto(`${env.server.url}/?lang=en`);
  const homeCard = page.getByRole("article", { name: /HNK7Q2/ });
  await homeCard.waitFor();
  const homeOut = homeCard.locator('[data-segment-key="1"]');
  // The delay's time is the main one, the schedule struck through beside it.
  await homeOut.locator(".flight__time--late", { hasText: "10:40" }).first().waitFor();
  assert.equal(await homeOut.locator(".flight__time").first().textContent(), "Departure 10:40");
  assert.equal(await homeOut.locator("s.flight__was").first().textContent(), "Scheduled 08:30");
  assert.match(await homeOut.getAttribute("class"), /flight--irregular/);
  await homeOut.getByText("Gate 31").waitFor();
  assert.equal(await homeCard.locator('[data-segment-key="2"]').getByText("Changed by the airline: was 13:45").count(), 1);
  await screenshot(page, "flightalerts-home-en-desktop");

  // The bookings page shows the same.
  await page.goto(`${env.server.url}/bookings?lang=en`);
  const card = page.getByRole("article", { name: /HNK7Q2/ });
  await card.locator('[data-segment-key="1"] .flight__time--late', { hasText: "10:40" }).first().waitFor();
  const backRow = card.locator('[data-segment-key="2"]');
  await backRow.getByText("Changed by the airline: was 13:45").waitFor();
  assert.equal(await backRow.locator(".flight__time").first().textContent(), "Departure 15:05");
  await context.close();

  // Screenshots: the changed booking in English, Japanese and Thai, phone and desktop.
  const was = { en: "Changed by the airline: was 13:45", jp: "航空会社により変更: 変更前 13:45", th: "สายการบินเปลี่ยนแปลง: เดิม 13:45" };
  for (const lang of ["en", "jp", "th"]) {
    for (const [size, viewport] of Object.entries({ phone: VIEWPORTS.phone, desktop: VIEWPORTS.desktop })) {
      const { context, page } = await env.newPage(viewport);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}/bookings?lang=${lang}`);
      const c = page.getByRole("article", { name: /HNK7Q2/ });
      await c.getByText(was[lang]).waitFor();
      await screenshot(c, `flightalerts-bookings-${lang}-${size}`);
      if (size === "phone") {
        await page.goto(`${env.server.url}/?lang=${lang}`);
        await page.getByRole("article", { name: /HNK7Q2/ }).getByText(was[lang]).waitFor();
        await screenshot(page, `flightalerts-home-${lang}-phone`);
      }
      await context.close();
    }
  }
});
