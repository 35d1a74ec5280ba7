// Registering a card the issuer refuses, end to end in Chromium: the
// zero-amount authorisation at the sandbox refuses a declined card (0002)
// and a card it reports expired (0069); the page shows the reason in the
// member's language and the card is not listed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });

const cases = [
  { lang: "en", number: "4000 0000 0000 0002", reason: "The card issuer declined this card. Please use another card or contact your card issuer." },
  { lang: "jp", number: "4000 0000 0000 0069", reason: "カード会社によると、このカードは有効期限が切れています。有効期限をご確認いただくか、別のカードをご利用ください。" },
];

for (const c of cases) {
  test(`a card the issuer refuses is not saved (${c.lang}, ${c.number.slice(-4)})`, async () => {
    const { context, page } = await env.newPage(VIEWPORTS.desktop);
    await signIn(page, env.server.url, undefined, c.lang);
    await page.goto(`${env.server.url}/payment-methods?lang=${c.lang}`);
    const list = page.locator(".card-list, ul").filter({ has: page.locator(".card-summary__name") }).first();
    await list.locator(".card-summary__name").first().waitFor();
    const before = await page.locator(".card-summary__name").count();
    await page.locator("main button.button--primary").first().click();
    const form = page.locator("form.register-card");
    await form.locator('input[name="cardNumber"]').fill(c.number);
    await form.locator('input[name="expirationDate"]').fill("08/33");
    await form.locator('input[name="cvv"]').fill("123");
    await form.locator('input[name="holderName"]').fill("TARO PEACH");
    await form.locator('button[type="submit"]').click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText(c.reason).waitFor();
    await screenshot(page, `payment-methods-refused-${c.lang}`);
    await dialog.locator("button.button--primary").click();
    await dialog.waitFor({ state: "detached" });
    assert.equal(await page.locator(".card-summary__name").count(), before, "the refused card is listed");
    await context.close();
  });
}
