// Notification settings: the member switches flight change mails off and
// chooses Japanese for mails; both are kept after a reload. Screenshots of
// the page in English and Japanese, phone and desktop.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";

// The unsubscribe links are signed with this key, so the test can make one
// as a mail would carry it (docs/account.md).
const UNSUBSCRIBE_KEY = Buffer.alloc(32, 7).toString("base64");
const env = e2eSuite({ before, after }, { serverArgs: ["--unsubscribe-key", UNSUBSCRIBE_KEY] });
const MEMBER1 = "00000000000000000000000000000001"; // demo@example.com

async function violations(page) {
  const r = await axeBuilder(page).analyze();
  return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

function unsubscribeURL(memberID, kind, key = UNSUBSCRIBE_KEY) {
  const s = createHmac("sha256", Buffer.from(key, "base64")).update(`members-unsubscribe\0${memberID}\0${kind}`).digest("base64url");
  return `${env.server.url}/mail/unsubscribe?${new URLSearchParams({ m: memberID, k: kind, s })}`;
}

test("a changed notification setting is kept after a reload", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  await page.goto(`${env.server.url}/account?lang=en`);
  const entry = page.getByRole("region", { name: "E-mails we send you" });
  await entry.waitFor();
  await screenshot(entry, "notifications-account-entry-en-desktop");
  await entry.getByRole("link", { name: "Notification settings" }).click();
  await page.waitForURL((u) => u.pathname === "/account/notifications");
  await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();

  const flight = page.getByRole("checkbox", { name: "Flight changes" });
  const points = page.getByRole("checkbox", { name: "Points expiry reminders" });
  const security = page.getByRole("checkbox", { name: "Security alerts" });
  const lang = page.getByLabel("Language of e-mails");
  assert.equal(await flight.isChecked(), true);
  assert.equal(await points.isChecked(), true);
  // Security alerts: on and locked, with the reason beside them.
  assert.equal(await security.isChecked(), true);
  assert.equal(await security.isDisabled(), true);
  await page.getByText("Always on: they protect your account, so they cannot be switched off.").waitFor();
  // Until the member chooses, the mails follow the site's language.
  assert.equal(await lang.inputValue(), "");
  assert.equal(await lang.locator("option:checked").textContent(), "Same as the site");

  await flight.uncheck();
  await lang.selectOption("jp");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").getByText("Your notification settings are saved.").waitFor();

  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
  assert.equal(await page.getByRole("checkbox", { name: "Flight changes" }).isChecked(), false);
  assert.equal(await page.getByRole("checkbox", { name: "Points expiry reminders" }).isChecked(), true);
  assert.equal(await page.getByLabel("Language of e-mails").inputValue(), "jp");
  // The server holds it too.
  const res = await page.request.get(`${env.server.url}/api/user/notification_settings`);
  assert.deepEqual(await res.json(), { flightChanges: false, pointsReminders: true, securityAlerts: true, mailLang: "jp", mailLangChosen: true });

  // And back to "same as the site".
  await page.getByLabel("Language of e-mails").selectOption({ label: "Same as the site" });
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").getByText("Your notification settings are saved.").waitFor();
  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
  assert.equal(await page.getByLabel("Language of e-mails").inputValue(), "");
  const back = await (await page.request.get(`${env.server.url}/api/user/notification_settings`)).json();
  assert.deepEqual(back, { flightChanges: false, pointsReminders: true, securityAlerts: true, mailLang: "en", mailLangChosen: false });
  // Japanese again, as the unsubscribe test below expects.
  await page.getByLabel("Language of e-mails").selectOption("jp");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").getByText("Your notification settings are saved.").waitFor();
  await context.close();
});

test("screenshots of the notification settings in English and Japanese, without axe violations", async () => {
  const titles = { en: "Notifications", jp: "通知設定" };
  for (const lang of ["en", "jp"]) {
    for (const [size, viewport] of Object.entries({ phone: VIEWPORTS.phone, desktop: VIEWPORTS.desktop })) {
      const { context, page } = await env.newPage(viewport);
      await signIn(page, env.server.url, undefined, lang);
      await page.goto(`${env.server.url}/account/notifications?lang=${lang}`);
      await page.getByRole("heading", { level: 1, name: titles[lang] }).waitFor();
      await screenshot(page, `notifications-${lang}-${size}`);
      assert.deepEqual(await violations(page), [], `${lang} ${size}`);
      await context.close();
    }
  }
});

test("the one-click unsubscribe link asks in the mail language, then switches the kind off", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  // A forged link: refused, nothing changes.
  const forged = await page.goto(unsubscribeURL(MEMBER1, "points_reminders", Buffer.alloc(32, 8).toString("base64")));
  assert.equal(forged.status(), 403);
  await page.getByRole("heading", { name: "Link not valid" }).waitFor();
  assert.equal(await page.getByRole("button").count(), 0);

  // No session needed: the signed link is the proof. The member chose
  // Japanese for mails (first test), so the page speaks it.
  const res = await page.goto(unsubscribeURL(MEMBER1, "points_reminders"));
  assert.equal(res.status(), 200);
  await page.getByRole("heading", { name: "配信停止" }).waitFor();
  await page.getByText("このアドレスへの「ポイントの有効期限のお知らせ」のメール配信を停止しますか？").waitFor();
  await screenshot(page, "notifications-unsubscribe-jp-phone");
  assert.deepEqual(await violations(page), []);
  await page.getByRole("button", { name: "配信を停止する" }).click();
  await page.getByRole("heading", { name: "配信を停止しました" }).waitFor();
  await screenshot(page, "notifications-unsubscribed-jp-phone");

  await signIn(page, env.server.url, undefined, "jp");
  await page.goto(`${env.server.url}/account/notifications?lang=jp`);
  await page.getByRole("heading", { level: 1, name: "通知設定" }).waitFor();
  assert.equal(await page.getByRole("checkbox", { name: "ポイントの有効期限のお知らせ" }).isChecked(), false);
  await context.close();
});
