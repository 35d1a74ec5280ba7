/* global document, window */
// Money pages a member can finish: the sandbox gateway's challenge, QR and
// slip pages in the member's language (the app passes it in the address),
// the QR page noticing a failed payment without a reload, the slip's
// deadline written as the language writes dates; /points on a phone (the
// balance, then the actions, the rest folded); the unlimited pass's choice
// naming its passenger; the maintenance notice naming its window.
// Screenshots at 375 and 1280 px in en, jp and th; axe finds nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { expectNoAxeViolations as axe } from "./axe.mjs";
import { advanceServerClock, e2eSuite, signIn, root, screenshot, VIEWPORTS } from "./harness.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after }, { serverArgs: ["--test-clock"] });
const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
const members = (...args) => execFileSync(bin, [...args, "--db", env.server.dsn], { encoding: "utf8" });
const LANGS = ["en", "jp", "th"];

const { apiCall, tokenize } = paymentApi(env);

/** The page fits its width: nothing wider than the window. */
async function fits(page, label) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const wide = over > 0 ? await page.evaluate(() => [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth)
    .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 5).join(", ")) : "";
  assert.ok(over <= 0, `${label}: ${over} px wider than the window (${wide})`);
}

let seq = 0;
/** Buys points with a method that needs a step at the gateway; returns the gateway page's address. */
async function gatewayStep(page, lang, extra) {
  const body = { nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, requestId: `money-${Date.now()}-${seq++}`, ...extra };
  const r = await apiCall(page, "POST", "/api/peachpoints/buy", body, lang);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const id = r.body.paymentProcessId;
  await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`, undefined, lang);
  let st;
  for (let i = 0; i < 50; i++) {
    st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`, undefined, lang);
    if (st.body.nextAction) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  assert.ok(st.body.nextAction, JSON.stringify(st.body));
  return { id, url: st.body.nextAction.url };
}

const TEXT = {
  en: { challenge: "Approve", qr: "Pay with PayPay", slip: "Payment slip", failed: "This payment did not go through.", back: "Return to the shop",
    deadline: /[A-Z][a-z]{2} \d{1,2}, 20\d\d \d\d:\d\d \(Japan time\)/ },
  jp: { challenge: "承認する", qr: "PayPayで支払う", slip: "払込票", failed: "このお支払いは完了しませんでした。", back: "ショップに戻る",
    deadline: /20\d\d年\d{1,2}月\d{1,2}日 \d\d:\d\d（日本時間）/ },
  th: { challenge: "อนุมัติ", qr: "PayPay", slip: "ใบแจ้งชำระเงิน", failed: "การชำระเงินนี้ไม่สำเร็จ", back: "กลับไปที่ร้านค้า",
    deadline: /\d{1,2} \S+ 25\d\d \d\d:\d\d \(เวลาญี่ปุ่น\)/ },
};

test("the gateway's challenge, QR and slip pages speak the member's language and fit 375 and 1280 px", async () => {
  for (const lang of LANGS) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(size);
      await signIn(page, env.server.url, undefined, lang);
      const steps = {
        challenge: { paymentMethod: "creditCard", creditCardToken: await tokenize(page, "4000000000003220") },
        qr: { paymentMethod: "otherPayment", otherPaymentType: "paypay" },
        slip: { paymentMethod: "convenienceStore" },
      };
      for (const [kind, extra] of Object.entries(steps)) {
        const { id, url } = await gatewayStep(page, lang, extra);
        assert.match(url, new RegExp(`[?&]lang=${lang}$`), `${kind}: the address carries the language`);
        await page.goto(url);
        const label = `${kind} ${lang} ${vp}`;
        assert.equal(await page.locator("html").getAttribute("lang"), { en: "en", jp: "ja", th: "th" }[lang], label);
        await page.getByText(TEXT[lang][kind], { exact: false }).first().waitFor();
        if (kind === "slip") {
          const deadline = await page.locator("dd").filter({ hasText: TEXT[lang].deadline }).first().innerText();
          assert.match(deadline, TEXT[lang].deadline, label);
          assert.doesNotMatch(await page.content(), /\d{4}-\d{2}-\d{2} \d\d:\d\d/, `${label}: no ISO date`);
        }
        await screenshot(page, `money-gateway-${kind}-${lang}-${vp}`);
        await fits(page, label);
        await axe(page, label);
        // a waiting payment blocks the next purchase: give it up
        assert.equal((await apiCall(page, "POST", `/api/payments/${id}/cancel`)).status, 200, `${label}: cancel`);
      }
      await context.close();
    }
  }
});

