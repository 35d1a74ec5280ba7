// Points end to end: summary, search, exchange (both variants, mismatch),
// reissue, purchase through the sandbox gateway; screenshots at 375 and
// 1280 px in en, jp and th.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, signIn, root, screenshot, VIEWPORTS, DEMO } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";
import { typeNewCard } from "./paymentapi.mjs";

const env = e2eSuite({ before, after });
const bin = () => process.env.MEMBERS_BIN || path.join(root, "bin/members");

async function newPage(viewport = VIEWPORTS.desktop, lang = "en") {
  const { context, page } = await env.newPage(viewport);
  await signIn(page, env.server.url, DEMO, lang);
  return { context, page };
}

/** Exchange codes made by the operator command, as support staff would. */
function makeCodes(args) {
  const out = execFileSync(bin(), ["points", "codes", "--db", env.server.dsn, ...args], { encoding: "utf8" });
  return out.trim().split("\n").map((l) => l.split("\t"));
}

const summary = (page) => page.locator("section[aria-labelledby='points-summary-title']");
const results = (page) => page.locator("section[aria-labelledby='points-results-title']");

test("summary in the spec's order, vouchers with their rules, search and paging", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/points?lang=en`);
  const rows = summary(page).locator("tbody th");
  await rows.first().waitFor();
  assert.deepEqual(await rows.evaluateAll((ths) => ths.map((th) => th.firstChild.textContent)), ["KRW", "CNY", "JPY", "TWD", "HKD", "THB", "SGD"]);
  const jpy = summary(page).locator("tr[data-currency='JPY']");
  assert.match(await jpy.innerText(), /8,000/);
  assert.match(await jpy.innerText(), /3,000/); // expires this month
  assert.match(await summary(page).locator("tr[data-currency='SGD']").innerText(), /50\.00/);

  await results(page).getByText("7 vouchers found").waitFor();
  await page.getByText("Routes: KIX – ICN, ICN – KIX").waitFor();
  await page.getByText(/^Fares: Simple Peach, Value Peach$/).waitFor();
  await page.getByText(/^Travel dates: /).waitFor();
  // Another member's voucher never shows.
  assert.equal(await page.getByText("7200000000000001").count(), 0);

  // Expired and spent ones on request; a currency filter.
  await page.getByLabel("Only valid points").uncheck();
  await page.getByLabel("Only with a balance").uncheck();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await results(page).getByText("10 vouchers found").waitFor();
  await page.locator("#points-currency").selectOption("TWD");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await results(page).getByText("1 voucher found").waitFor();
  await results(page).getByText("Expired").waitFor();

  // The history of a voucher: its ledger.
  await page.locator("#points-currency").selectOption("JPY");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await results(page).getByText("3 vouchers found").waitFor();
  const used = page.getByRole("article", { name: "Voucher 7100000000000010" });
  await used.getByRole("button", { name: "Show history" }).click();
  await used.getByRole("cell", { name: "Used" }).waitFor();
  await screenshot(page, "points-overview-search-desktop");
  await context.close();
});

test("paging keeps the last condition", async () => {
  // Twelve more THB vouchers make two pages.
  for (let i = 0; i < 12; i++) {
    execFileSync(bin(), ["points", "issue", "--member", DEMO.email, "--currency", "THB", "--amount", "100", "--db", env.server.dsn]);
  }
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/points?lang=en`);
  await page.locator("#points-currency").selectOption("THB");
  // the first search's answer (every currency, two pages too) may still be on
  // the page: page on once the THB search has answered
  const answered = page.waitForResponse((r) => /\/api\/peachpoints\?/.test(r.url()) && r.url().includes("THB"));
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await answered;
  const pager = page.getByRole("navigation", { name: "Result pages" });
  await pager.getByText("Page 1 of 2").waitFor();
  await pager.getByRole("button", { name: "Next page" }).click();
  await pager.getByText("Page 2 of 2").waitFor();
  assert.equal(await results(page).getByRole("article").count(), 3);
  await context.close();
});

