/* global document, window */
// Account, saved passengers and password reset, end to end in Chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, login, signIn, screenshot, VIEWPORTS, DEMO, DEMO2, root } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";

const env = e2eSuite({ before, after });

const newPage = (viewport = VIEWPORTS.desktop) => env.newPage(viewport);

test("an invalid phone shows the field error in en and jp; fixed, the profile saves", async () => {
  const { context, page } = await newPage();
  await signIn(page, env.server.url);
  await page.goto(`${env.server.url}/account?lang=en`);
  const tel = page.getByLabel("Phone number");
  // Saved countries are shown selected (the lists load before the form).
  assert.equal(await page.getByLabel("Country/region").inputValue(), "JP");
  assert.equal(await page.getByLabel("Nationality").inputValue(), "JP");
  await tel.fill("03-12a4");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Enter the phone number in digits; hyphens and spaces may separate them.").first().waitFor();
  assert.equal(await tel.getAttribute("aria-invalid"), "true");

  await page.goto(`${env.server.url}/account?lang=jp`);
  const telJp = page.getByLabel("電話番号");
  await telJp.fill("+81312345678");
  await page.getByRole("button", { name: "保存する", exact: true }).click();
  await page.locator("[aria-invalid='true']").first().waitFor();
  const described = await telJp.getAttribute("aria-describedby");
  assert.ok(described, "the error is linked to the field");
  const errText = await page.locator(`[id="${described.split(" ").find((id) => id.includes("error")) ?? described.split(" ")[0]}"]`).innerText();
  assert.match(errText, /00|＋|\+/, `jp error text: ${errText}`);
  await screenshot(page, "account-error-desktop-jp");

  await page.goto(`${env.server.url}/account?lang=en`);
  // Typed with a hyphen and a space, as members do: accepted, and stored cleaned.
  await page.getByLabel("Phone number").fill("03 1234-5678");
  await page.getByLabel("Street address").fill("2-1 Rinku Orai");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText(/^Saved/).first().waitFor();
  assert.equal(await page.getByLabel("Phone number").inputValue(), "0312345678");
  const res = await page.request.get(`${env.server.url}/api/user`);
  const user = await res.json();
  assert.equal(user.tel, "0312345678");
  assert.equal(user.address1, "2-1 Rinku Orai");
  await context.close();
});

test("add, edit and delete a saved passenger", async () => {
  const { context, page } = await newPage();
  await signIn(page, env.server.url);
  await page.goto(`${env.server.url}/passengers?lang=en`);
  await page.getByRole("heading", { name: "Saved passengers" }).waitFor();
  await page.getByRole("button", { name: "Add a passenger" }).first().click();
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Save passenger" }) });
  await form.getByLabel("Last name").fill("Tanaka");
  await form.getByLabel("First name").fill("Ichiro");
  await form.getByLabel("Gender").selectOption("male");
  await form.getByLabel("Date of birth").fill("2001-05-06");
  await form.getByRole("button", { name: "Save passenger" }).click();
  await page.getByText(/Tanaka/i).first().waitFor();

  await page.getByRole("button", { name: /Edit .*Tanaka/i }).click();
  const edit = page.locator("form").filter({ has: page.getByRole("button", { name: "Save passenger" }) });
  await edit.getByLabel("First name").fill("Jiro");
  await edit.getByRole("button", { name: "Save passenger" }).click();
  await page.getByText(/Jiro/i).first().waitFor();

  await page.getByRole("button", { name: /Delete .*Tanaka/i }).click();
  const dialog = page.getByRole("dialog").or(page.getByRole("alertdialog"));
  await dialog.getByRole("button", { name: "Delete" }).click();
  await page.getByText(/Jiro/i).first().waitFor({ state: "detached" });
  const list = await (await page.request.get(`${env.server.url}/api/user/passengers`)).json();
  assert.ok(!list.passengers.some((p) => /tanaka/i.test(p.lastname)), "the passenger is gone on the server");
  await context.close();
});