test("the QR page notices a failed payment without a reload and offers the way back", async () => {
  for (const [lang, vp] of [["en", "desktop"], ["jp", "phone"], ["th", "phone"], ["th", "desktop"]]) {
    const { context, page } = await env.newPage(VIEWPORTS[vp]);
    await signIn(page, env.server.url, undefined, lang);
    const { id, url } = await gatewayStep(page, lang, { paymentMethod: "otherPayment", otherPaymentType: "paypay" });
    await page.goto(url);
    await page.locator("img.qr").waitFor();
    let reloads = 0;
    page.on("framenavigated", (f) => { if (f === page.mainFrame()) reloads++; });
    // The payment fails on the other device (the phone that scanned the code).
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "action=cancel", redirect: "manual" });
    assert.equal(res.status, 303);
    const alert = page.getByRole("alert");
    await alert.getByText(TEXT[lang].failed).waitFor({ timeout: 15000 });
    assert.equal(reloads, 0, "no reload");
    assert.equal(await page.locator("img.qr").isVisible(), false, "the code is gone");
    const back = page.getByRole("link", { name: TEXT[lang].back });
    await back.waitFor();
    await fits(page, `qr failed ${lang} ${vp}`);
    await screenshot(page, `money-gateway-qr-failed-${lang}-${vp}`);
    await axe(page, `qr failed ${lang} ${vp}`);
    await back.click();
    await page.waitForURL(new RegExp(`/payment/peachpoints/${id}/result`));
    await context.close();
  }
});

test("/points: the balance, then the actions, the rest folded on a phone; at 375 and 1280 px in en, jp and th", async () => {
  for (const lang of LANGS) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(size);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}/points?lang=${lang}`);
      const balance = page.locator("section[aria-labelledby='points-summary-title']");
      await balance.locator("tbody th").first().waitFor();
      const nav = page.locator("nav.points-nav");
      const top = async (l) => (await l.boundingBox()).y;
      assert.ok((await top(balance)) < (await top(nav)), "the balance comes before the actions");
      const toggles = page.locator(".points-fold__toggle");
      if (vp === "phone") {
        assert.equal(await toggles.count(), 3, "search, expiry and wallet are folded");
        for (const t of await toggles.all()) {
          assert.equal(await t.getAttribute("aria-expanded"), "false");
          assert.ok((await top(t)) > (await top(nav)), "the folded rest comes after the actions");
        }
        assert.equal(await page.locator("#points-currency").isVisible(), false);
      } else {
        assert.equal(await toggles.count(), 0, "nothing folded on a wide screen");
        await page.locator("section[aria-labelledby='points-results-title'] article").first().waitFor();
      }
      await fits(page, `points ${lang} ${vp}`);
      await screenshot(page, `money-points-${lang}-${vp}`);
      await axe(page, `points ${lang} ${vp}`);
      if (vp === "phone") {
        await toggles.first().click();
        assert.equal(await toggles.first().getAttribute("aria-expanded"), "true");
        await page.locator("#points-currency").waitFor();
        await page.locator("section[aria-labelledby='points-results-title'] article").first().waitFor();
        await screenshot(page, `money-points-search-open-${lang}-${vp}`);
        await axe(page, `points open ${lang} ${vp}`);
      }
      await context.close();
    }
  }
});

test("the unlimited pass's choice names the pass, periods, fare, passenger and price; at 375 and 1280 px in en, jp and th", async () => {
  members("admin", "gogo-pass", "--public", "--purchasable", "--maintenance", "off");
  const PASSENGER = { en: "Passenger", jp: "ご搭乗者", th: "ผู้โดยสาร" };
  for (const lang of LANGS) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(size);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}/gogo-pass?lang=${lang}`);
      // a period the member holds already is not for sale (its fares disabled):
      // wait for My passes to mark it (the demo member holds the current
      // period) before picking a fare, or the pick may land on it first
      await page.locator('.plan [id^="held-"]').first().waitFor();
      await page.locator('.plan input[value="happlus"]:not([disabled])').first().check();
      const summary = page.locator(".pass-summary");
      await summary.getByText(PASSENGER[lang]).waitFor();
      assert.match(await summary.innerText(), /\S+ \S+/);
      await summary.scrollIntoViewIfNeeded();
      await fits(page, `pass ${lang} ${vp}`);
      await screenshot(page, `money-pass-choice-${lang}-${vp}`);
      await axe(page, `pass ${lang} ${vp}`);
      await context.close();
    }
  }
});

test("the maintenance notice names the window in the member's language and Japan time (the clock moved into it)", async () => {
  members("admin", "gogo-pass", "--public", "--purchasable", "--maintenance", "auto");
  // Move the server's clock to 03:30 Japan time (18:30 UTC) of the coming night.
  const now = Date.now();
  const target = new Date(now);
  target.setUTCHours(18, 30, 0, 0);
  if (target.getTime() <= now) target.setUTCDate(target.getUTCDate() + 1);
  await advanceServerClock(env.server, Math.ceil((target.getTime() - now) / 1000));
  const WINDOW = { en: /from [A-Z][a-z]{2} \d{1,2}, 20\d\d 03:00 to 05:00 \(Japan time\)/, jp: /20\d\d年\d{1,2}月\d{1,2}日 03:00から05:00（日本時間）まで/,
    th: /ตั้งแต่ \d{1,2} \S+ 25\d\d 03:00 ถึง 05:00 น\. \(เวลาญี่ปุ่น\)/ };
  for (const lang of LANGS) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(size);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}/gogo-pass?lang=${lang}`);
      const notice = page.locator(".pass-notice--warning");
      await notice.waitFor();
      await notice.getByText(WINDOW[lang]).waitFor();
      await fits(page, `maintenance ${lang} ${vp}`);
      await screenshot(page, `money-maintenance-${lang}-${vp}`);
      await axe(page, `maintenance ${lang} ${vp}`);
      await context.close();
    }
  }
  members("admin", "gogo-pass", "--public", "--purchasable", "--maintenance", "off");
});
