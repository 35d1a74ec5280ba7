/* global document, window, getComputedStyle, Node */
// WCAG 2.2 reflow (1.4.10): every page, in all eight languages, at 320 and
// 375 px. Nothing wider than the screen (no sideways scrolling), no element
// running past its container's right or left edge (a date out of its card,
// a pulldown past the header), no text running out of its own box, and no
// CJK word broken one character a line in a heading, a button, a label or a
// table heading ("メ/ニュー"). What sits inside a scroll container that is
// meant to scroll is left alone. One browser context a language: the pages
// without a session first, then the member's, each measured at both widths
// (the viewport resized, the page not reloaded). Screenshots in
// e2e/screenshots/overflow-{lang}-{width}*.png (E2E_SCREENSHOTS=1).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, signIn, screenshot, root, trackRequests } from "./harness.mjs";
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
const WIDTHS = [320, 375];
const HEIGHT = 812;

/**
 * The member's pages: every route of src/app/routes.tsx a demo member
 * reaches (a parameter filled with the demo data: a prepared payment, a
 * reissue variant, an invalid deletion link), each with what it opens on a
 * phone (`open`: a booking's receipt form and menu, the points history).
 */
const MEMBER_PAGES = [
  { path: "/" },
  { path: "/account" }, { path: "/account/notifications" }, { path: "/passengers" },
  { path: "/bookings", open: openBooking },
  { path: "/payment-methods" }, { path: "/payments/pending" },
  { path: "/points", open: openPointsHistory }, { path: "/points/sale" }, { path: "/points/reissue/cny" }, { path: "/points/reissue/twd" },
  { path: "/points/exchange" }, { path: "/points/exchange-ana" },
  { path: "/gogo-pass" }, { path: "/gogo-pass/lottery" }, { path: "/gogo-pass/lottery/complete" }, { path: "/gogo-pass/exchange" },
  { path: "/gogo-pass/maintenance" }, { path: "/coupon-pass" }, { path: "/my-passes" },
  { path: "/security" }, { path: "/security/passkeys" }, { path: "/your-data" }, { path: "/delete-account/not-a-token" },
  { path: "/no-such-page" },
];
/** The pages seen without a session. */
const ANONYMOUS_PAGES = ["/login", "/reset-password", "/reset-password/invalid", "/reset-password/not-a-token", "/sorry", "/account-deleted",
  "/email-change/confirm/not-a-token", "/email-change/undo/not-a-token"].map((p) => ({ path: p }));

/** A booking's detail: its receipt form and its "More" menu open (the first booking that has them). */
async function openBooking(page) {
  const card = page.locator("article.reservation").filter({ has: page.locator(".reservation__actions") }).first();
  await card.locator(".reservation__actions .actions > button.button--secondary").first().click();
  await card.locator(".receipt-form").waitFor();
  await card.locator(".menu > button").first().click();
  await card.locator(".menu__popup:not([hidden])").waitFor();
}

/** The points page with every fold open: the vouchers' history tables. */
async function openPointsHistory(page) {
  const folded = page.locator(".points-fold__toggle[aria-expanded='false']");
  for (let n = await folded.count(); n > 0; n--) await folded.first().click();
  await page.locator(".voucher .button--link[aria-expanded='false']").first().click();
  await page.locator(".voucher__history table").first().waitFor();
}

/**
 * What does not fit: the page wider than the window; elements whose box
 * runs past their container's (the nearest ancestor that is not inline) or
 * the window's left or right edge; elements whose content is wider than
 * their own box while they let it show; CJK text in a heading, button,
 * label or table heading broken with a single character on a line.
 * Inside a scroll container (overflow-x not visible) nothing is measured
 * against what is outside it.
 */
