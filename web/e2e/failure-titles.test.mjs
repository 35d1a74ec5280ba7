// The error box of a failed request is titled by what failed:
// the server's refusal of a request (a 4xx: here deleting a saved card that
// another device deleted a moment before) is "Your request could not be
// completed" with the server's own text; "System error occurred." is kept
// for real 5xx and network failures. Screenshots at 375 px in en, jp and th.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, DEMO2, VIEWPORTS } from "./harness.mjs";
import { expectNoAxeViolations as axe } from "./axe.mjs";
import { paymentApi } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const { apiCall, tokenize } = paymentApi(env);

const TITLE = { en: "Your request could not be completed", jp: "お手続きを完了できませんでした", th: "ไม่สามารถดำเนินการตามคำขอของคุณได้" };
const SYSTEM = { en: "System error occurred.", jp: "システムエラーが発生しました。", th: "เกิดข้อผิดพลาดของระบบ" };

for (const lang of ["en", "jp", "th"]) {
  test(`a card deleted on another device, then deleted here (${lang}, 375 px): the refusal's title and text, not "System error occurred."`, async () => {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, env.server.url, DEMO2, lang);
    // a card of its own for this test, saved for the other currencies
    const reg = await apiCall(page, "POST", "/api/cc/register", { token: await tokenize(page, "5555555555554444"), gateway: "ndhk", currency: "NON_JPY" });
    assert.equal(reg.status, 200, reg.text);
    await page.goto(`${env.server.url}/payment-methods?lang=${lang}`);
    const row = page.locator(".saved-card").filter({ hasText: "4444" }).first();
    await row.waitFor();
    // the other device deletes it
    const cards = await apiCall(page, "GET", "/api/cc");
    const mine = cards.body.creditcards.find((c) => c.cardNumber.endsWith("4444"));
    const del = await apiCall(page, "DELETE", `/api/cc/${mine.token}?gateway=${mine.gateway}`);
    assert.ok(del.status === 200 || del.status === 204, del.text);
    // here, the page still lists it
    await row.getByRole("button").last().click();
    await page.locator('[role="dialog"] .button--primary').click();
    const box = page.getByRole("alertdialog", { name: TITLE[lang] });
    await box.waitFor();
    assert.equal(await page.getByRole("alertdialog", { name: SYSTEM[lang] }).count(), 0);
    const text = await box.innerText();
    assert.ok(!text.includes(SYSTEM[lang]), text);
    await screenshot(page, `failure-title-card-gone-${lang}-phone`);
    await axe(page, `failure title ${lang}`);
    await context.close();
  });
}
