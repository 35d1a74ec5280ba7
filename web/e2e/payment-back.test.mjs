// Leaving a payment and coming back: Back from a card payment in
// flight, or after its capture, shows that payment's state and result, never
// a blank sale form that invites a second payment; after a session expiry the
// payment stays on the page behind the login dialog and shows again once the
// member has logged in; the losing tab of a two-tab purchase says what
// happened and links to the result. Screenshots at 375 px in en, jp and th.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { advanceServerClock, e2eSuite, signIn, screenshot, DEMO, VIEWPORTS } from "./harness.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after }, { serverArgs: ["--test-clock"] });
const { apiCall, tokenize } = paymentApi(env);

/** How many JPY vouchers the member holds (every purchase of points issues one). */
async function jpyVouchers(page) {
  const r = await apiCall(page, "GET", "/api/peachpoints?currencyCode=JPY&hasBalance=false&isOnlyActive=false");
  assert.equal(r.status, 200, r.text);
  return r.body.total;
}

/** The points sale up to the confirm page, with a new card typed into the panel; returns the buy calls the page made. */
async function toConfirm(page, lang, card) {
  const buys = [];
  page.on("request", (r) => { if (r.method() === "POST" && /\/api\/peachpoints\/buy$/.test(new URL(r.url()).pathname)) buys.push(r.url()); });
  await page.goto(`${env.server.url}/points/sale?lang=${lang}`);
  await page.locator('input[autocomplete="name"]').fill("HANAKO YAMADA");
  await page.locator("#sale-currency").selectOption("JPY");
  await page.locator("#sale-amount").selectOption({ index: 1 });
  await page.locator('form button[type="submit"]').click();
  await page.locator("#payment-panel-title").waitFor();
  if (!(await page.locator('input[autocomplete="cc-number"]').isVisible())) {
    await page.locator(".payment-panel__method-head button").click();
    await page.locator(".method-chooser__list").first().locator("li").last().locator("button").click(); // a new card
  }
  await page.locator('input[autocomplete="cc-number"]').fill(card);
  await page.locator('input[autocomplete="cc-exp"]').fill("08/33");
  await page.locator('input[autocomplete="cc-csc"]').fill("123");
  await page.locator('input[autocomplete="cc-name"]').fill("HANAKO YAMADA");
  await page.locator(".payment-panel__confirm").click();
  await page.waitForURL(/\/payment\/peachpoints\/[0-9a-f]+\?/);
  return { buys, id: new URL(page.url()).pathname.split("/")[3] };
}

for (const lang of ["en", "jp", "th"]) {
  test(`Back while the slow card's payment is in flight (${lang}, 375 px): the payment's state and result, no second order`, async () => {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, env.server.url, DEMO, lang);
    const before = await jpyVouchers(page);
    // card …0119: the card company answers late, so Back comes while the payment is in flight
    const { buys, id } = await toConfirm(page, lang, "4000000000000119");
    await page.locator(".payment-page .button--block").click();
    await page.locator(".payment-wait").waitFor();
    await page.goBack();
    // the payment's own page, with what it buys and where it stands: not the sale form
    await page.waitForURL(new RegExp(`/payment/peachpoints/${id}/(result|completed)`));
    await page.locator(".order-summary, .payment-done").first().waitFor();
    assert.equal(await page.locator("#sale-currency").count(), 0, "no sale form");
    await page.locator(".loading-overlay").waitFor({ state: "hidden" });
    await screenshot(page, `payment-back-inflight-${lang}-phone`);
    await page.waitForURL(/\/completed/, { timeout: 60000 });
    await page.locator(".payment-done").waitFor();
    await screenshot(page, `payment-back-inflight-completed-${lang}-phone`);
    // one order, one voucher
    assert.equal(buys.length, 1, "one buy call");
    const st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
    assert.equal(st.body.status, "settled");
    assert.equal(await jpyVouchers(page), before + 1);
    const pending = await apiCall(page, "GET", "/api/cc/pending");
    assert.equal(pending.body.pending, false, "no second order under way");
    await context.close();
  });
}

test("Back after the capture (a card that pays at once): the completed payment, not a blank sale form", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  await signIn(page, env.server.url);
  const before = await jpyVouchers(page);
  const { buys, id } = await toConfirm(page, "en", "4242424242424242");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.getByRole("heading", { name: "Payment completed" }).waitFor();
  await page.goBack();
  await page.waitForURL(new RegExp(`/payment/peachpoints/${id}/completed`));
  await page.getByRole("heading", { name: "Payment completed" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Go to payment" }).count(), 0, "no sale form");
  await screenshot(page, "payment-back-captured-en-phone");
  assert.equal(buys.length, 1, "one buy call");
  assert.equal(await jpyVouchers(page), before + 1);
  await context.close();
});

test("Back from the confirm page before paying: the sale form, and the order is still only prepared", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  await signIn(page, env.server.url);
  const { id } = await toConfirm(page, "en", "4242424242424242");
  await page.getByRole("heading", { name: "Confirm your order" }).waitFor();
  await page.goBack();
  await page.waitForURL(/\/points\/sale/);
  await page.getByRole("button", { name: "Go to payment" }).waitFor();
  const st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
  assert.equal(st.body.status, "prepared");
  await context.close();
});

