// Waiting states of a payment: each says what is happening and what the
// member can do, survives a reload (the result page finds the process
// from the address) and ends in a result. The slow card (…0119) is
// reloaded in the middle of its wait; Back from the card challenge lands
// on the challenge state with Continue and Cancel. Screenshots at 375 and
// 1280 px in en, jp and th; axe finds nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";
import { expectNoAxeViolations as axe } from "./axe.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const { apiCall, tokenize } = paymentApi(env);

let seq = 0;
async function prepare(page, card) {
  const r = await apiCall(page, "POST", "/api/peachpoints/buy", {
    nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "creditCard",
    creditCardToken: await tokenize(page, card), requestId: `wait-${Date.now()}-${seq++}`,
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.paymentProcessId;
}

/** Waits until the server has taken the payment on (it is no longer only prepared). */
async function processUnderWay(page, id) {
  const until = Date.now() + 10000;
  for (;;) {
    const st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
    if (st.body.status !== "prepared") return;
    if (Date.now() > until) throw new Error(`payment ${id} still only prepared`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const SENDING = { en: "Sending your payment to your card company…", jp: "カード会社に決済を送信しています…", th: "กำลังส่งการชำระเงินไปยังผู้ออกบัตรของคุณ…" };
const ANSWER = { en: "Waiting for your card company's answer", jp: "カード会社の応答を待っています", th: "กำลังรอคำตอบจากผู้ออกบัตรของคุณ" };
const COMPLETED = { en: "Payment completed" };

for (const [lang, vp] of [["en", "phone"], ["jp", "desktop"], ["th", "phone"]]) {
  test(`the slow card (${lang}, ${vp}): says what happens, survives a reload, ends in a result`, async () => {
    const { context, page } = await env.newPage(VIEWPORTS[vp]);
    await signIn(page, env.server.url, undefined, lang);
    const id = await prepare(page, "4000000000000119");
    await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=${lang}`);
    await page.locator(".button--block").click();
    await page.getByText(SENDING[lang]).waitFor();
    await screenshot(page, `payment-wait-sending-${lang}-${vp}`);
    await axe(page, `sending ${lang} ${vp}`);
    // reload in the middle of the wait, once the server has the payment
    // under way: the page finds the process again
    await processUnderWay(page, id);
    await page.reload();
    await page.waitForURL(new RegExp(`/payment/peachpoints/${id}/(result|completed)`), { timeout: 20000 });
    if (page.url().includes("/result")) {
      await page.getByText(ANSWER[lang]).waitFor({ timeout: 20000 }).catch(() => {}); // may already be over
      await screenshot(page, `payment-wait-answer-${lang}-${vp}`);
    }
    await page.waitForURL(/\/completed/, { timeout: 60000 });
    if (lang === "en") await page.getByRole("heading", { name: COMPLETED.en }).waitFor();
    const st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
    assert.equal(st.body.status, "settled");
    await context.close();
  });
}

test("Back during the card challenge: the challenge state with Continue and Cancel; cancel ends in a result", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  const id = await prepare(page, "4000000000003220");
  await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=en`);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/gateway\/challenge\//);
  await page.goBack();
  await page.waitForURL(new RegExp(`/payment/peachpoints/${id}/result`));
  await page.getByText("Your card company asks you to confirm this payment").waitFor();
  assert.equal(await page.getByText("Show the payment status").count(), 0);
  const go = page.getByRole("link", { name: "Continue to card confirmation" });
  assert.match(await go.getAttribute("href"), /\/gateway\/challenge\//);
  // a reload keeps it
  await page.reload();
  await page.getByText("Your card company asks you to confirm this payment").waitFor();
  await page.getByRole("button", { name: "Cancel this payment" }).click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  // said as cancelled, not failed, with nothing charged
  const outcome = page.locator(".pay-notice--done");
  await outcome.getByText("You cancelled this payment.", { exact: true }).waitFor();
  await outcome.getByText("Nothing was charged.").waitFor();
  assert.equal(await page.getByText("The payment was not completed.").count(), 0);
  await page.getByRole("link", { name: "Start again" }).waitFor();
  await screenshot(page, "payment-wait-cancelled-en-desktop");
  await context.close();
});

test("the challenge, QR and slip waiting states in en, jp and th at 375 and 1280 px", async () => {
  for (const lang of ["en", "jp", "th"]) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(size);
      await signIn(page, env.server.url, undefined, lang);
      const bodies = {
        challenge: null,
        qr: { paymentMethod: "otherPayment", otherPaymentType: "paypay" },
        slip: { paymentMethod: "convenienceStore" },
      };
      for (const [kind, extra] of Object.entries(bodies)) {
        if (kind !== "challenge" && vp === "phone" && lang !== "th") continue;
        const body = { nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, requestId: `state-${Date.now()}-${seq++}`,
          ...(extra ?? { paymentMethod: "creditCard", creditCardToken: await tokenize(page, "4000000000003220") }) };
        const r = await apiCall(page, "POST", "/api/peachpoints/buy", body);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const id = r.body.paymentProcessId;
        await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`);
        await page.goto(`${env.server.url}/payment/peachpoints/${id}/result?lang=${lang}`);
        await page.locator(".payment-wait .button--primary").waitFor();
        await screenshot(page, `payment-wait-${kind}-${lang}-${vp}`);
        if (kind === "slip" && lang === "th") {
          // Thai has no spaces: the line may break where the dictionary sees a
          // word end, but internet banking stays whole (it was cut inside at 375 px)
          const lines = await page.locator(".payment-wait").evaluate((el, word) => {
            const walk = globalThis.document.createTreeWalker(el, globalThis.NodeFilter.SHOW_TEXT);
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
              const i = n.data.indexOf(word);
              if (i < 0) continue;
              const r = globalThis.document.createRange();
              r.setStart(n, i);
              r.setEnd(n, i + word.length);
              return new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size;
            }
            return 0;
          }, "อินเทอร์เน็ตแบงกิ้ง");
          assert.equal(lines, 1, `${vp}: internet banking on ${lines} lines`);
        }
        await axe(page, `${kind} ${lang} ${vp}`);
        // Cancel asks first, as on Pending payments; the question takes focus
        await page.locator(".payment-wait button").click();
        const ask = page.locator(".payment-wait .pending-payment__confirm");
        await ask.waitFor();
        await page.waitForFunction(() => globalThis.document.activeElement?.closest(".pending-payment__confirm .button--primary") != null);
        assert.equal((await apiCall(page, "GET", `/api/payment_processes/${id}/status`)).body.status, "pending", `${kind} ${lang} ${vp}: nothing cancelled before the answer`);
        await ask.locator(".button--primary").click();
        // the outcome: cancelled (not the failure's warning), with the focus on it
        await page.locator(".pay-notice--done").waitFor();
        await page.waitForFunction(() => globalThis.document.activeElement?.classList.contains("pay-notice--done"));
        const st = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
        assert.equal(st.body.failureCode, "canceled", `${kind} ${lang} ${vp}`);
      }
      await context.close();
    }
  }
});
