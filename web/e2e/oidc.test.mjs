// The airline's other sites sign members in with this members' area as
// their OpenID Connect provider. Stand-ins for the booking site and a
// hotel partner, on openid-client (e2e/bookingsite.mjs), run beside the
// real server: "Change booking" lands the member on the booking site
// logged in as themselves, without a page of ours between; a logout here
// reaches the booking site as a valid back-channel logout token; its next
// silent sign-on fails and the login page says so; the partner asks for
// consent first, in the member's language. At 375 px, in en and jp.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { freePort, launchBrowser, root, screenshot, signIn, startServer, VIEWPORTS } from "./harness.mjs";
import { startBookingSite } from "./bookingsite.mjs";

const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
const bookingPort = await freePort();
const partnerPort = await freePort();
// The server is told where the booking site is before it starts, and the
// stand-ins are registered as its clients after: one hook does all of it.
const env = {
  server: undefined,
  browser: undefined,
  async newPage(viewport) {
    const context = await env.browser.newContext({ viewport, locale: "en-US" });
    return { context, page: await context.newPage() };
  },
};
let booking, partner;

function addClient(args) {
  const out = execFileSync(bin, ["oidc", "clients", "add", "--db", env.server.dsn, ...args], { encoding: "utf8" });
  const [id, secret] = out.trim().split("\t");
  return { id, secret };
}

before(async () => {
  env.server = await startServer(["--booking-site-url", `http://127.0.0.1:${bookingPort}`]);
  env.browser = await launchBrowser();
  const b = addClient(["--name", "Booking site", "--first-party", "--redirect-uri", `http://127.0.0.1:${bookingPort}/callback`,
    "--backchannel-logout-uri", `http://127.0.0.1:${bookingPort}/backchannel-logout`]);
  booking = await startBookingSite({ port: bookingPort, issuer: env.server.url, clientId: b.id, secret: b.secret });
  const p = addClient(["--name", "Sora Hotels", "--redirect-uri", `http://127.0.0.1:${partnerPort}/callback`]);
  partner = await startBookingSite({ port: partnerPort, issuer: env.server.url, clientId: p.id, secret: p.secret, silent: false, scope: "openid email membership" });
});
after(async () => {
  await booking?.close();
  await partner?.close();
  await env.browser?.close();
  await env.server?.stop();
});

async function until(what, fn, ms = 15000) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const v = fn();
    if (v) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

for (const [lang, labels] of [
  ["en", { change: "Change booking", menu: "Menu", logout: "Log out", failed: "Please log in again due to an error." }],
  ["jp", { change: "予約を変更", menu: "メニュー", logout: "ログアウト", failed: "エラーが発生したため、再度ログインしてください。" }],
]) {
  test(`${lang} at 375 px: "Change booking" signs in at the booking site, a logout here signs out there`, async () => {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, env.server.url, undefined, lang);
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    const card = page.getByRole("article", { name: /HNK7Q2/ });
    await card.getByRole("button", { name: labels.change }).click();
    await page.waitForURL((u) => u.origin === booking.url && u.pathname === "/booking/HNK7Q2/edit");
    await page.getByText("Logged in as demo@example.com (Hanako Yamada)").waitFor();
    await screenshot(page, `oidc-booking-site-signed-in-${lang}-phone`);
    const [session] = [...booking.sessions.values()];
    assert.equal(session.email, "demo@example.com");
    assert.ok(session.sid, "the ID token names the session (sid)");

    // Log out here: the booking site receives a valid logout token for that session.
    const before = booking.logouts.length;
    await page.goto(`${env.server.url}/?lang=${lang}`);
    await page.getByRole("button", { name: labels.menu }).click();
    await page.getByRole("dialog").getByRole("button", { name: labels.logout }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/login"));
    const got = await until("a back-channel logout token", () => booking.logouts[before]);
    assert.equal(got.error, undefined, `the logout token was refused: ${got.error}`);
    assert.equal(got.claims.sub, session.sub);
    assert.equal(got.claims.sid, session.sid);
    assert.equal(booking.sessions.size, 0, "the booking site still holds the session");

    // Back at the booking site: its silent sign-on fails (no session here
    // now) and the member lands on the login page, which says so.
    await page.goto(`${booking.url}/booking/HNK7Q2/edit?lang=${lang}`);
    await page.waitForURL((u) => u.origin === env.server.url && u.pathname === "/login");
    assert.equal((await page.getByRole("alert").textContent()).trim(), labels.failed);
    await screenshot(page, `oidc-sign-on-failed-${lang}-phone`);
    await context.close();
  });
}

test("a partner asks for consent first, in the member's language (jp, en at 375 px), then signs the member in", async () => {
  for (const [lang, allow, heading, email] of [["jp", "許可する", "Sora Hotelsにログイン", "demo2@example.com"], ["en", "Allow", "Log in to Sora Hotels", "demo@example.com"]]) {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await page.goto(`${partner.url}/?lang=${lang}`);
    // Not logged in here: the login page, then the connect page.
    await page.waitForURL((u) => u.origin === env.server.url && u.pathname === "/login");
    await page.getByLabel(lang === "jp" ? /メールアドレス/ : /E-mail address/).fill(email);
    await page.locator('input[type="password"]').fill("Demo1234");
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname === "/connect");
    await page.getByRole("heading", { name: heading }).waitFor();
    assert.equal(await page.getByRole("listitem").count(), 3);
    await screenshot(page, `oidc-consent-${lang}-phone`);
    await page.getByRole("button", { name: allow, exact: true }).click();
    await page.waitForURL((u) => u.origin === partner.url);
    await page.getByText(`Logged in as ${email}`).waitFor();
    await context.close();
  }
});

test("the security centre lists the sites that use the account (th and en at 320 px) and revokes one", async () => {
  for (const [lang, title, revoke, confirmLabel] of [
    ["th", "เว็บไซต์ที่ใช้บัญชีของคุณ", "เพิกถอนการเข้าถึง: Sora Hotels", "เพิกถอนการเข้าถึง"],
    ["en", "Sites that use your account", "Revoke access: Sora Hotels", "Revoke access"],
  ]) {
    const { context, page } = await env.newPage({ width: 320, height: 720 });
    // Member 2 allowed Sora Hotels (jp) in the test before, member 1 (en).
    await signIn(page, env.server.url, lang === "th" ? { email: "demo2@example.com", password: "Demo1234" } : undefined, lang);
    await page.goto(`${env.server.url}/security?lang=${lang}`);
    const sites = page.getByRole("region", { name: title });
    await sites.getByText("Sora Hotels").waitFor();
    await screenshot(page, `oidc-security-centre-sites-${lang}-320`);
    await sites.getByRole("button", { name: revoke }).click();
    await page.getByRole("dialog").getByRole("button", { name: confirmLabel, exact: true }).click();
    await sites.getByRole("status").waitFor();
    assert.equal(await sites.getByText("Sora Hotels", { exact: true }).count(), 0);
    await context.close();
  }
});