test("exchange by code: confirm, exchange, the new number and PIN; the code works once", async () => {
  const [[code, password]] = makeCodes(["--currency", "JPY", "--amount", "2000"]);
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/points/exchange?lang=en`);
  await page.getByLabel("Exchange code").fill(`  ${code.toLowerCase()} `);
  await page.getByLabel("Password").fill(` ${password} `);
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByRole("heading", { name: "Confirm the exchange" }).waitFor();
  await page.getByText("2,000").waitFor();
  await screenshot(page, "points-exchange-confirm-desktop");
  await page.getByRole("button", { name: "Exchange", exact: true }).click();
  await page.getByRole("heading", { name: "Exchange complete" }).waitFor();
  assert.match(await page.getByTestId("issued-pin").innerText(), /^\d{8}$/);
  const number = await page.getByTestId("issued-number").innerText();
  await screenshot(page, "points-exchange-done-desktop");
  // Used once: the error modal of a failed exchange.
  await page.getByRole("button", { name: "Exchange another code" }).click();
  await page.getByLabel("Exchange code").fill(code);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("This code has already been exchanged.", { exact: false }).waitFor();
  await page.keyboard.press("Escape");
  // The new voucher is in the list.
  await page.goto(`${env.server.url}/points?lang=en`);
  await page.locator("#points-currency").selectOption("JPY");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("article", { name: `Voucher ${number}` }).waitFor();
  await context.close();
});

test("exchange of partner miles: the ana texts, the mismatch screen for another kind of code, then the exchange", async () => {
  const [[other, otherPw]] = makeCodes(["--currency", "JPY", "--amount", "1000"]);
  const [[ana, anaPw]] = makeCodes(["--currency", "KRW", "--amount", "30000", "--ana"]);
  for (const [viewport, suffix] of [[VIEWPORTS.phone, "phone"], [VIEWPORTS.desktop, "desktop"]]) {
    const { context, page } = await newPage(viewport);
    await page.goto(`${env.server.url}/points/exchange-ana?lang=en`);
    await page.getByRole("heading", { name: "Exchange ANA miles for points" }).waitFor();
    await page.getByLabel("Miles exchange code").fill(other);
    await page.getByLabel("Password").fill(otherPw);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("heading", { name: "The code does not match" }).waitFor();
    await page.getByText(/Other exchange codes are entered under "Exchange a code"/).waitFor();
    await screenshot(page, `points-exchange-ana-mismatch-${suffix}`);
    await context.close();
  }
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/points/exchange-ana?lang=en`);
  await page.getByLabel("Miles exchange code").fill(ana);
  await page.getByLabel("Password").fill(anaPw);
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("Your ANA miles will be exchanged for these points.").waitFor();
  await page.getByRole("button", { name: "Exchange", exact: true }).click();
  await page.getByText("Your ANA miles have been exchanged for points.", { exact: false }).waitFor();
  assert.match(await page.getByTestId("issued-pin").innerText(), /^\d{8}$/);
  // The other variant refuses a miles code with its own mismatch text.
  await page.goto(`${env.server.url}/points/exchange?lang=en`);
  await page.getByLabel("Exchange code").fill(ana);
  await page.getByLabel("Password").fill(anaPw);
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText(/Codes for partner-airline miles are entered under/).waitFor();
  await context.close();
});