function outboxResetLink(email) {
  const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
  const list = execFileSync(bin, ["mail", "list", "--db", env.server.dsn], { encoding: "utf8" });
  const row = list.split("\n").find((l) => l.includes("password_reset") && l.includes(email));
  assert.ok(row, `no reset mail for ${email} in:\n${list}`);
  const body = execFileSync(bin, ["mail", "show", "--db", env.server.dsn, row.split(/\s+/)[0]], { encoding: "utf8" });
  const m = body.match(/https?:\/\/\S+\/reset-password\/\S+/);
  assert.ok(m, "the mail has a reset link");
  return m[0];
}

test("the whole password reset journey, with the link read from the outbox", async () => {
  const { context, page } = await newPage();
  await page.goto(`${env.server.url}/login?lang=en`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.waitForURL((u) => u.pathname === "/reset-password");
  await page.getByLabel("E-mail address").fill(DEMO2.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await page.getByText(/If the address is registered/).waitFor();

  let link;
  for (let i = 0; i < 50 && !link; i++) {
    try { link = outboxResetLink(DEMO2.email); } catch (e) { if (i === 49) throw e; await new Promise((r) => setTimeout(r, 200)); }
  }
  await page.goto(link);
  await page.getByLabel(/^New password/).fill("Newpass99");
  await page.getByLabel("Re-enter new password").fill("Newpass99");
  await page.getByRole("button", { name: "Set password" }).click();
  await page.getByText(/Your password has been changed/).waitFor();
  await screenshot(page, "reset-done-desktop");

  // The link is single-use.
  await page.goto(link);
  await page.waitForURL((u) => u.pathname === "/reset-password/invalid");
  await page.getByRole("heading", { name: "Link invalid or expired" }).waitFor();

  await login(page, env.server.url, { email: DEMO2.email, password: "Newpass99" });
  assert.equal((await page.request.get(`${env.server.url}/api/session`)).status(), 204);
  await context.close();
});

test("screenshots of account and passengers at 375 px and 1280 px", async () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const { context, page } = await newPage(viewport);
    await signIn(page, env.server.url, DEMO);
    await page.goto(`${env.server.url}/account?lang=en`);
    await page.getByLabel("Phone number").waitFor();
    await screenshot(page, `account-${name}`);
    await page.goto(`${env.server.url}/passengers?lang=en`);
    await page.getByRole("heading", { name: "Saved passengers" }).waitFor();
    await screenshot(page, `passengers-${name}`);
    await context.close();
    // The anonymous reset page, in Japanese.
    const anon = await newPage(viewport);
    await anon.page.goto(`${env.server.url}/reset-password?lang=jp`);
    await anon.page.getByRole("heading", { level: 1 }).waitFor();
    await screenshot(anon.page, `reset-request-${name}-jp`);
    await anon.context.close();
  }
});

test("the online-shop link on the account page: status, linking, the way to the shop (en and jp, 375 and 1280 px)", async () => {
  const texts = {
    en: { title: "Online shop", not: "Not linked", linked: "Linked", button: "Link to the online shop", go: "Go to Peach Aviation's online shop (opens shop.example.com, a separate site)" },
    jp: { title: "オンラインショップ", not: "未連携", linked: "連携済み", button: "オンラインショップと連携する", go: "Peach Aviationのオンラインショップへ （別サイト shop.example.com が開きます）" },
  };
  let first = true;
  for (const [lang, tx] of Object.entries(texts)) {
    for (const [vp, viewport] of Object.entries(VIEWPORTS)) {
      const { context, page } = await newPage(viewport);
      await signIn(page, env.server.url, DEMO, lang);
      await page.goto(`${env.server.url}/account?lang=${lang}`);
      const section = page.getByRole("region", { name: new RegExp(tx.title) });
      await section.waitFor();
      await section.scrollIntoViewIfNeeded();
      // Every visit after the first reloads the page: the link is the server's.
      if (first) {
        // The demo member starts unlinked; one click links the account.
        assert.equal(await section.getByTestId("online-shop-status").textContent(), tx.not);
        await screenshot(page, `account-online-shop-${lang}-${vp}-unlinked`);
        await section.getByRole("button", { name: tx.button }).click();
        first = false;
      }
      await section.getByRole("link", { name: tx.go }).waitFor();
      assert.equal(await section.getByTestId("online-shop-status").textContent(), tx.linked);
      assert.equal(await section.getByRole("link", { name: tx.go }).getAttribute("href"), `https://shop.example.com/?lang=${lang}`);
      const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(over <= 0, `${lang} ${vp}: ${over} px wider than the screen`);
      const axe = await axeBuilder(page).include("#online-shop-heading").include(".online-shop").analyze();
      assert.deepEqual(axe.violations.map((v) => `${v.impact} ${v.id}`), [], `${lang} ${vp}: axe on the online-shop section`);
      await screenshot(page, `account-online-shop-${lang}-${vp}`);
      await context.close();
    }
  }
});

