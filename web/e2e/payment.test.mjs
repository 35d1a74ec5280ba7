// Saved cards and the payment pages, end to end in Chromium against the
// real server and its sandbox gateway.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const { apiCall, tokenize } = paymentApi(env);

let seq = 0;
/** Prepares a points purchase (the tentative order) and returns its id. */
async function prepare(page, token) {
  const r = await apiCall(page, "POST", "/api/peachpoints/buy", {
    nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "creditCard",
    creditCardToken: token, requestId: `e2e-${Date.now()}-${seq++}`,
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.paymentProcessId;
}

async function savedVisa(page) {
  const r = await apiCall(page, "GET", "/api/cc");
  return r.body.creditcards.find((c) => c.brand === "visa" && c.isValid).token;
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`stored payment methods (${name}): brand order, register, delete, expired card`, async () => {
    const { context, page } = await env.newPage(viewport);
    await signIn(page, env.server.url);
    await page.goto(`${env.server.url}/payment-methods?lang=en`);
    await page.getByRole("heading", { name: "Stored payment methods" }).waitFor();
    const list = page.getByRole("list", { name: "Stored payment methods" });
    await list.getByRole("listitem").first().waitFor();
    const brands = (await list.locator(".card-summary__name").allInnerTexts()).map((n) => n.replace(/ ending.*/, ""));
    assert.deepEqual(brands.slice(0, 2), ["Visa", "Visa"], `order: ${brands}`);
    assert.ok(brands.indexOf("Mastercard") < brands.indexOf("American Express"), `order: ${brands}`);
    await list.getByText("Expired").first().waitFor();
    await screenshot(page, `payment-methods-${name}`);

    // client rules before anything leaves the browser
    await page.getByRole("button", { name: "Register a card" }).click();
    const form = page.locator("form.register-card");
    await form.getByLabel("Card number").fill("4242 4242 4242 4241");
    await form.getByLabel("Expiry date (MM/YY)").fill("08/33");
    await form.getByLabel("Security code (CVV)").fill("12");
    await form.getByRole("button", { name: "Register" }).click();
    await form.getByText("This card number is not valid.").waitFor();
    await form.getByText("Enter 3 digits.").waitFor();
    await form.getByText("This field is required.").waitFor();
    await screenshot(page, `payment-methods-register-errors-${name}`);
    // a Diners card (14 digits), for all currencies
    await form.getByLabel("Card number").fill("3622 7206 2716 67");
    await form.getByLabel("Security code (CVV)").fill("123");
    await form.getByLabel("Cardholder name").fill("TARO PEACH");
    await form.getByRole("button", { name: "Register" }).click();
    await page.getByText(/The card has been registered/).waitFor();
    await list.getByText("Diners Club").first().waitFor();

    // delete it: confirm → done (mail kept in the outbox: sent)
    await page.getByRole("button", { name: "Delete Diners Club ending 1667" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this card?" });
    await dialog.waitFor();
    await screenshot(page, `payment-methods-delete-confirm-${name}`);
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    const done = page.getByRole("dialog", { name: "Card deleted" });
    await done.getByText(/confirmation e-mail has been sent/).waitFor();
    await screenshot(page, `payment-methods-delete-done-${name}`);
    await done.getByRole("button", { name: "Close", exact: true }).last().click();
    assert.equal(await list.getByText("Diners Club").count(), 0);

    // the expired card: the dialog with Delete and Cancel
    if (name === "desktop") {
      await page.getByRole("button", { name: "Delete Visa ending 1881" }).click();
      const expired = page.getByRole("alertdialog", { name: "Credit card has expired" });
      await expired.getByText("Please delete this card and register a new one.").waitFor();
      await screenshot(page, `payment-methods-expired-${name}`);
      await expired.getByRole("button", { name: "Cancel" }).click();
      assert.equal(await list.getByText("Expired").count(), 1);
      await page.getByRole("button", { name: "Delete Visa ending 1881" }).click();
      await page.getByRole("alertdialog", { name: "Credit card has expired" }).getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByRole("dialog", { name: "Card deleted" }).getByRole("button", { name: "Close", exact: true }).last().click();
      assert.equal(await list.getByText("Expired").count(), 0);
    }
    await context.close();
  });

  test(`saved cards as printed (${name}): "Visa ending 4242, exp MM/YY", the same card twice is refused, the outcome in view`, async () => {
    for (const lang of ["en", "jp", "th"]) {
      const { context, page } = await env.newPage(viewport);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}/payment-methods?lang=${lang}`);
      const list = page.locator("ul.saved-cards");
      await list.locator("li").first().waitFor();
      const names = await list.locator(".card-summary__name").allInnerTexts();
      const visa = { en: /^Visa ending 4242, exp \d\d\/\d\d$/, jp: /^Visa 末尾4242、有効期限 \d\d\/\d\d$/, th: /^Visa ลงท้าย 4242 หมดอายุ \d\d\/\d\d$/ }[lang];
      assert.ok(names.some((n) => visa.test(n)), `${lang}: ${names}`);
      const axe = await axeBuilder(page).analyze();
      assert.deepEqual(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`), [], `axe ${lang}`);
      await screenshot(page, `payment-methods-cards-${lang}-${name}`);
      if (lang === "en") {
        // a Mastercard typed as printed: month first
        const r = await apiCall(page, "GET", "/api/cc");
        const before = r.body.creditcards.length;
        for (const attempt of [1, 2]) {
          await page.getByRole("button", { name: "Register a card" }).click();
          const form = page.locator("form.register-card");
          const expiry = form.getByLabel("Expiry date (MM/YY)");
          assert.equal(await expiry.getAttribute("autocomplete"), "cc-exp");
          await form.getByLabel("Card number").fill("5105 1051 0510 5100");
          await expiry.fill("11/34");
          await form.getByLabel("Security code (CVV)").fill("123");
          await form.getByLabel("Cardholder name").fill("TARO PEACH");
          await form.getByRole("button", { name: "Register" }).click();
          if (attempt === 1) {
            const done = page.getByText(/The card has been registered/);
            await done.waitFor();
            await page.waitForFunction(() => globalThis.document.activeElement?.classList.contains("pay-notice"));
            assert.ok(await done.isVisible());
            await list.getByText("Mastercard ending 5100, exp 11/34").waitFor();
            await screenshot(page, `payment-methods-registered-${lang}-${name}`);
          } else {
            await page.getByText("This card (Mastercard ending 5100) is already saved for these payments.").waitFor();
            await screenshot(page, `payment-methods-duplicate-${lang}-${name}`);
            await page.keyboard.press("Escape");
          }
        }
        const after = await apiCall(page, "GET", "/api/cc");
        assert.equal(after.body.creditcards.length, before + 1);
        const mc = after.body.creditcards.find((c) => c.cardNumber.endsWith("5100"));
        assert.equal(mc.expirationDate, "34/11", "the API keeps YY/MM");
        await apiCall(page, "DELETE", `/api/cc/${mc.token}?gateway=ndhk`);
      }
      await context.close();
    }
  });

  test(`pay with a saved card (${name}): prepared → pay → payment completed`, async () => {
    const { context, page } = await env.newPage(viewport);
    await signIn(page, env.server.url);
    const id = await prepare(page, await savedVisa(page));
    await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=en`);
    await page.getByRole("heading", { name: "Confirm your order" }).waitFor();
    await page.getByText("JPY 3,000").first().waitFor();
    await screenshot(page, `payment-prepared-${name}`);
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.waitForURL(/\/completed/);
    await page.getByRole("heading", { name: "Payment completed" }).waitFor();
    await page.getByText("it is shown only once").waitFor();
    await screenshot(page, `payment-completed-${name}`);
    // the secret is gone on a reload
    await page.reload();
    await page.getByRole("heading", { name: "Payment completed" }).waitFor();
    assert.equal(await page.getByText("it is shown only once").count(), 0);
    await context.close();
  });
}

test("the challenge: approve settles, fail fails; a declined card fails", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  await signIn(page, env.server.url);
  const challenge = await tokenize(page, "4000000000003220");

  let id = await prepare(page, challenge);
  await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=en`);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/gateway\/challenge\//);
  await screenshot(page, "payment-challenge-phone");
  // while the challenge waits, a new purchase is blocked
  const blocked = await apiCall(page, "POST", "/api/peachpoints/buy", {
    nominee: "TARO PEACH", currencyCode: "JPY", amount: 1000, paymentMethod: "creditCard",
    creditCardToken: await savedVisa(page), requestId: `e2e-block-${Date.now()}`,
  });
  assert.equal(blocked.status, 409);
  assert.match(blocked.body.message, /Pending payments/);
  await page.locator('button[value="approve"]').click();
  await page.waitForURL(/\/completed/);
  await page.getByRole("heading", { name: "Payment completed" }).waitFor();

  id = await prepare(page, challenge);
  await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=en`);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/gateway\/challenge\//);
  await page.locator('button[value="fail"]').click();
  await page.waitForURL(/\/result/);
  // what happened, that nothing was charged, and what to do next
  await page.getByText(/The card authentication failed\. Nothing was charged to your card\. Start again and complete your card issuer's check .* or use another card\./).waitFor();
  await screenshot(page, "payment-challenge-failed-phone");

  id = await prepare(page, await tokenize(page, "4000000000000002"));
  await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=en`);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.getByText("The card was declined. Please use another card.").waitFor();
  await screenshot(page, "payment-declined-phone");
  await context.close();
});

