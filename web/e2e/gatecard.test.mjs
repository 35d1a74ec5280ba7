/* global document, window, getComputedStyle */
// What a flight's card says after the airline's changes, end to end: the
// operations feed (signed with the demo secret) moves HNK7Q2's outbound
// flight past midnight and to another gate, and gives its return flight a
// gate and then cancels it. The bookings page, the home page and the trips
// kept on the device then show the new date (the scheduled one struck
// through beside it, never "+1" on the departure), the new gate with the
// old one struck through (with its words for a screen reader), and no gate
// on the cancelled flight; in en, jp and th at 320 and 375 px, nothing
// wider than its card. The kept copy, saved in one language, is shown in
// the page's language when the member switches language offline.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { e2eSuite, signIn, screenshot } from "./harness.mjs";

const env = e2eSuite({ before, after });
const SECRET = "demo-ops-secret"; // serve --demo without --ops-secret (docs/flight-alerts.md)
const LANGS = ["en", "jp", "th"];
const SIZES = { 320: { width: 320, height: 700 }, 375: { width: 375, height: 812 } };

const WAS_GATE = { en: "was gate 12", jp: "変更前の12\u2060番ゲート", th: "ประตูเดิม 12" };
const GATE = { en: "Gate 31", jp: "31\u2060番ゲート", th: "ประตู 31" };
const KEEP = { en: "Keep my trips on this device", jp: "この端末に旅程を保存する", th: "เก็บทริปของฉันไว้ในอุปกรณ์นี้" };
const SAVED = { en: "Saved on this device — last updated", jp: "この端末に保存済み — 最終更新", th: "บันทึกไว้ในอุปกรณ์นี้ — อัปเดตล่าสุด" };
const TRIPS = { en: "Your next trips", jp: "今後のご旅行", th: "การเดินทางครั้งถัดไปของคุณ" };
const BRAND = { en: "Peach Members", jp: "Peach メンバーズ", th: "Peach Members" };
// The server's names (internal/masters, the bookings catalogues' airports and flightStatus)
const KIX = { en: "Osaka (Kansai)", jp: "大阪(関西)", th: "โอซาก้า (คันไซ)" };
const ICN = { en: "Seoul (Incheon)", jp: "ソウル(仁川)", th: "โซล (อินชอน)" };
const DELAYED = { en: "Delayed (not yet departed)", jp: "遅延（出発前）", th: "ล่าช้า (ยังไม่ออกเดินทาง)" };
const CANCELLED = { en: "Flight cancelled", jp: "欠航", th: "เที่ยวบินถูกยกเลิก" };

async function postEvent(event) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const sig = createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex");
  const res = await fetch(`${env.server.url}/ops/v1/flight-events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Ops-Signature": `t=${t},v1=${sig}` },
    body,
  });
  const answer = await res.json();
  assert.equal(res.status, 200, JSON.stringify(answer));
  assert.equal(answer.outcome, "applied", JSON.stringify(answer));
}

const localDate = (dt) => dt.slice(0, 10);
const nextDay = (date) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Waits until the service worker is active and controls the page (a first visit's page is controlled after a reload). */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }
}

/** Every box of the card inside the card, and the page no wider than the screen (visually hidden texts aside). */
async function fits(card, what) {
  const out = await card.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll("*")]
      .filter((e) => !e.closest(".visually-hidden") && e.getClientRects().length > 0)
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5))
      .map(({ e, r }) => `${e.tagName}.${e.className} ${Math.round(r.left)}-${Math.round(r.right)} in ${Math.round(box.left)}-${Math.round(box.right)}`);
  });
  assert.deepEqual(out, [], `${what}: boxes outside their card`);
  const over = await card.page().evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `${what}: ${over} px wider than the screen`);
}

/**
 * The card's rules on the two flights of HNK7Q2: the outbound on its new
 * date with the scheduled one struck through, its departure without "+1",
 * the new gate and the old one struck through; the return cancelled, with
 * no gate at all.
 */
async function checkCard(card, lang, dates, what) {
  const out = card.locator('[data-segment-key="1"]');
  const back = card.locator('[data-segment-key="2"]');
  await out.locator(".flight__time--late").first().waitFor();
  assert.equal(await out.locator(".flight__date").getAttribute("datetime"), dates.delayed, `${what}: the new date`);
  assert.equal(await out.locator("s.flight__was-date time").getAttribute("datetime"), dates.scheduled, `${what}: the scheduled date struck through`);
  const dep = out.locator(".flight__time--late").first();
  assert.match(await dep.textContent(), /00:40$/, `${what}: the new departure`);
  assert.equal(await dep.locator(".flight__plus").count(), 0, `${what}: no "+1" on a departure shown on its own date`);
  const gate = out.locator(".flight__gate");
  assert.equal(await gate.locator("del").count(), 1, `${what}: the old gate struck through`);
  // as seen (the visually hidden words left out) and as heard (what is hidden from a screen reader left out)
  const text = (drop) => gate.evaluate((e, sel) => { const c = e.cloneNode(true); c.querySelectorAll(sel).forEach((x) => x.remove()); return c.textContent.replace(/\s+/g, " ").trim(); }, drop);
  assert.equal(await text(".visually-hidden"), `${GATE[lang]} 12`, `${what}: the gate as seen`);
  assert.equal(await text('[aria-hidden="true"]'), `${GATE[lang]} ${WAS_GATE[lang]}`, `${what}: the gate as heard`);
  assert.equal(await gate.locator("del .visually-hidden").textContent(), WAS_GATE[lang], `${what}: the old gate's words`);
  assert.equal(await gate.locator("del").evaluate((e) => getComputedStyle(e).textDecorationLine), "line-through", `${what}: struck through`);
  // The return flight, cancelled after a gate was given: no gate, neither new nor old.
  await back.locator(".chip", { hasText: CANCELLED[lang] }).waitFor();
  assert.equal(await back.locator(".flight__gate").count(), 0, `${what}: a cancelled flight shows no gate`);
  assert.equal(await back.locator("del").count(), 0, `${what}: nor an old gate`);
  assert.ok(!(await back.innerText()).includes("Q7"), `${what}: the cancelled flight's gate Q7 is nowhere`);
}