test("reissue of an expired TWD voucher: validate, confirm, done with the new number and PIN; twice is refused", async () => {
  const { context, page } = await newPage(VIEWPORTS.phone);
  // The CNY page reissues CNY points only; an unknown variant is not found.
  await page.goto(`${env.server.url}/points/reissue/cny?lang=en`);
  await page.getByLabel("Point number").fill("7100000000000003");
  await page.getByLabel("PIN", { exact: false }).first().fill("24681357");
  await page.getByLabel("E-mail address").fill("demo@example.com");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("These points are in TWD. Reissue them on the TWD reissue page.").first().waitFor();
  await screenshot(page, "points-reissue-other-page-phone");
  await page.keyboard.press("Escape");
  await page.goto(`${env.server.url}/points/reissue/usd?lang=en`);
  await page.getByRole("heading", { name: "Page not found" }).waitFor();
  await page.goto(`${env.server.url}/points/reissue/twd?lang=en`);
  await page.getByRole("heading", { name: "Reissue expired points (TWD)" }).waitFor();
  // Client rules first: nothing is sent.
  await page.getByRole("button", { name: "Confirm" }).click();
  const modal = page.getByRole("alertdialog", { name: "Input error" });
  await modal.waitFor();
  await modal.getByRole("button").last().click();
  await page.getByLabel("Point number").fill("7100000000000003");
  await page.getByLabel("PIN", { exact: false }).first().fill("00000000");
  // The new PIN goes to the registered address only: another is refused.
  await page.getByLabel("E-mail address").fill("hanako@example.com");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("Enter the e-mail address registered to your account").first().waitFor();
  await page.keyboard.press("Escape");
  await page.getByLabel("E-mail address").fill("demo@example.com");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("The point number or PIN is not correct.").first().waitFor();
  await page.keyboard.press("Escape");
  await page.getByLabel("PIN", { exact: false }).first().fill("24681357");
  await page.getByRole("button", { name: "Confirm" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm the reissue" });
  await confirm.getByText("1,000").waitFor();
  await screenshot(page, "points-reissue-confirm-phone");
  await confirm.getByRole("button", { name: "Reissue" }).click();
  await page.getByRole("heading", { name: "The points have been reissued" }).waitFor();
  assert.match(await page.getByTestId("issued-pin").innerText(), /^\d{8}$/);
  await screenshot(page, "points-reissue-done-phone");
  // The same voucher again: the server says it was reissued already.
  await page.getByRole("button", { name: "Reissue other points" }).click();
  await page.getByLabel("Point number").fill("7100000000000003");
  await page.getByLabel("PIN", { exact: false }).first().fill("24681357");
  await page.getByLabel("E-mail address").fill("demo@example.com");
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByText("These points have already been reissued.").first().waitFor();
  await context.close();
});

test("purchase with the sandbox gateway: number and PIN on the completed page and by mail", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/points/sale?lang=en`);
  await page.getByRole("button", { name: "Go to payment" }).click();
  await page.getByRole("alertdialog", { name: "Input error" }).waitFor();
  await page.keyboard.press("Escape");
  await page.getByLabel("Nominee").fill("HANAKO YAMADA");
  await page.locator("#sale-currency").selectOption("SGD");
  await page.locator("#sale-amount").selectOption("5000");
  assert.equal(await page.locator("#sale-amount option:checked").innerText(), "SGD 50.00");
  await page.getByRole("button", { name: "Go to payment" }).click();
  const panel = page.locator("#payment-panel-title");
  await panel.waitFor();
  await screenshot(page, "points-sale-payment-desktop");
  // A new card, typed into the gateway's tokeniser.
  await typeNewCard(page, "4242 4242 4242 4242", "HANAKO YAMADA");
  await page.getByRole("button", { name: "Go to confirmation" }).click();
  await page.getByRole("heading", { name: "Confirm your order" }).waitFor();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.getByRole("heading", { name: "Payment completed" }).waitFor();
  const text = await page.locator("main").innerText();
  const number = text.match(/\b(\d{16})\b/)?.[1];
  assert.ok(number, "the voucher number is shown");
  const pin = text.match(/PIN\s+(\d{8})\b/)?.[1];
  assert.ok(pin, "the PIN is shown once on the completed page");
  await screenshot(page, "points-sale-completed-desktop");
  // The mail carries the number and the PIN.
  let body = "";
  for (let i = 0; i < 50 && !body.includes(number); i++) {
    const list = execFileSync(bin(), ["mail", "list", "--db", env.server.dsn], { encoding: "utf8" });
    const id = list.split("\n").find((l) => l.includes("points_issued"))?.split(/\s+/)[0];
    if (id) body = execFileSync(bin(), ["mail", "show", "--db", env.server.dsn, id], { encoding: "utf8" });
    if (!body.includes(number)) await page.waitForTimeout(100);
  }
  assert.match(body, new RegExp(`${number}[\\s\\S]*PIN[^\\d]*${pin}`), "the purchase mail has the number and the same PIN");
  // The voucher is the member's.
  await page.goto(`${env.server.url}/points?lang=en`);
  await page.locator("#points-currency").selectOption("SGD");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("article", { name: `Voucher ${number}` }).waitFor();
  await context.close();
});

test("screenshots and no axe violations: overview, sale, exchange and reissue at 375 and 1280 px in en, jp and th", async () => {
  const found = [];
  for (const lang of ["en", "jp", "th"]) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { context, page } = await newPage(viewport, lang);
      for (const [path, shot, ready] of [
        ["/points", "points", "tbody th"],
        ["/points/sale", "points-sale", "#sale-currency"],
        ["/points/exchange", "points-exchange", "form input"],
        ["/points/exchange-ana", "points-exchange-ana", "form input"],
        ["/points/reissue/cny", "points-reissue-cny", "form input"],
      ]) {
        await page.goto(`${env.server.url}${path}?lang=${lang}`);
        await page.locator(ready).first().waitFor();
        // On a phone the search and its results are folded (in the page, not shown).
        if (path === "/points") await page.locator("section[aria-labelledby='points-results-title'] article").first().waitFor({ state: "attached" });
        await screenshot(page, `${shot}-${lang}-${name}`);
        const r = await axeBuilder(page).analyze();
        found.push(...r.violations.map((v) => `${path} ${lang} ${name}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`));
      }
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});