async function misfits(page) {
  return page.evaluate(() => {
    const out = [];
    const vw = window.innerWidth;
    const over = document.documentElement.scrollWidth - vw;
    if (over > 0) out.push(`page ${over} px wider than the window`);
    const describe = (e) => `${e.tagName.toLowerCase()}${e.classList.length ? "." : ""}${[...e.classList].join(".")} "${(e.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
    const hidden = (s) => s.display === "none" || s.visibility === "hidden";
    const clipped = (s) => s.position === "absolute" && (s.clipPath !== "none" || s.clip !== "auto"); // visually hidden text
    const bad = [];
    // popups (a menu's list) lie over what follows them: measured against the window, not their container
    const popups = [...document.querySelectorAll("body *")].filter((e) => {
      const s = getComputedStyle(e);
      return s.position === "absolute" && !hidden(s) && !clipped(s) && e.getBoundingClientRect().width > 0;
    });
    // in document order, each element after its parent: its style, its container (the nearest
    // ancestor laid out as a box) and whether it lies inside a scroll container
    const info = new Map([[document.body, { style: getComputedStyle(document.body), box: null, scrolled: false }]]);
    for (const e of document.querySelectorAll("body *")) {
      const s = getComputedStyle(e);
      const parent = info.get(e.parentElement) ?? { style: getComputedStyle(document.body), box: null, scrolled: false };
      const ps = parent.style;
      const parentIsBox = ps.display !== "inline" && ps.display !== "contents";
      const scrolled = parent.scrolled || ps.overflowX !== "visible";
      const box = e.parentElement === document.body ? null : parentIsBox ? e.parentElement : parent.box;
      info.set(e, { style: s, box, scrolled });
      if (hidden(s) || s.display === "contents" || clipped(s) || s.position === "fixed") continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (scrolled) continue; // inside a scroll container: meant to scroll
      if (r.right > vw + 1 || r.left < -1) { bad.push([e, `ends at ${Math.round(r.left)}–${Math.round(r.right)} px of ${vw}`]); continue; }
      if (s.display === "inline") continue;
      if (box && s.position !== "absolute") {
        const cr = box.getBoundingClientRect();
        if (r.right > cr.right + 1) { bad.push([e, `${Math.round(r.right - cr.right)} px past the right edge of ${describe(box).slice(0, 60)}`]); continue; }
        if (r.left < cr.left - 1) { bad.push([e, `${Math.round(cr.left - r.left)} px past the left edge of ${describe(box).slice(0, 60)}`]); continue; }
      }
      if (s.overflowX === "visible" && e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && !popups.some((p) => e.contains(p))) bad.push([e, `content ${e.scrollWidth} > ${e.clientWidth} px`]);
    }
    // the innermost of each: an element that runs over makes its ancestors' content run over too
    for (const [e, what] of bad) {
      if (bad.some(([d]) => d !== e && e.contains(d))) continue;
      out.push(`${describe(e)}: ${what}`);
    }
    // CJK broken one character a line
    const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
    const texty = document.querySelectorAll("h1, h2, h3, h4, h5, h6, button, .button, th, label, legend, .nav__link, .chip, .badge");
    for (const e of texty) {
      if (!CJK.test(e.textContent ?? "")) continue;
      if (e.closest(".visually-hidden") || hidden(getComputedStyle(e))) continue;
      const lines = new Map();
      const walker = document.createTreeWalker(e, 4 /* NodeFilter.SHOW_TEXT */);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.parentElement?.closest(".visually-hidden")) continue;
        const text = n.nodeValue ?? "";
        for (let i = 0; i < text.length; i++) {
          if (/\s/.test(text[i])) continue;
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const rr = range.getBoundingClientRect();
          if (rr.width === 0) continue;
          const top = Math.round(rr.top + rr.height / 2);
          let key = [...lines.keys()].find((k) => Math.abs(k - top) < rr.height / 2);
          if (key === undefined) { key = top; lines.set(key, ""); }
          lines.set(key, lines.get(key) + text[i]);
        }
      }
      if (lines.size < 2) continue;
      const lone = [...lines.values()].filter((l) => l.length === 1 && CJK.test(l));
      if (lone.length) out.push(`${describe(e)}: broken into lines ${[...lines.values()].map((l) => `"${l}"`).join(" / ")}`);
    }
    void Node;
    return out;
  });
}

/** Loads p and measures it at each width, opening what the page opens first. */
async function measure(page, lang, { path: p, open }, problems) {
  await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
  const requests = trackRequests(page);
  await page.goto(`${env.server.url}${p}${p.includes("?") ? "&" : "?"}lang=${lang}`);
  await page.locator("main h1, h1").first().waitFor();
  // the page's data in (its calls answered), without networkidle's half second a page
  await requests.quiet(200);
  if (open) {
    const opened = trackRequests(page);
    await open(page);
    await opened.quiet(200);
  }
  for (const width of WIDTHS) {
    if (width !== WIDTHS[0]) await page.setViewportSize({ width, height: HEIGHT });
    // the layout of the new width, and the fonts of its text, before measuring
    await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => window.requestAnimationFrame(() => window.requestAnimationFrame(r)))));
    for (const o of await misfits(page)) problems.push(`${width} px ${p}: ${o}`);
    await screenshot(page, `overflow-${lang}-${width}${p.replace(/\//g, "_")}`);
  }
}

/** A payment prepared (points, 3,000 yen by slip): its confirm page. */
async function preparedPayment(page, lang) {
  const r = await apiCall(page, "POST", "/api/peachpoints/buy",
    { nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "convenienceStore", requestId: `overflow-${lang}-${Date.now()}` }, lang);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { path: `/payment/peachpoints/${r.body.paymentProcessId}` };
}

// Two languages at a time: each spends most of its time waiting for the server and the browser.
describe("reflow", { concurrency: 2 }, () => {
  for (const lang of LANGS) {
    test(`every page fits 320 and 375 px in ${lang}`, async () => {
      openSales();
      const problems = [];
      const { context, page } = await env.newPage({ width: WIDTHS[0], height: HEIGHT });
      for (const p of ANONYMOUS_PAGES) await measure(page, lang, p, problems);
      await signIn(page, env.server.url, undefined, lang);
      const pages = [...MEMBER_PAGES, await preparedPayment(page, lang)];
      for (const p of pages) await measure(page, lang, p, problems);
      await context.close();
      assert.equal(problems.length, 0, `${lang} at ${WIDTHS.join(" and ")} px:\n${problems.join("\n")}`);
    });
  }
});