/** Posts the events once, before the first test's page (a promise the tests share). */
let posted;
const changed = () => (posted ??= postChanges());

async function postChanges() {
  // The demo's HNK7Q2: MM001 KIX 08:30 → ICN in 10 days from gate 12, MM002 ICN → KIX in 14 days.
  const { context, page } = await env.newPage(SIZES[375]);
  await signIn(page, env.server.url);
  const res = await page.request.get(`${env.server.url}/api/reservations/HNK7Q2`, { headers: { "X-Lang": "en" } });
  const [out, back] = (await res.json()).segments;
  await context.close();
  assert.equal(out.flight, "MM001");
  assert.equal(out.originGate, "12");
  const d = localDate(out.departDateTime);
  const b = localDate(back.departDateTime);
  const at = (minutes) => new Date(Date.now() - 60 * 60_000 + minutes * 60_000).toISOString();
  await postEvent({ id: "gc-gate-1", flight: "MM001", date: d, kind: "gate", occurredAt: at(0), gate: "31" });
  await postEvent({ id: "gc-delay-1", flight: "MM001", date: d, kind: "delay", occurredAt: at(1), departure: `${nextDay(d)}T00:40:00+09:00` });
  await postEvent({ id: "gc-gate-2", flight: "MM002", date: b, kind: "gate", occurredAt: at(2), gate: "Q7" });
  await postEvent({ id: "gc-cancel-2", flight: "MM002", date: b, kind: "cancellation", occurredAt: at(3) });
  return { scheduled: d, delayed: nextDay(d) };
}

for (const lang of LANGS) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`${lang} at ${size} px: the bookings page, the home page and the kept trips after a delay past midnight, a gate change and a cancellation`, async () => {
      const dates = await changed();
      const { context, page } = await env.newPage(viewport);
      const base = env.server.url;
      await signIn(page, base, undefined, lang);

      await page.goto(`${base}/bookings?lang=${lang}`);
      const card = page.getByRole("article", { name: /HNK7Q2/ });
      await checkCard(card, lang, dates, `${lang} ${size} bookings`);
      await fits(card, `${lang} ${size} bookings`);
      await screenshot(card, `gatecard-bookings-${lang}-${size}`);

      await page.goto(`${base}/?lang=${lang}`);
      const home = page.getByRole("article", { name: /HNK7Q2/ });
      await checkCard(home, lang, dates, `${lang} ${size} home`);
      await fits(home, `${lang} ${size} home`);
      await screenshot(page, `gatecard-home-${lang}-${size}`);

      // Keep the trips, then read them without a network.
      await page.goto(`${base}/bookings?lang=${lang}`);
      await controlled(page);
      const box = page.getByRole("checkbox", { name: KEEP[lang] });
      await box.waitFor();
      await box.check();
      await page.getByText(SAVED[lang]).first().waitFor();
      await context.setOffline(true);
      await page.goto(`${base}/?lang=${lang}`);
      await page.getByText(SAVED[lang]).waitFor();
      const kept = page.locator('[data-pnr="HNK7Q2"]');
      await checkCard(kept, lang, dates, `${lang} ${size} kept`);
      await fits(kept, `${lang} ${size} kept`);
      assert.equal(await page.title(), `${TRIPS[lang]} | ${BRAND[lang]}`, "the offline view's tab title");
      await screenshot(page, `gatecard-kept-${lang}-${size}`);

      // Offline, in the next language: the copy saved in this one reads in that one.
      const other = LANGS[(LANGS.indexOf(lang) + 1) % LANGS.length];
      await page.goto(`${base}/?lang=${other}`);
      await page.getByText(SAVED[other]).waitFor();
      const again = page.locator('[data-pnr="HNK7Q2"]');
      await checkCard(again, other, dates, `${lang} saved, ${other} shown, ${size}`);
      const out = again.locator('[data-segment-key="1"]');
      assert.deepEqual(await out.locator(".flight__airport").allInnerTexts(), [KIX[other], ICN[other]].map((n) => n.replace(/\s+/g, " ")), "airports in the page's language");
      assert.equal(await out.locator(".chip").innerText(), DELAYED[other], "the flight's status in the page's language");
      assert.equal(await page.title(), `${TRIPS[other]} | ${BRAND[other]}`);
      await fits(again, `${lang} saved, ${other} shown, ${size}`);
      await screenshot(page, `gatecard-kept-${lang}-as-${other}-${size}`);
      await context.close();
    });
  }
}
