/* global document */
// Pending payments: a convenience-store payment left for later is found
// again from the home page and the menu, shows its slip numbers and its
// deadline in Japan time, blocks a new purchase with a link to it, and can
// be cancelled. Screenshots at 375 and 1280 px in en, jp and th; axe finds
// nothing on the page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS, DEMO2 } from "./harness.mjs";
import { expectNoAxeViolations as axe } from "./axe.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const { apiCall } = paymentApi(env);

/** A points purchase paid at a convenience store, left pending. */
async function leaveSlip(page) {
  const buy = await apiCall(page, "POST", "/api/peachpoints/buy", {
    nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "convenienceStore", requestId: `slip-${Date.now()}`,
  });
  assert.equal(buy.status, 200, JSON.stringify(buy.body));
  const id = buy.body.paymentProcessId;
  const cont = await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`);
  assert.equal(cont.body.status, "pending");
  return id;
}

test("a slip left for later: home, menu, the pending payments page, the purchase block and cancel", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  const id = await leaveSlip(page);
  const list = await apiCall(page, "GET", "/api/payments/pending");
  const slip = list.body.payments[0].slip;
  assert.ok(slip.receiptNumber, "the slip has a receipt number");

  // home: a notice naming it, and the menu's link
  await page.goto(`${env.server.url}/?lang=en`);
  const notice = page.locator(".pending-notice");
  await notice.getByText(/You have a payment waiting: .*JPY 3,000/).waitFor();
  await notice.getByText("(Japan time)").waitFor();
  await page.locator("nav.nav").getByRole("link", { name: /Pending payments/ }).waitFor();

  // the page
  await notice.getByRole("link", { name: "Open pending payments" }).click();
  await page.waitForURL(/\/payments\/pending/);
  await page.getByRole("heading", { name: "Pending payments", level: 1 }).waitFor();
  await page.getByText(slip.receiptNumber).waitFor();
  await page.getByText(slip.customerNumber).waitFor();
  await page.getByText("JPY 3,000").first().waitFor();
  await page.getByText(/\(Japan time\)/).first().waitFor();
  const pay = page.getByRole("link", { name: "Show the payment slip" });
  assert.match(await pay.getAttribute("href"), /\/gateway\/pay\//);

  // a new purchase is blocked with a link to it
  await page.goto(`${env.server.url}/points/sale?lang=en`);
  const block = page.locator(".pending-notice");
  await block.getByText(/A payment you started holds new purchases for about 30\sminutes/).waitFor();
  await screenshot(page, "pending-block-en-desktop");
  await block.getByRole("link", { name: "Open pending payments" }).click();
  await page.waitForURL(/\/payments\/pending/);

  // cancel: asked once more, then done; the menu link goes
  await page.getByRole("button", { name: "Cancel this payment" }).click();
  await page.getByText("Cancel this payment?").waitFor();
  await screenshot(page, "pending-cancel-ask-en-desktop");
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await page.getByText(/has been cancelled\. Nothing was charged\./).waitFor();
  await page.getByText("You have no payments waiting.").waitFor();
  await screenshot(page, "pending-cancelled-en-desktop");
  assert.equal(await page.locator("nav.nav").getByRole("link", { name: /Pending payments/ }).count(), 0);
  const st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
  assert.equal(st.body.status, "failed");
  assert.equal(st.body.failureCode, "canceled");
  await context.close();
});

test("the pending payments page in en, jp and th at 375 and 1280 px", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  await leaveSlip(page);
  await context.close();
  for (const lang of ["en", "jp", "th"]) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(size);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}/payments/pending?lang=${lang}`);
      await page.locator(".pending-payment__number").first().waitFor();
      await screenshot(page, `pending-page-${lang}-${vp}`);
      await axe(page, `pending ${lang} ${vp}`);
      await page.goto(`${env.server.url}/?lang=${lang}`);
      await page.locator(".pending-notice").waitFor();
      await screenshot(page, `pending-home-${lang}-${vp}`);
      await axe(page, `home ${lang} ${vp}`);
      if (vp === "phone") {
        await page.getByRole("button", { name: /Menu|メニュー|เมนู/ }).click();
        await page.getByRole("dialog").locator(".nav__badge").waitFor();
        await screenshot(page, `pending-menu-${lang}-${vp}`);
      }
      await context.close();
    }
  }
});

test("cancelling a slip on its result page and on Pending payments: asked first, then said as cancelled with nothing charged, the focus on it and a way back in it (en, th at 375 px)", async () => {
  const words = {
    en: { done: "You cancelled this payment.", again: "Start again", cancelled: /has been cancelled\. Nothing was charged\./, buy: "Buy Peach Points" },
    th: { done: "คุณได้ยกเลิกการชำระเงินนี้แล้ว", again: "เริ่มใหม่", cancelled: /ไม่มีการเรียกเก็บเงิน/, buy: "ซื้อพีชพอยต์" },
  };
  for (const lang of ["en", "th"]) {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    // the second member: the test above leaves the first one's slip waiting
    await signIn(page, env.server.url, DEMO2, lang);
    const id = await leaveSlip(page);
    await page.goto(`${env.server.url}/payment/peachpoints/${id}/result?lang=${lang}`);
    await page.locator(".payment-wait").getByRole("button").last().click();
    const ask = page.locator(".pending-payment__confirm");
    await ask.waitFor();
    await screenshot(page, `pending-result-ask-${lang}-phone`);
    await ask.getByRole("button").first().click();
    const done = page.getByText(words[lang].done);
    await done.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "status");
    assert.equal(await page.locator('[role="status"]:focus').getByText(words[lang].done).count(), 1);
    await axe(page, `result cancelled ${lang}`);
    await screenshot(page, `pending-result-cancelled-${lang}-phone`);
    if (lang === "en") assert.equal(await page.getByText("The payment was not completed.").count(), 0);
    // the way back to the purchase is in what happened, the next stop of the keyboard
    const outcome = page.locator('[role="status"]:focus');
    assert.match(await outcome.getByRole("link", { name: words[lang].again }).getAttribute("href"), /\/points\/sale\?again=1/);
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), words[lang].again);
    const st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
    assert.equal(st.body.failureCode, "canceled");

    // on Pending payments: the card goes, the focus goes to what happened, which links back to the purchase
    await leaveSlip(page);
    await page.goto(`${env.server.url}/payments/pending?lang=${lang}`);
    await page.locator(".pending-payment").getByRole("button").last().click();
    await page.locator(".pending-payment__confirm").getByRole("button").first().click();
    // in what happened (role status), not in the question still closing
    await page.locator('[role="status"]').getByText(words[lang].cancelled).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "status");
    const back = page.locator('[role="status"]:focus').getByRole("link", { name: words[lang].buy });
    assert.match(await back.getAttribute("href"), /\/points/);
    await axe(page, `pending cancelled ${lang}`);
    await screenshot(page, `pending-cancelled-${lang}-phone`);
    await context.close();
  }
});
