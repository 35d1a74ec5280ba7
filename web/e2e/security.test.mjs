/* global document */
// Session security end to end, on a server whose clock the test moves
// (--test-clock): the spec's whole idle-timeout flow, and login after it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, advanceServerClock, login, signIn, screenshot, settledValue, VIEWPORTS, DEMO, DEMO2, root } from "./harness.mjs";

const env = e2eSuite({ before, after }, { serverArgs: ["--test-clock"] });

const IDLE_LIMIT_SECONDS = 30 * 60;

test("a page load after the idle limit goes to /login with the redirect; login returns to the page", async () => {
  for (const viewport of Object.values(VIEWPORTS)) {
    const { context, page } = await env.newPage(viewport);
    await signIn(page, env.server.url);
    await page.goto(`${env.server.url}/bookings?lang=en`);
    await page.getByRole("heading", { level: 1 }).waitFor();

    // 31 idle minutes on the server: the session is dead, the cookie still in the browser.
    await advanceServerClock(env.server, IDLE_LIMIT_SECONDS + 60);
    await page.goto(`${env.server.url}/account?lang=en`);
    // The page's session check finds no live session: /login with the redirect.
    await page.waitForURL(/\/login\?/);
    assert.match(new URL(page.url()).searchParams.get("redirect") ?? "", /^\/account/);

    await page.getByLabel("E-mail address").fill(DEMO.email);
    await page.getByLabel("Password").fill(DEMO.password);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/account");
    await page.getByRole("heading", { level: 1 }).waitFor();
    assert.equal(await page.getByText("Processing was interrupted").count(), 0);
    await context.close();
  }
});

