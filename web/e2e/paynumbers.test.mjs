/* global document, getComputedStyle */
// A payment number never breaks (WCAG reflow at 320 px): a member reads a
// slip's numbers out at the shop's till, types a voucher's number, reads
// an amount. In each of the eight languages, at 320 px, every number on
// the confirm page, the result page (a slip waiting to be paid), Pending
// payments, the completed page and the slip mails' HTML part is on one
// line and inside the screen. A number is measured as the browser lays it
// out (the line boxes of its text), not by its CSS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, signIn, screenshot, root } from "./harness.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const { apiCall, tokenize, paymentEnd } = paymentApi(env);
const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
const members = (...args) => execFileSync(bin, [...args, "--db", env.server.dsn], { encoding: "utf8" });

const LANGS = ["jp", "en", "sg", "kr", "cn", "tw", "hk", "th"];
const LOOKED_AT = new Set(["en", "jp", "th"]); // screenshots
const NARROW = { width: 320, height: 740 };

/** The mails of a kind, newest first, as `members mail list` lists them: their ids. */
function mailIds(kind) {
  return members("mail", "list").split("\n").filter((l) => l.split(/\s+/).includes(kind)).map((l) => l.split(/\s+/)[0]);
}

/** The HTML part of the first mail of kind not among seen, waiting for the outbox. */
async function newMail(kind, seen) {
  for (const end = Date.now() + 30000; ; await new Promise((r) => setTimeout(r, 200))) {
    const id = mailIds(kind).find((x) => !seen.includes(x));
    // the command heads the HTML with the mail's id, kind and subject: the mail starts at its doctype
    if (id) return { id, html: members("mail", "show", "--html", id).replace(/^[\s\S]*?(?=<!DOCTYPE)/i, "") };
    if (Date.now() > end) throw new Error(`no new ${kind} mail:\n${members("mail", "list")}`);
  }
}

/**
 * The numbers (texts with a digit) of the elements selector finds, as laid
 * out: how many lines their text takes and where it starts and ends.
 */
function measure(page, selector) {
  return page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((el) => /\d/.test(el.textContent ?? "")).map((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const top = Math.min(...rects.map((r) => r.top));
    const lineHeight = parseFloat(getComputedStyle(el).fontSize) * 0.8;
    const all = range.getBoundingClientRect();
    return { text: (el.textContent ?? "").trim(), lines: 1 + rects.filter((r) => r.top > top + lineHeight).length, left: all.left, right: all.right };
  }), selector);
}

