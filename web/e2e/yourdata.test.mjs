// Your data end to end: the export file, then deletion with the password,
// the mailed link (read from the outbox with `members mail`), the page that
// says what goes and what stays, and a login that fails afterwards.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { downloadText, e2eSuite, signIn, screenshot, VIEWPORTS, DEMO, DEMO2, root } from "./harness.mjs";

const env = e2eSuite({ before, after });
const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");

/** The newest deletion link mailed to `to`, from the outbox. */
function deletionLink(to) {
  const list = execFileSync(bin, ["mail", "list", "--db", env.server.dsn], { encoding: "utf8" });
  const row = list.split("\n").find((l) => l.includes("account_deletion") && l.includes(to));
  assert.ok(row, `no deletion mail to ${to} in:\n${list}`);
  const mail = execFileSync(bin, ["mail", "show", "--db", env.server.dsn, row.split(/\s+/)[0]], { encoding: "utf8" });
  const m = mail.match(/https?:\/\/\S+\/delete-account\/[A-Za-z0-9_-]+\?lang=[a-z]{2}/);
  assert.ok(m, mail);
  return m[0];
}

test("the export downloads one JSON file with every part", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.desktop);
  await signIn(page, env.server.url);
  await page.goto(`${env.server.url}/account?lang=en`);
  await page.getByRole("link", { name: /Your data/ }).click();
  await page.getByRole("heading", { name: "Your data", level: 1 }).waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download my data (JSON)" }).click()]);
  assert.match(download.suggestedFilename(), /^members-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await downloadText(download));
  assert.equal(data.parts.profile.email, DEMO.email);
  for (const k of ["passengers", "bookings", "savedCards", "payments", "points", "passes", "coupons", "sessions", "mails"]) {
    assert.ok(Array.isArray(data.parts[k]), k);
  }
  assert.ok(data.parts.savedCards.every((c) => Object.keys(c).sort().join() === "brand,last4,savedAt"));
  await screenshot(page, "your-data-desktop");
  await context.close();
});

test("deletion: password, mailed link, what goes and stays, then no login", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  await signIn(page, env.server.url, DEMO2);
  await page.goto(`${env.server.url}/your-data?lang=en`);
  const zone = page.getByRole("region", { name: "Delete your account" });
  await zone.getByLabel(/Current password/).fill("Wrong1234");
  await zone.getByRole("button", { name: "Send me the confirmation link" }).click();
  await page.getByText("The password is not correct.").first().waitFor();
  // Close the validation dialog the shell opens for server field errors.
  const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
  await dialog.waitFor();
  await screenshot(page, "your-data-wrong-password-phone");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await zone.getByLabel(/Current password/).fill(DEMO2.password);
  await zone.getByRole("button", { name: "Send me the confirmation link" }).click();
  await zone.getByText(/We sent a confirmation link/).waitFor();
  await screenshot(page, "your-data-phone");

  const link = deletionLink(DEMO2.email).replace(/^https?:\/\/[^/]+/, env.server.url);
  // In Japanese first: the losses to tick, on a phone and a desktop.
  await page.goto(link.replace(/lang=[a-z]{2}/, "lang=jp"));
  await page.getByRole("heading", { name: "失われるもの" }).or(page.getByText("失われるもの")).first().waitFor();
  await screenshot(page, "delete-account-phone-jp");
  await page.setViewportSize(VIEWPORTS.desktop);
  await screenshot(page, "delete-account-desktop-jp");
  await page.setViewportSize(VIEWPORTS.phone);

  await page.goto(link);
  await page.getByRole("heading", { name: "Your account will be deleted" }).waitFor();
  await page.getByText(/Payment records/).waitFor();
  // Every point balance (and refundable coupon pass) is ticked by name
  // before the button works.
  const losses = page.getByRole("group", { name: "What you will lose" });
  const boxes = losses.getByRole("checkbox");
  const n = await boxes.count();
  assert.ok(n > 0, "member 2 has point balances to lose");
  assert.match(await losses.innerText(), /Points balance [A-Z]{3} [\d,.]+/);
  const del = page.getByRole("button", { name: "Delete my account permanently" });
  assert.equal(await del.isDisabled(), true);
  await screenshot(page, "delete-account-phone");
  for (let i = 0; i < n; i++) await boxes.nth(i).check();
  assert.equal(await del.isDisabled(), false);
  await page.setViewportSize(VIEWPORTS.desktop);
  await screenshot(page, "delete-account-desktop");
  await del.click();
  await page.waitForURL((u) => u.pathname === "/account-deleted");
  await page.getByRole("heading", { name: "Your account has been deleted" }).waitFor();
  await screenshot(page, "account-deleted-desktop");

  // The link is spent and the member cannot sign in any more.
  await page.goto(`${env.server.url}/login?lang=en`);
  await page.locator('input[type="email"]').fill(DEMO2.email);
  await page.locator('input[type="password"]').fill(DEMO2.password);
  await page.locator('form button[type="submit"]').click();
  await page.locator("#login-failure").waitFor();
  assert.ok(new URL(page.url()).pathname.startsWith("/login"), "a deleted member stays on the login page");
  await context.close();
});