test("a data call after the idle limit opens the timeout modal; login from it returns to the page", async () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  const { context, page } = await env.newPage(viewport);
  // The API calls that did not succeed, so a stray error toast says which call it was.
  const trail = [];
  page.on("response", (r) => {
    if (r.status() >= 400 && r.url().includes("/api")) trail.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  page.on("requestfailed", (r) => trail.push(`failed (${r.failure()?.errorText}) ${r.method()} ${new URL(r.url()).pathname}`));
  await signIn(page, env.server.url);
  await page.goto(`${env.server.url}/?lang=en`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  // The home page's own data calls (banner, upcoming flights) must be done
  // before the clock moves: one sent after it opens the modal on the home
  // page, which makes the menu inert before the click below (seen under load).
  await page.waitForLoadState("networkidle");
  await advanceServerClock(env.server, IDLE_LIMIT_SECONDS + 60);
  const dialog = page.getByRole("dialog", { name: "Please try to log in again" })
    .or(page.getByRole("alertdialog", { name: "Please try to log in again" }));
  // In-app navigation: the next data call answers 403. Under load a call of
  // the home page can still come after the clock move (CI, load 20): its 403
  // opens the same modal on the home page, the page behind turns inert, and
  // the flow under test is the same with "/" as the page to return to.
  let returnTo = "/bookings";
  try {
    await page.getByRole("navigation").getByRole("link", { name: "Bookings" }).first().click({ timeout: 10_000 });
  } catch (err) {
    if (!(await dialog.isVisible())) {
      const open = await page.getByRole("dialog").or(page.getByRole("alertdialog")).allInnerTexts();
      throw new Error(`${err.message}\nopen dialogs: ${JSON.stringify(open)}\ncalls that failed:\n${trail.join("\n")}`, { cause: err });
    }
    returnTo = "/";
  }
  await dialog.waitFor();
  assert.ok(trail.some((c) => c.startsWith("403 ")), `the modal comes from a 403; calls that failed:\n${trail.join("\n")}`);
  await screenshot(page, `session-timeout-modal-${name}`);
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL(/\/login\?/);
  const redirect = new URL(page.url()).searchParams.get("redirect") ?? "";
  assert.equal(new URL(redirect, env.server.url).pathname, returnTo);
  // The browser still holds the dead session cookie if the 403 did not
  // clear it; login must work either way.
  await page.getByLabel("E-mail address").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL((u) => u.pathname === returnTo);
  await page.getByRole("heading", { level: 1 }).waitFor();
  await screenshot(page, `session-timeout-relogin-${name}`);
  assert.equal(await page.getByText("Processing was interrupted").count(), 0, `error toast after re-login; calls that failed:\n${trail.join("\n")}`);
  await context.close();
  }
});

/** The newest link of a mail kind to an address, read from the outbox with the operator command. */
async function outboxLink(kind, to, pathPart) {
  const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
  for (let i = 0; i < 50; i++) {
    const list = execFileSync(bin, ["mail", "list", "--db", env.server.dsn], { encoding: "utf8" });
    const row = list.split("\n").find((l) => l.includes(kind) && l.includes(to));
    if (row) {
      const body = execFileSync(bin, ["mail", "show", "--db", env.server.dsn, row.split(/\s+/)[0]], { encoding: "utf8" });
      const m = body.match(new RegExp(`https?://\\S+/email-change/${pathPart}/[^\\s?]+\\?lang=\\w+`));
      assert.ok(m, `the ${kind} mail has a link:\n${body}`);
      return m[0];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${kind} mail to ${to}`);
}

test("changing the e-mail: current password, pending on the account page, confirmed by the link", async () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const { context, page } = await env.newPage(viewport);
    await login(page, env.server.url, DEMO2);
    await page.goto(`${env.server.url}/account?lang=en`);
    const email = page.getByLabel(/^E-mail address/);
    await email.waitFor();
    const newAddr = `kim.${name}@example.com`;
    await email.fill(newAddr);
    // The password field appears only for a new address, and is required.
    const profile = page.locator("section", { has: page.getByRole("heading", { name: "Profile" }) });
    const pw = profile.getByLabel(/^Current password/);
    await pw.waitFor();
    await profile.getByRole("button", { name: "Save" }).click();
    // The form's rule: the input-error dialog lists it, and the field shows it.
    const dialog = page.getByRole("dialog").or(page.getByRole("alertdialog"));
    await dialog.filter({ hasText: "Enter your current password" }).waitFor();
    await dialog.getByRole("button").first().click();
    await profile.getByText("Enter your current password to change the e-mail address.").waitFor();
    await pw.fill(DEMO2.password);
    await profile.getByRole("button", { name: "Save" }).click();
    const pending = page.getByRole("status").filter({ hasText: `will change to ${newAddr}` });
    await pending.waitFor();
    assert.equal(await settledValue(email, DEMO2.email), DEMO2.email, "the form keeps the address in force");
    await screenshot(page, `account-email-pending-${name}`);

    // The link from the mail, opened in another browser without a session.
    const link = await outboxLink("email_change_confirm", newAddr, "confirm");
    const other = await env.newPage(viewport);
    await other.page.goto(link);
    await other.page.getByText(`Your e-mail address is now ${newAddr}.`).waitFor();
    await screenshot(other.page, `email-change-confirmed-${name}`);
    await other.context.close();

    await page.reload();
    await page.getByLabel(/^E-mail address/).waitFor();
    assert.equal(await settledValue(page.getByLabel(/^E-mail address/), newAddr), newAddr);
    assert.equal(await pending.count(), 0);

    // Put it back through the undo link sent to the old address.
    const undo = await outboxLink("email_change_notice", DEMO2.email, "undo");
    await page.goto(undo);
    await page.getByText(/The change was undone/).waitFor();
    await context.close();
  }
});

test("a new visitor's first call is not refused when its two first answers set different pre-login cookies", async () => {
  // A page that posts as it opens (here an e-mail change link) in a browser
  // without cookies: the session info and the CSRF token each set a pre-login
  // cookie. The session info's answer is held back until the token's has set
  // its cookie, and the post until the session info's has replaced it: the
  // post then carries a token for a cookie the browser no longer holds, which
  // the server refuses; the page fetches a token again and sends it once more.
  const { context, page } = await env.newPage();
  let tokenAnswered, infoAnswered;
  const tokenDone = new Promise((r) => { tokenAnswered = r; });
  const infoDone = new Promise((r) => { infoAnswered = r; });
  const posts = []; // the statuses of the page's posts
  await page.route("**/api/csrf_token", async (route) => {
    await route.continue();
    // the browser stores the cookie as the answer arrives; a moment for it
    setTimeout(tokenAnswered, 300);
  });
  await page.route("**/api/session/info", async (route) => {
    const req = route.request();
    // fetched outside the browser (no cookie), answered with its Set-Cookie once the token's cookie is in
    const res = await fetch(req.url(), { headers: { ...req.headers(), cookie: "" } });
    const body = await res.text();
    await tokenDone;
    await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body });
    setTimeout(infoAnswered, 300);
  });
  await page.route("**/api/email_change/confirm", async (route) => {
    await infoDone;
    await route.continue();
  });
  // the app asks for expected refusals quietly: a 404 comes as 200 with X-Status (no console noise)
  page.on("response", (r) => { if (r.url().includes("/api/email_change/confirm")) posts.push(Number(r.headers()["x-status"]) || r.status()); });
  await page.goto(`${env.server.url}/email-change/confirm/not-a-real-token?lang=en`);
  await page.getByText("This link is invalid, has already been used or has expired.").waitFor();
  assert.deepEqual(posts, [403, 404], "refused for the first cookie's token, then answered");
  await context.close();
});

test("no Content-Security-Policy violation while logging in and using the forms", async () => {
  const { context, page } = await env.newPage();
  const violations = [];
  page.on("console", (m) => { if (/Content Security Policy|unsafe-eval/i.test(m.text())) violations.push(m.text()); });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await login(page, env.server.url);
  await page.goto(`${env.server.url}/account?lang=en`);
  await page.getByLabel(/^Phone number/).fill("03-12");
  await page.getByRole("button", { name: "Save" }).first().click();
  await page.getByText("Enter 8 to 11 digits.").first().waitFor();
  await page.goto(`${env.server.url}/bookings?lang=en`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  assert.deepEqual(violations, []);
  await context.close();
});
