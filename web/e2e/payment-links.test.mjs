// Every link of the payment result pages leads somewhere: for each product
// (points, the unlimited pass, the coupon pass) a declined payment's result
// page and a settled payment's completed page are opened and each of their
// links is followed; none ends on "Page not found".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, signIn, VIEWPORTS, root } from "./harness.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const { apiCall, tokenize, paymentEnd } = paymentApi(env);
const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
const members = (...args) => execFileSync(bin, [...args, "--db", env.server.dsn], { encoding: "utf8" });

const PRODUCTS = {
  peachpoints: { nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000 },
  gogo_pass: { planId: "gp-all", periodId: "gp-all-next", fareType: "happlus" },
  coupon_ticket: {
    productId: "cp-kansai", periodId: "cp-kansai-winter", fareType: "lite", agreeTerms: true,
    additionalPassengers: [{
      passengerType: "adult", lastname: "Lee", firstname: "Mina", gender: "female", dateOfBirth: "1990-01-01",
      nationalityCode: "KR", passportNo: "M1234567", dateOfEntry: "2026-12-03", inboundTransportMethod: "air", inboundFlightNo: "MM702",
    }],
  },
};

let seq = 0;
/** Buys and continues with the card; returns the process once it has ended. */
async function purchase(page, product, card) {
  const token = await tokenize(page, card);
  const buy = await apiCall(page, "POST", `/api/${product}/buy`, {
    ...PRODUCTS[product], paymentMethod: "creditCard", creditCardToken: token, requestId: `links-${Date.now()}-${seq++}`,
  });
  assert.equal(buy.status, 200, `${product} buy: ${JSON.stringify(buy.body)}`);
  const id = buy.body.paymentProcessId;
  await apiCall(page, "POST", `/api/${product}/buy/${id}/continue`);
  return { id, status: await paymentEnd(page, id) };
}

/** Opens the page, then follows each of its page links (not the menu's) in turn. */
async function followLinks(page, pathname, ready) {
  await page.goto(`${env.server.url}${pathname}?lang=en`);
  await ready();
  const hrefs = await page.locator(".payment-page a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(hrefs.length > 0, `${pathname} has links`);
  for (const href of hrefs) {
    await page.goto(`${env.server.url}${pathname}?lang=en`);
    await ready();
    await page.locator(`.payment-page a[href="${href}"]`).first().click();
    await page.waitForURL((u) => u.pathname !== pathname);
    await page.locator("main, .page").first().waitFor();
    await page.waitForLoadState("networkidle");
    assert.equal(await page.getByText("Page not found").count(), 0, `${pathname} → ${href}: Page not found`);
  }
  return hrefs;
}

test("the result and completed pages' links lead to real pages for every product", async () => {
  members("admin", "gogo-pass", "--public", "--purchasable", "--maintenance", "off");
  members("admin", "coupon-ticket", "--public");
  const context = await env.browser.newContext({ viewport: VIEWPORTS.desktop, locale: "en-US" });
  const page = await context.newPage();
  await signIn(page, env.server.url);
  for (const product of Object.keys(PRODUCTS)) {
    const failed = await purchase(page, product, "4000000000000002");
    assert.equal(failed.status, "failed", product);
    const again = await followLinks(page, `/payment/${product}/${failed.id}/result`,
      () => page.getByRole("link", { name: "Start again" }).waitFor());
    assert.ok(again.length >= 1, product);

    const settled = await purchase(page, product, "4242424242424242");
    assert.equal(settled.status, "settled", product);
    const done = await followLinks(page, `/payment/${product}/${settled.id}/completed`,
      () => page.getByRole("heading", { name: "Payment completed" }).waitFor());
    assert.ok(done.length >= 2, `${product}: Back and Home`);
  }
  await context.close();
});
