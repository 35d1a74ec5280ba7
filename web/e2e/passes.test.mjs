/* global document */
// Passes end to end: plan choice and purchase of the unlimited pass, the
// lottery (entry, the operator's draw), exchange, the maintenance page, the
// coupon pass purchase, view and refund; screenshots at 375 and 1280 px in
// en, jp and th.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, signIn, screenshot, VIEWPORTS, root, DEMO2 } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";
import { typeNewCard } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
const members = (...args) => execFileSync(bin, [...args, "--db", env.server.dsn], { encoding: "utf8" });
// The operator's switches. Maintenance is off unless a test sets it: the
// command's default, "auto", follows the clock (03:00-05:00 Japan time, 18:00-20:00
// UTC), and a test run in that window would find the sale closed.
const flags = (...gogo) => {
  members("admin", "gogo-pass", ...(gogo.includes("--maintenance") ? gogo : [...gogo, "--maintenance", "off"]));
  members("admin", "coupon-ticket", "--public");
};

async function newPage(viewport = VIEWPORTS.desktop, lang = "en", user = undefined) {
  const { context, page } = await env.newPage(viewport);
  await signIn(page, env.server.url, user, lang);
  return { context, page };
}

/**
 * Screenshots of a page in en, jp and th at phone and desktop width; axe-core
 * finds no accessibility violations on each.
 */
async function shots(name, pathname, ready) {
  for (const lang of ["en", "jp", "th"]) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await newPage(size, lang);
      await page.goto(`${env.server.url}${pathname}?lang=${lang}`);
      await ready(page);
      await screenshot(page, `passes-${name}-${lang}-${vp}`);
      const r = await axeBuilder(page).analyze();
      const found = r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
      assert.deepEqual(found, [], `${name} ${lang} ${vp}`);
      await context.close();
    }
  }
}

const period = (page, id) => page.locator(".period", { has: page.locator(`input[value="${id}"]`) });

test("hidden while the operator keeps the pass closed", async () => {
  flags();
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/gogo-pass?lang=en`);
  await page.getByText("The unlimited pass is not on sale at the moment.").waitFor();
  await context.close();
});

test("plan choice and purchase of the unlimited pass through the payment panel", async () => {
  flags("--public", "--purchasable");
  await shots("gogo", "/gogo-pass", (p) => p.locator(".plan").first().waitFor());
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/gogo-pass?lang=en`);
  await page.getByText("Peach GoGo Pass", { exact: true }).first().waitFor();
  await page.getByText("All-you-can-fly pass").first().waitFor();
  await period(page, "gp-all-next").locator('input[value="happlus"]').check();
  await page.getByText("JPY 74,800").last().waitFor();
  await screenshot(page, "passes-gogo-chosen-en-desktop");
  await page.getByRole("button", { name: "Go to confirmation" }).click();
  await page.waitForURL(/\/payment\/gogo_pass\//);
  await page.locator(".order-details").getByText("Flights are booked at the Standard fare: a higher price, with more included than the Lite fare.").waitFor();
  await shots("gogo-confirm", new URL(page.url()).pathname, (p) => p.locator(".order-details").waitFor());
  await page.getByRole("button", { name: "Pay" }).click();
  await page.waitForURL(/completed/, { timeout: 20000 });
  // the completed page leads to the pass bought
  await page.getByRole("link", { name: "See it in My passes" }).click();
  await page.waitForURL((u) => u.pathname === "/my-passes");
  await page.getByRole("heading", { name: "Unlimited passes" }).waitFor();
  await page.locator(".pass-card").nth(1).waitFor();
  assert.equal(await page.locator(".pass-card").count(), 2);
  await context.close();
});