/** The points sale page up to the payment panel. */
async function openPanel(page, viewport) {
  await page.goto(`${env.server.url}/points/sale?lang=en`);
  await page.getByLabel("Nominee").fill("TARO PEACH");
  await page.locator("#sale-currency").selectOption("JPY");
  await page.locator("#sale-amount").selectOption("3000");
  await page.getByRole("button", { name: "Go to payment" }).click();
  await page.getByRole("heading", { name: "Payment", exact: true }).waitFor();
  void viewport;
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`the payment panel (${name}): chooser marks the current card, expired card dialog, new card saved`, async () => {
    const { context, page } = await env.newPage(viewport);
    await signIn(page, env.server.url);
    await openPanel(page, viewport);
    const current = page.getByTestId("current-method");
    await current.getByText("Visa").first().waitFor();
    await screenshot(page, `payment-panel-${name}`);
    await page.getByRole("button", { name: "Change", exact: true }).click();
    const chooser = page.getByRole("dialog", { name: "Choose a payment method" });
    await chooser.getByText("Selected").waitFor();
    assert.equal(await chooser.locator('[aria-pressed="true"]').count(), 1);
    await chooser.getByText("PayPay").waitFor();
    await chooser.getByText("Convenience store / ATM / internet banking").first().waitFor();
    await screenshot(page, `payment-chooser-${name}`);
    // the expired card is shown but not offered (no choice button holds it); its
    // Delete opens the expired-card dialog; Cancel keeps it
    const expiredItem = chooser.locator("li").filter({ hasText: "Expired" });
    if (await expiredItem.count()) {
      assert.equal(await expiredItem.locator("[aria-pressed]").count(), 0, "an expired card is not a choice");
      await expiredItem.getByRole("button", { name: /^Delete .+ ending \d{4}$/ }).click();
      const expired = page.getByRole("alertdialog", { name: "Credit card has expired" });
      await expired.waitFor();
      await expired.getByRole("button", { name: "Cancel" }).click();
      // focus goes back to the control that opened the chooser, not the page body
      await page.waitForFunction(() => globalThis.document.activeElement?.textContent === "Change");
      await page.getByRole("button", { name: "Change", exact: true }).click();
    }
    await page.getByRole("dialog", { name: "Choose a payment method" }).getByText("A new credit card").click();
    await page.waitForFunction(() => globalThis.document.activeElement?.textContent === "Change");
    // Escape closes it and gives focus back too
    await page.getByRole("button", { name: "Change", exact: true }).click();
    await page.getByRole("dialog", { name: "Choose a payment method" }).waitFor();
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => globalThis.document.activeElement?.textContent === "Change");
    await page.getByLabel("Card number").fill("3530 1113 3330 0000");
    await page.getByLabel("Expiry date (MM/YY)").fill("08/33");
    await page.getByLabel("Security code (CVV)").fill("123");
    await page.getByLabel("Cardholder name").fill("TARO PEACH");
    await page.getByLabel("Save this card for next time").check();
    await screenshot(page, `payment-panel-new-card-${name}`);
    await page.getByRole("button", { name: "Go to confirmation" }).click();
    await page.getByRole("heading", { name: "Confirm your order" }).waitFor();
    await page.getByText("JCB •••• 0000").waitFor();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.getByRole("heading", { name: "Payment completed" }).waitFor();
    await page.getByText("it is shown only once").waitFor();
    const cards = await apiCall(page, "GET", "/api/cc");
    assert.ok(cards.body.creditcards.some((c) => c.brand === "jcb" && c.cardNumber.endsWith("0000")), "the new card was saved");
    await context.close();
  });
}

test("the pending block: a payment waiting for its challenge blocks a new purchase before its form is filled", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  const id = await prepare(page, await tokenize(page, "4000000000003220"));
  const cont = await apiCall(page, "POST", `/api/peachpoints/buy/${id}/continue`);
  assert.equal(cont.body.status, "pending");
  // The sale page asks preapply first: the block is said before the form.
  await page.goto(`${env.server.url}/points/sale?lang=en`);
  await page.getByRole("alert").getByText(/A payment you started holds new purchases for about 30\sminutes/).waitFor();
  await page.getByRole("alert").getByRole("link", { name: "Open pending payments" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Go to payment" }).isDisabled(), true);
  await screenshot(page, "payment-sale-pending-desktop");
  await context.close();
});