test("postal lookup in the page's language and only into empty fields; expected refusals log nothing in the console", async () => {
  for (const [lang, viewport, texts] of [
    ["th", VIEWPORTS.phone, { state: "จังหวัดและเมือง", street: "ที่อยู่", find: "ค้นหาที่อยู่", notFound: "ไม่พบที่อยู่สำหรับรหัสไปรษณีย์นี้", old: "รหัสผ่านปัจจุบัน", change: /เปลี่ยนรหัสผ่าน/ }],
    ["en", VIEWPORTS.desktop, { state: "State/prefecture and city", street: "Street address", find: "Find address", notFound: "No address was found for this postal code.", old: "Current password", change: /^Change password$/ }],
    ["jp", VIEWPORTS.phone, { state: "都道府県・市区町村", street: "番地・建物名", find: "住所を検索", notFound: null, old: "現在のパスワード", change: /パスワードを変更する/ }],
  ]) {
    const { context, page } = await newPage(viewport);
    const logged = [];
    page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") logged.push(`${m.type()}: ${m.text()}`); });
    await signIn(page, env.server.url, DEMO, lang);
    await page.goto(`${env.server.url}/account?lang=${lang}`);
    const state = page.getByLabel(texts.state, { exact: false }).first();
    await state.waitFor();
    const street = page.locator("input[name='address1']");
    await street.fill("2-1 Rinku Orai");
    await state.fill("");
    await page.locator("select[name='addressCountryCode']").selectOption("JP");
    await page.locator("input[name='addressPostalCode']").fill("549-0001");
    await page.getByRole("button", { name: texts.find }).click();
    // jp: the kanji of the table; other languages: the prefecture in Latin letters. The street typed stays.
    await page.waitForFunction((want) => document.querySelector("input[name='addressStateAndCity']")?.value === want, lang === "jp" ? "大阪府泉佐野市" : "Osaka");
    assert.equal(await street.inputValue(), "2-1 Rinku Orai");
    await screenshot(page, `account-postal-${lang}`);
    if (texts.notFound) {
      // An unknown code: the message beside the field, and no console line.
      await page.locator("input[name='addressPostalCode']").fill("000-0000");
      await page.getByRole("button", { name: texts.find }).click();
      await page.getByText(texts.notFound).first().waitFor();
    }
    // A wrong current password: the server's 400 with its field error, and no console line.
    await page.locator("input[name='passwordOld']").fill("Wrong1234x");
    await page.locator("input[name='passwordNew']").fill("Abcd12345");
    await page.locator("input[name='passwordReenter']").fill("Abcd12345");
    await page.getByRole("button", { name: texts.change }).first().click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    await dialog.getByRole("button").last().click();
    await page.locator("input[name='passwordOld'][aria-invalid='true']").waitFor();
    assert.deepEqual(logged, [], `${lang}: console`);
    const axe = await axeBuilder(page).analyze();
    assert.deepEqual(axe.violations.map((v) => `${v.impact} ${v.id}`), [], `${lang}: axe`);
    await context.close();
  }
});