test("a declined card on the unlimited pass: Start again shows the plan, period and fare sent, ready to pay with another card", async () => {
  flags("--public", "--purchasable");
  // the second member: the first bought this period in the test above
  const { context, page } = await newPage(VIEWPORTS.phone, "en", DEMO2);
  await page.goto(`${env.server.url}/gogo-pass?lang=en`);
  await period(page, "gp-all-next").locator('input[value="happlus"]').check();
  await typeNewCard(page, "4000 0000 0000 0002");
  await page.getByRole("button", { name: "Go to confirmation" }).click();
  await page.waitForURL(/\/payment\/gogo_pass\//);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/result/);
  await page.getByText("The card was declined. Please use another card.").waitFor();
  await page.getByRole("link", { name: "Start again" }).click();
  await page.waitForURL((u) => u.pathname === "/gogo-pass");
  const kept = period(page, "gp-all-next").locator('input[value="happlus"]');
  await kept.waitFor();
  await page.waitForFunction(() => document.querySelector('.period input[value="happlus"]:checked') !== null);
  assert.ok(await kept.isChecked(), "the fare sent last is chosen again");
  await page.getByText("JPY 74,800").last().waitFor();
  await screenshot(page, "passes-gogo-again-en-phone");
  await context.close();
});

test("the maintenance page, forced by the operator", async () => {
  flags("--public", "--purchasable", "--maintenance", "on");
  await shots("maintenance", "/gogo-pass", (p) => p.locator(".pass-notice--warning").waitFor());
  flags("--public", "--purchasable");
});

test("lottery entry, confirmation page and the operator's draw", async () => {
  flags("--public", "--purchasable", "--lottery", "--draw-at", "2026-12-01T12:00:00+09:00");
  await shots("lottery", "/gogo-pass/lottery", (p) => p.locator(".plan").first().waitFor());
  const { context, page } = await newPage(VIEWPORTS.phone);
  await page.goto(`${env.server.url}/gogo-pass/lottery?lang=en`);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("Choose a period and a fare type.").waitFor();
  await period(page, "gp-weekday-next").locator('input[value="happy"]').check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Confirm your entry" }).waitFor();
  await screenshot(page, "passes-lottery-confirm-en-phone");
  await page.getByRole("button", { name: "Enter the lottery" }).click();
  await page.waitForURL(/\/gogo-pass\/lottery\/complete/);
  await page.getByText("Waiting for the draw").waitFor();
  await screenshot(page, "passes-lottery-complete-en-phone");
  // entered, before the draw: the pass page says when the draw is and offers no pass to pick
  await shots("gogo-lottery-entered", "/gogo-pass", async (p) => {
    await p.locator(".lottery-state__entry--entered").waitFor();
    assert.equal(await p.getByRole("radio").count(), 0, "no pass can be picked before the draw");
  });

  const out = members("lottery", "draw", "--seed", "e2e-seed");
  assert.match(out, /^e2e-seed\t\d+\n$/);
  assert.match(members("lottery", "verify"), /^e2e-seed\t\d+\tok\n$/);
  await page.goto(`${env.server.url}/gogo-pass?lang=en`);
  // won: the pass page says so and offers to buy it, and the button picks it
  await page.locator(".lottery-state").getByText("Won", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Buy your pass" }).click();
  await page.getByRole("heading", { name: "Your choice" }).waitFor();
  await screenshot(page, "passes-lottery-won-en-phone");
  await shots("gogo-lottery-won", "/gogo-pass", (p) => p.getByRole("button", { name: /Buy your pass|パスを購入する|ซื้อพาสของคุณ/ }).waitFor());
  await context.close();
  flags("--public", "--purchasable");
});

test("exchange of another pass type by code and password", async () => {
  flags("--public", "--purchasable");
  await shots("exchange", "/gogo-pass/exchange", (p) => p.locator("form.card").waitFor());
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/gogo-pass/exchange?lang=en`);
  await page.getByLabel("Exchange code").fill("GPX-DEMO-0002");
  await page.getByLabel("Password").fill("wrong");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText(/please contact the contact center/).waitFor();
  await screenshot(page, "passes-exchange-error-en-desktop");
  await page.getByRole("button", { name: "Back" }).click();
  // The member bought this code's period above: no second copy, the code stays unused.
  await page.getByLabel("Exchange code").fill("gpx-demo-0002");
  await page.getByLabel("Password").fill("pass1234");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText("You already have a pass for this period").first().waitFor();
  await screenshot(page, "passes-exchange-held-en-desktop");
  await page.keyboard.press("Escape");
  await page.getByLabel("Exchange code").fill("gpx-wkdy-0001");
  await page.getByLabel("Password").fill("pass1234");
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Confirm the exchange" }).waitFor();
  await page.getByRole("button", { name: "Exchange" }).click();
  await page.getByRole("heading", { name: "Your pass has been issued" }).waitFor();
  await screenshot(page, "passes-exchange-done-en-desktop");
  await context.close();
});

test("coupon pass, a domestic trip: no passport or entry details, a saved passenger fills one in", async () => {
  flags("--public", "--purchasable");
  for (const lang of ["en", "jp", "th"]) {
    for (const [vp, size] of Object.entries(VIEWPORTS)) {
      const { context, page } = await newPage(size, lang);
      await page.goto(`${env.server.url}/coupon-pass?lang=${lang}`);
      const product = page.locator(".coupon-choice select").first();
      await product.waitFor();
      await product.selectOption("cp-okinawa");
      await page.locator("form.coupon-form button.button--secondary").click(); // add a passenger
      const saved = page.locator(".passenger__saved select");
      await saved.waitFor();
      await saved.selectOption({ label: "Yamada Sakura" });
      assert.equal(await page.locator('input[name="additionalPassengers.0.lastname"]').inputValue(), "Yamada");
      assert.equal(await page.locator('input[name="additionalPassengers.0.passportNo"]').count(), 0, "no passport on a domestic trip");
      assert.equal(await page.locator('select[name="additionalPassengers.0.inboundTransportMethod"]').count(), 0);
      await screenshot(page, `passes-coupon-domestic-${lang}-${vp}`);
      const r = await axeBuilder(page).analyze();
      assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`), [], `domestic ${lang} ${vp}`);
      if (lang === "en" && vp === "desktop") {
        await page.getByLabel(/I agree to the terms/).check();
        await page.getByRole("button", { name: "Continue to payment" }).click();
        await page.getByRole("heading", { name: "Ready to pay" }).waitFor({ timeout: 8000 });
      }
      await context.close();
    }
  }
});