const IDLE_LIMIT_SECONDS = 30 * 60;

for (const lang of ["en", "jp", "th"]) {
  test(`a session expiry on a payment's page (${lang}, 375 px): the payment stays behind the login dialog and shows again after the login`, async () => {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, env.server.url, DEMO, lang);
    // a payment waiting for the card company's confirmation: its page asks for its status every 2 s
    const r = await apiCall(page, "POST", "/api/peachpoints/buy", {
      nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "creditCard",
      creditCardToken: await tokenize(page, "4000000000003220"), requestId: `expiry-${lang}-${Date.now()}`,
    });
    assert.equal(r.status, 200, r.text);
    const id = r.body.paymentProcessId;
    await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`);
    await page.goto(`${env.server.url}/payment/peachpoints/${id}/result?lang=${lang}`);
    await page.locator(".payment-wait").waitFor();
    await advanceServerClock(env.server, IDLE_LIMIT_SECONDS + 60);
    const dialog = page.locator('[role="alertdialog"]');
    await dialog.waitFor();
    // behind the dialog: the payment, not "not found"
    await page.locator(".order-summary").waitFor();
    assert.equal(await page.getByText("This payment was not found.").count(), 0);
    assert.equal(await page.locator("p.page.pay-notice").count(), 0, "no 'payment not found' page");
    await screenshot(page, `payment-session-expired-${lang}-phone`);
    await dialog.locator("button").click();
    await page.waitForURL(/\/login\?/);
    await page.locator('input[type="email"]').fill(DEMO.email);
    await page.locator('input[type="password"]').fill(DEMO.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(new RegExp(`/payment/peachpoints/${id}/result`));
    await page.locator(".order-summary").waitFor();
    await page.locator(".loading-overlay").waitFor({ state: "hidden" });
    assert.equal(await page.locator("p.page.pay-notice").count(), 0, "no 'payment not found' page");
    await screenshot(page, `payment-session-expired-relogin-${lang}-phone`);
    // ended, so that the next test's purchase is not blocked by it
    await apiCall(page, "POST", `/api/payments/${id}/cancel`);
    await context.close();
  });
}

const REPLACED = {
  en: "Another window or tab replaced this order",
  jp: "別のウィンドウまたはタブの注文に置き換えられました",
  th: "คำสั่งซื้อนี้ถูกแทนที่ด้วยคำสั่งซื้อจากหน้าต่างหรือแท็บอื่น",
};

for (const lang of ["en", "jp", "th"]) {
  test(`the losing tab of a two-tab purchase (${lang}, 375 px): says what happened and links to the payment that won`, async () => {
    const { context, page: first } = await env.newPage(VIEWPORTS.phone);
    await signIn(first, env.server.url, DEMO, lang);
    const before = await jpyVouchers(first);
    // two tabs of one member each make an order; the second replaces the first
    const { id: a } = await toConfirm(first, lang, "4242424242424242");
    const second = await context.newPage();
    const { id: b } = await toConfirm(second, lang, "4242424242424242");
    await second.locator(".payment-page .button--block").click();
    await second.waitForURL(new RegExp(`/payment/peachpoints/${b}/completed`));
    // the first tab pays its order
    await first.locator(".payment-page .button--block").click();
    const notice = first.getByRole("alert").filter({ hasText: REPLACED[lang] });
    await notice.waitFor();
    assert.match(first.url(), new RegExp(`/payment/peachpoints/${a}/result`));
    await first.locator(".loading-overlay").waitFor({ state: "hidden" });
    await screenshot(first, `payment-two-tabs-losing-${lang}-phone`);
    // its link leads to the order that was paid
    await notice.getByRole("link").click();
    await first.waitForURL(new RegExp(`/payment/peachpoints/${b}/(result|completed)`));
    await first.locator(".payment-done").waitFor();
    // one order paid, the other replaced with nothing charged
    const st = await apiCall(first, "GET", `/api/payment_processes/${a}/status`);
    assert.equal(st.body.status, "expired");
    assert.equal(st.body.replacedBy?.paymentProcessId, b);
    assert.equal(await jpyVouchers(first), before + 1);
    await context.close();
  });
}
