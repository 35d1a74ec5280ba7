/* global document, window, getComputedStyle */
// Every page in all eight languages at 375 px: nothing wider than the
// screen (no sideways scrolling), and no text running out of its own box
// (a fare's price over its card's border). Screenshots in
// e2e/screenshots/overflow-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, signIn, screenshot, root } from "./harness.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
const members = (...args) => execFileSync(bin, [...args, "--db", env.server.dsn], { encoding: "utf8" });
let opened = false;
/** Every sale open, whatever the hour: the pass pages show their forms. */
function openSales() {
  if (opened) return;
  members("admin", "gogo-pass", "--maintenance", "off");
  members("admin", "coupon-ticket", "--public");
  opened = true;
}
const { apiCall } = paymentApi(env);
const LANGS = ["jp", "en", "sg", "kr", "cn", "tw", "hk", "th"];
const PHONE = { width: 375, height: 812 };

/** The member's pages, every route without a parameter. */
const MEMBER_PAGES = [
  "/", "/account", "/account/notifications", "/passengers", "/bookings", "/payment-methods", "/payments/pending",
  "/points", "/points/sale", "/points/reissue/lost", "/points/exchange", "/points/exchange-ana",
  "/gogo-pass", "/gogo-pass/lottery", "/gogo-pass/lottery/complete", "/gogo-pass/exchange", "/gogo-pass/maintenance",
  "/coupon-pass", "/my-passes", "/security", "/security/passkeys", "/your-data", "/no-such-page",
];
/** The pages seen without a session. */
const ANONYMOUS_PAGES = ["/login", "/reset-password", "/reset-password/invalid", "/reset-password/not-a-token", "/sorry", "/account-deleted",
  "/email-change/confirm/not-a-token"];

/**
 * What runs over: the page wider than the window, and elements whose
 * content is wider than their own box while they let it show (overflow
 * visible), with what they hold.
 */
async function overflows(page) {
  return page.evaluate(() => {
    const out = [];
    const over = document.documentElement.scrollWidth - window.innerWidth;
    if (over > 0) out.push(`page ${over} px wider than the window`);
    const bad = [];
    for (const e of document.querySelectorAll("body *")) {
      const s = getComputedStyle(e);
      if (s.display === "inline" || s.display === "none" || s.display === "contents" || s.overflowX !== "visible") continue;
      if (s.position === "absolute" && (s.clipPath !== "none" || s.clip !== "auto")) continue; // visually hidden text
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0) bad.push([e, `${e.scrollWidth} > ${e.clientWidth} px`]);
      else if (r.right > window.innerWidth + 1 && s.position !== "fixed") bad.push([e, `ends at ${Math.round(r.right)} px`]);
    }
    // the innermost of each: an element whose content runs over makes its ancestors' run over too
    for (const [e, what] of bad) {
      if (bad.some(([d]) => d !== e && e.contains(d))) continue;
      out.push(`${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${(e.textContent ?? "").trim().slice(0, 40)}": ${what}`);
    }
    return out;
  });
}

/** A payment prepared (points, 3,000 yen by slip): its confirm page. */
async function preparedPayment(page, lang) {
  const r = await apiCall(page, "POST", "/api/peachpoints/buy",
    { nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "convenienceStore", requestId: `overflow-${lang}-${Date.now()}` }, lang);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return `/payment/peachpoints/${r.body.paymentProcessId}`;
}

for (const lang of LANGS) {
  test(`every page fits 375 px in ${lang}`, async () => {
    openSales();
    const problems = [];
    const { context, page } = await env.newPage(PHONE);
    await signIn(page, env.server.url, undefined, lang);
    const pages = [...MEMBER_PAGES, await preparedPayment(page, lang)];
    for (const p of pages) {
      await page.goto(`${env.server.url}${p}${p.includes("?") ? "&" : "?"}lang=${lang}`);
      await page.locator("main h1, h1").first().waitFor();
      await page.waitForLoadState("networkidle");
      for (const o of await overflows(page)) problems.push(`${p}: ${o}`);
      await screenshot(page, `overflow-${lang}${p.replace(/\//g, "_")}`);
    }
    await context.close();
    const anon = await env.newPage(PHONE);
    for (const p of ANONYMOUS_PAGES) {
      await anon.page.goto(`${env.server.url}${p}?lang=${lang}`);
      await anon.page.locator("h1").first().waitFor();
      await anon.page.waitForLoadState("networkidle");
      for (const o of await overflows(anon.page)) problems.push(`${p}: ${o}`);
      await screenshot(anon.page, `overflow-${lang}${p.replace(/\//g, "_")}`);
    }
    await anon.context.close();
    assert.deepEqual(problems, [], `${lang} at 375 px`);
  });
}