/** Every number selector finds on page is on one line inside the width; at least one is found. */
async function oneLine(page, selector, where, width = NARROW.width) {
  const got = await measure(page, selector);
  assert.ok(got.length > 0, `${where}: no number found (${selector})`);
  for (const n of got) {
    assert.equal(n.lines, 1, `${where}: "${n.text}" takes ${n.lines} lines`);
    assert.ok(n.left >= 0 && n.right <= width + 0.5, `${where}: "${n.text}" runs from ${n.left} to ${n.right}, outside ${width} px`);
  }
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scroll > width) {
    // what sticks out, innermost last
    const out = await page.evaluate((w) => [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > w + 0.5)
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}: ${(el.textContent ?? "").trim().slice(0, 50)}`).slice(-6), width);
    assert.fail(`${where}: the page is ${scroll} px wide:\n${out.join("\n")}`);
  }
  return got.map((n) => n.text);
}

const PAGE_NUMBERS = "main .order-summary__amount, main .pending-payment__number, main .pay-number, main .nowrap";
const MAIL_NUMBERS = 'td[style*="nowrap"]';

test("slip numbers and amounts never break at 320 px: confirm, result, Pending payments and the slip mails, in every language", async () => {
  const { context, page } = await env.newPage(NARROW);
  await signIn(page, env.server.url);
  for (const lang of LANGS) {
    const where = (s) => `${lang} ${s}`;
    const buy = await apiCall(page, "POST", "/api/peachpoints/buy", {
      nominee: "TARO PEACH", currencyCode: "JPY", amount: 30000, paymentMethod: "convenienceStore", requestId: `numbers-${lang}-${Date.now()}`,
    }, lang);
    assert.equal(buy.status, 200, JSON.stringify(buy.body));
    const id = buy.body.paymentProcessId;

    // the confirm page: the total and the amount in its text
    await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=${lang}`);
    await page.locator("main .order-summary__amount").first().waitFor();
    const amounts = await oneLine(page, PAGE_NUMBERS, where("confirm page"));
    assert.ok(amounts.length >= 2, `${lang}: the total and the text's amount: ${amounts}`);
    if (LOOKED_AT.has(lang)) await screenshot(page, `paynumbers-confirm-${lang}-320`);

    const seenSlips = mailIds("payment_slip");
    assert.equal((await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`, undefined, lang)).body.status, "pending");
    const slip = (await apiCall(page, "GET", `/api/payment_processes/${id}/status`)).body.slip;
    assert.ok(slip?.receiptNumber, `${lang}: the slip's numbers`);

    // the result page (back from the gateway's slip page): the slip's numbers
    await page.goto(`${env.server.url}/payment/peachpoints/${id}/result?lang=${lang}`);
    await page.locator("main .pending-payment__number").first().waitFor();
    const onResult = await oneLine(page, PAGE_NUMBERS, where("result page"));
    for (const n of [slip.receiptNumber, slip.confirmationNumber, slip.institutionNumber, slip.customerNumber]) {
      assert.ok(onResult.includes(n), `${lang}: the result page shows ${n}: ${onResult}`);
    }
    if (LOOKED_AT.has(lang)) await screenshot(page, `paynumbers-result-${lang}-320`);

    // Pending payments
    await page.goto(`${env.server.url}/payments/pending?lang=${lang}`);
    await page.locator("main .pending-payment__number").first().waitFor();
    await oneLine(page, PAGE_NUMBERS, where("Pending payments"));

    // the slip mail, at 320 and 375 px
    const mail = await newMail("payment_slip", seenSlips);
    for (const width of [320, 375]) {
      await page.setViewportSize({ width, height: 740 });
      await page.setContent(mail.html);
      const inMail = await oneLine(page, MAIL_NUMBERS, where(`slip mail at ${width} px`), width);
      assert.ok(inMail.includes(slip.receiptNumber), `${lang}: the slip mail's numbers ${inMail}`);
      if (LOOKED_AT.has(lang)) await screenshot(page, `paynumbers-slipmail-${lang}-${width}`);
    }

    // cancelled: its mail repeats the receipt number, on one line
    const seenCancelled = mailIds("payment_slip_cancelled");
    assert.equal((await apiCall(page, "POST", `/api/payments/${id}/cancel`, undefined, lang)).body.failureCode, "canceled");
    const cancelled = await newMail("payment_slip_cancelled", seenCancelled);
    for (const width of [320, 375]) {
      await page.setViewportSize({ width, height: 740 });
      await page.setContent(cancelled.html);
      assert.deepEqual(await oneLine(page, MAIL_NUMBERS, where(`slip cancelled mail at ${width} px`), width), [slip.receiptNumber]);
      if (LOOKED_AT.has(lang)) await screenshot(page, `paynumbers-slipcancelled-${lang}-${width}`);
    }
    await page.setViewportSize(NARROW);
  }
  await context.close();
});

test("the completed page's voucher number, dates and amounts never break at 320 px (en, jp, th)", async () => {
  const { context, page } = await env.newPage(NARROW);
  await signIn(page, env.server.url);
  for (const lang of ["en", "jp", "th"]) {
    const token = await tokenize(page, "4242424242424242");
    const buy = await apiCall(page, "POST", "/api/peachpoints/buy", {
      nominee: "TARO PEACH", currencyCode: "JPY", amount: 30000, paymentMethod: "creditCard", creditCardToken: token, requestId: `numbers-card-${lang}-${Date.now()}`,
    }, lang);
    assert.equal(buy.status, 200, JSON.stringify(buy.body));
    const id = buy.body.paymentProcessId;
    await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`, undefined, lang);
    assert.equal(await paymentEnd(page, id), "settled");
    await page.goto(`${env.server.url}/payment/peachpoints/${id}/completed?lang=${lang}`);
    await page.locator("main .pay-number").first().waitFor();
    const numbers = await oneLine(page, PAGE_NUMBERS, `${lang} completed page`);
    assert.ok(numbers.some((n) => /^\d{16}$/.test(n)), `${lang}: the voucher number among ${numbers}`);
    await screenshot(page, `paynumbers-completed-${lang}-320`);
  }
  await context.close();
});
