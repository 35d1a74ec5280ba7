// Dates and amounts on the pages, the way of each language: a payment's
// result (completed) page and My passes in English, Japanese and Thai show
// no ISO date, Thai years in the Buddhist era, and amounts as the shared
// table writes them ("JPY 3,000" in en and th, "3,000円" in jp).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const { apiCall } = paymentApi(env);

const ISO = /\d{4}-\d{2}-\d{2}/;
const AMOUNT = { en: /JPY \d{1,3}(,\d{3})*/, jp: /\d{1,3}(,\d{3})*円/, th: /JPY \d{1,3}(,\d{3})*/ };

/** Checks a page's visible text for the language's dates and amounts. */
async function checkFormats(page, lang, what) {
  const text = await page.locator("main, #root").first().innerText();
  const iso = text.match(ISO);
  assert.equal(iso, null, `${what} (${lang}) shows the ISO date ${iso?.[0]}:\n${text}`);
  assert.match(text, AMOUNT[lang], `${what} (${lang}) without the amount form ${AMOUNT[lang]}:\n${text}`);
  if (lang === "jp") assert.doesNotMatch(text, /JPY \d/, `${what} (jp) writes yen with the code:\n${text}`);
  if (lang === "th") {
    assert.match(text, /25[67]\d/, `${what} (th) without a Buddhist-era year:\n${text}`);
    assert.doesNotMatch(text, /\b20[23]\d\b/, `${what} (th) with a Gregorian year:\n${text}`);
  }
}

test("a payment's result page and My passes in en, jp and th at 375 and 1280 px", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  // a points purchase paid with the saved Visa: its completed page lists the goods (dates, amount)
  const cards = await apiCall(page, "GET", "/api/cc");
  const token = cards.body.creditcards.find((c) => c.brand === "visa" && c.isValid).token;
  const r = await apiCall(page, "POST", "/api/peachpoints/buy", {
    nominee: "TARO PEACH", currencyCode: "JPY", amount: 3000, paymentMethod: "creditCard",
    creditCardToken: token, requestId: `e2e-formats-${Date.now()}`,
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const id = r.body.paymentProcessId;
  await page.goto(`${env.server.url}/payment/peachpoints/${id}?lang=en`);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/completed/);
  const completed = new URL(page.url()).pathname;
  await context.close();

  for (const lang of ["en", "jp", "th"]) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(viewport);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}${completed}?lang=${lang}`);
      await page.locator(".goods").waitFor();
      await checkFormats(page, lang, "payment completed");
      await screenshot(page, `formats-completed-${lang}-${name}`);

      await page.goto(`${env.server.url}/my-passes?lang=${lang}`);
      await page.locator(".pass-card").first().waitFor();
      await checkFormats(page, lang, "My passes");
      await screenshot(page, `formats-mypasses-${lang}-${name}`);
      await context.close();
    }
  }
});
