// The sandbox gateway's customer pages in a real browser: the challenge
// (approve and fail), the QR page and the konbini slip, on a phone and a
// desktop, in several languages, with axe-core; each step ends back at the
// shop's returnUrl with ?paymentId=.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, screenshot, VIEWPORTS } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";

const KEY = "sk_test_e2e_gateway";
const env = e2eSuite({ before, after }, { serverArgs: ["--gateway-key", KEY] });

let seq = 0;
async function api(method, path, body) {
  const res = await fetch(`${env.server.url}/gateway${path}`, {
    method,
    headers: {
      "Content-Type": "application/json",
      Authorization: `Bearer ${KEY}`,
      "Idempotency-Key": `e2e-${Date.now()}-${seq++}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Creates and authorises a payment; returns it with its nextAction. */
async function pending(method, cardNumber) {
  let token;
  if (cardNumber) {
    const res = await fetch(`${env.server.url}/gateway/v1/tokens`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ cardNumber, expirationDate: "35/01", cvv: "123", holderName: "HANAKO SATO" }),
    });
    token = (await res.json()).token;
  }
  const p = await api("POST", "/v1/payments", {
    amount: 12000, currency: "JPY", method, token, description: "Peach Points 1,000",
    reference: `PP-${seq}`, returnUrl: `${env.server.url}/login?from=gateway`,
  });
  return api("POST", `/v1/payments/${p.id}/authorize`);
}

async function violations(page) {
  const r = await axeBuilder(page).analyze();
  return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

async function backAtShop(page, id) {
  await page.waitForURL((u) => u.searchParams.get("paymentId") === id);
}

test("challenge: approve and fail, phone and desktop", async () => {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const [lang, approve, fail] of [["jp", "承認する", "認証に失敗させる"], ["en", "Approve", "Fail authentication"]]) {
      const { context, page } = await env.newPage(viewport);
      const p = await pending("card", "4000000000003220");
      assert.equal(p.status, "requires_action");
      await page.goto(`${p.nextAction.url}?lang=${lang}`);
      await page.getByRole("button", { name: approve }).waitFor();
      assert.deepEqual(await violations(page), []);
      await screenshot(page, `gateway-challenge-${lang}-${device}`);
      await page.getByRole("button", { name: device === "phone" ? approve : fail }).click();
      await backAtShop(page, p.id);
      const after = await api("GET", `/v1/payments/${p.id}`);
      assert.equal(after.status, device === "phone" ? "authorized" : "failed");
      await context.close();
    }
  }
});

test("QR page: pay now settles the payment", async () => {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    const { context, page } = await env.newPage(viewport);
    const p = await pending("paypay");
    assert.equal(p.status, "pending");
    await page.goto(`${p.nextAction.url}?lang=cn`);
    const qr = page.getByRole("img", { name: "此笔付款的二维码" });
    await qr.waitFor();
    assert.ok(await qr.evaluate((img) => img.complete && img.naturalWidth > 0), "the QR image loads");
    assert.deepEqual(await violations(page), []);
    await screenshot(page, `gateway-qr-cn-${device}`);
    await page.getByRole("button", { name: "立即付款" }).click();
    await backAtShop(page, p.id);
    assert.equal((await api("GET", `/v1/payments/${p.id}`)).status, "captured");
    await context.close();
  }
});

test("konbini slip: pay later keeps it pending, pay now settles", async () => {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    const { context, page } = await env.newPage(viewport);
    const p = await pending("konbini");
    await page.goto(`${p.nextAction.url}?lang=th`);
    await page.getByText("58191").waitFor();
    assert.deepEqual(await violations(page), []);
    await screenshot(page, `gateway-slip-th-${device}`);
    await page.getByRole("button", { name: "กลับไปที่ร้านค้าและชำระภายหลัง" }).click();
    await backAtShop(page, p.id);
    assert.equal((await api("GET", `/v1/payments/${p.id}`)).status, "pending");
    await page.goto(`${p.nextAction.url}?lang=kr`);
    await page.getByRole("button", { name: "지금 결제" }).click();
    await backAtShop(page, p.id);
    assert.equal((await api("GET", `/v1/payments/${p.id}`)).status, "captured");
    await context.close();
  }
});