test("coupon pass: passengers with the age rules, total, purchase, view and refund", async () => {
  flags("--public", "--purchasable");
  await shots("coupon", "/coupon-pass", (p) => p.locator(".coupon-form .fare").first().waitFor());
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/coupon-pass?lang=en`);
  await page.getByRole("button", { name: "Add a passenger" }).click();
  await page.getByLabel("Passenger 2 last name").fill("Lee");
  await page.getByLabel("Passenger 2 first name").fill("Mina");
  await page.getByLabel("Passenger 2 gender").selectOption("female");
  await page.getByLabel("Passenger 2 date of birth").fill("2026-01-01");
  await page.getByLabel("Passenger 2 means of entry").selectOption("air");
  await page.getByLabel("Passenger 2 passport number").fill("M1234567");
  await page.getByLabel("Passenger 2 entry flight number").fill("MM702");
  await page.getByLabel("Passenger 2 date of entry").fill("2026-12-01");
  await page.getByLabel("Passenger 2 nationality").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Continue to payment" }).click();
  // An adult entry of a baby: refused with the passenger's position.
  await page.getByText("Passenger 2: children and adults must be 2 years old or over on the first boarding day.").first().waitFor();
  await page.getByLabel("Passenger 2 type").selectOption("adult");
  await page.getByLabel("Passenger 2 date of birth").fill("1990-05-05");
  await page.getByLabel(/I agree to the terms/).check();
  await page.getByText("JPY 65,600").first().waitFor();
  await screenshot(page, "passes-coupon-form-en-desktop");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("heading", { name: "Ready to pay" }).waitFor({ timeout: 8000 }).catch(async (e) => {
    await screenshot(page, "passes-coupon-debug");
    throw e;
  });
  await page.getByRole("button", { name: "Go to confirmation" }).click();
  await page.waitForURL(/\/payment\/coupon_ticket\//);
  // before paying: the order, the fare explained, the passengers, the refund fee and the terms
  const details = page.locator(".order-details");
  await details.getByText("Flights are booked at the Standard fare: a higher price, with more included than the Lite fare.").waitFor();
  await details.getByText("2 passengers").waitFor();
  await details.getByText(/a refund fee of JPY 9,000 per item is deducted: JPY 18,000 for its 2\s+items/).waitFor();
  await details.getByRole("link", { name: /terms and conditions/ }).waitFor();
  // ordered on an English page, the coupon pass is named in the language of the page that shows the order
  const couponName = { en: "Kansai Discovery Pass", jp: "関西ディスカバリーパス", th: "คันไซ ดิสคัฟเวอรี่ พาส" };
  await shots("coupon-confirm", new URL(page.url()).pathname, (p) =>
    p.locator(".order-details").getByText(couponName[new URL(p.url()).searchParams.get("lang")], { exact: true }).first().waitFor());
  await page.getByRole("button", { name: "Pay" }).click();
  await page.waitForURL(/completed/, { timeout: 20000 });

  await shots("mine", "/my-passes", (p) => p.locator(".coupon").first().waitFor());
  await page.goto(`${env.server.url}/my-passes?lang=en`);
  const card = page.locator(".coupon").first();
  await card.getByText("8 of 8 flights left").waitFor();
  await card.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog", { name: "Refund the coupon pass" });
  await dialog.getByText("JPY 47,600").waitFor();
  await screenshot(page, "passes-refund-confirm-en-desktop");
  await dialog.getByRole("button", { name: "Refund" }).click();
  const done = page.getByRole("dialog", { name: "Refund complete" });
  await done.waitFor();
  await screenshot(page, "passes-refund-done-en-desktop");
  await done.locator(".modal__actions button").click();
  await card.getByText("Refunded").waitFor();
  assert.equal(await card.getByRole("button", { name: "Refund" }).count(), 0, "a refunded coupon cannot be refunded again");
  await context.close();
});

test("the home page's pass status panel", async () => {
  flags("--public", "--purchasable");
  await shots("home", "/", (p) => p.locator(".pass-panel").waitFor());
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/?lang=en`);
  const panel = page.locator(".pass-panel");
  await panel.getByText(/days left/).first().waitFor();
  await panel.getByText(/flights left/).first().waitFor();
  await panel.getByText(/Renewal on sale from|renew now/).first().waitFor();
  await context.close();
});
