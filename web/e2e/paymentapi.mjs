// What the payment browser tests share: calls to the API as the page's
// member, card tokens from the sandbox gateway, waiting for a payment to
// end. Bound to a suite (harness.mjs e2eSuite):
//   const { apiCall, tokenize, paymentEnd } = paymentApi(env);
import assert from "node:assert/strict";
import { apiCall as harnessApiCall } from "./harness.mjs";

/** The suite's API helpers; the server's address is read at each call. */
export function paymentApi(env) {
  /** Calls the API as the page's member (harness.mjs apiCall), answers in `lang`. */
  function apiCall(page, method, p, body, lang = "en") {
    return harnessApiCall(page, env.server.url, method, p, body, { lang });
  }

  /** A card token made at the gateway, as the browser's card form does. */
  async function tokenize(page, number, cvv = "123") {
    const res = await page.request.post(`${env.server.url}/gateway/v1/tokens`, {
      headers: { "Content-Type": "application/json" },
      data: JSON.stringify({ cardNumber: number, expirationDate: "33/08", cvv, holderName: "TARO PEACH" }),
    });
    assert.equal(res.status(), 200, `token for ${number}`);
    return (await res.json()).token;
  }

  /**
   * Polls the payment process until it has ended (settled or failed) and
   * returns its status; fails after timeoutMs.
   */
  async function paymentEnd(page, id, timeoutMs = 10000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const s = await apiCall(page, "GET", `/api/payment_processes/${id}/status`);
      if (s.body.status === "settled" || s.body.status === "failed") return s.body.status;
      if (Date.now() > until) throw new Error(`payment ${id} did not end: ${JSON.stringify(s.body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return { apiCall, tokenize, paymentEnd };
}

/**
 * Types a new card into the payment panel (English page): "A new credit
 * card" from the method chooser first when a saved card is chosen.
 */
export async function typeNewCard(page, number, holder = "TARO PEACH") {
  if (!(await page.getByLabel("Card number").isVisible())) {
    await page.getByRole("button", { name: "Change", exact: true }).click();
    await page.getByRole("dialog", { name: "Choose a payment method" }).getByText("A new credit card").click();
  }
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry date (MM/YY)").fill("08/33");
  await page.getByLabel("Security code (CVV)").fill("123");
  await page.getByLabel("Cardholder name").fill(holder);
}
