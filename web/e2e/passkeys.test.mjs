// Passkeys end to end with Chromium's virtual authenticator (the DevTools
// protocol's WebAuthn domain): register a passkey, log out, log in with it
// (discoverable: no address typed), rename it, remove it after
// re-authentication with the passkey, and find the mails in the outbox.
//
// WebAuthn takes no IP address as relying party id: the server's public URL
// http://127.0.0.1:PORT makes the relying party "localhost", so the browser
// opens the site at http://localhost:PORT (same server).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer, screenshot, VIEWPORTS, root, DEMO, BROWSER_OPTIONS } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";

const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
let server;
let browser;
let base;

before(async () => {
  server = await startServer();
  base = server.url.replace("127.0.0.1", "localhost");
  browser = await chromium.launch(BROWSER_OPTIONS);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page with a virtual platform authenticator (resident keys, user verification). */
async function pageWithAuthenticator(viewport) {
  const context = await browser.newContext({ viewport, locale: "en-US" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2", transport: "internal", hasResidentKey: true,
      hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp, authenticatorId };
}

async function passwordLogin(page, lang = "en") {
  await page.goto(`${base}/login?lang=${lang}`);
  await page.locator('input[type="email"]').first().fill(DEMO.email);
  await page.locator('input[type="password"]').first().fill(DEMO.password);
  await page.locator('form button[type="submit"]').first().click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

/** axe-core's violations on the page, one line each. */
async function violations(page, where) {
  const r = await axeBuilder(page).analyze();
  return r.violations.map((v) => `${where}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

function mails() {
  return execFileSync(bin, ["mail", "list", "--db", server.dsn], { encoding: "utf8" });
}

test("register, log in with, rename and remove a passkey", async () => {
  const { context, page, cdp, authenticatorId } = await pageWithAuthenticator(VIEWPORTS.desktop);
  await passwordLogin(page);

  // The security centre links to the passkeys page.
  await page.goto(`${base}/security?lang=en`);
  await page.getByRole("link", { name: "Passkeys" }).click();
  await page.waitForURL((u) => u.pathname === "/security/passkeys");
  await page.getByText("You have no passkeys yet.").waitFor();

  await page.getByLabel("Name (optional)").fill("Test laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByRole("status").filter({ hasText: "Passkey “Test laptop” added" }).waitFor();
  const list = page.getByRole("region", { name: "Your passkeys" });
  await list.getByText("Test laptop").waitFor();
  await list.getByText("Not used yet").waitFor();
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true, "a discoverable credential");
  assert.match(mails(), /security_passkey_added\s+demo@example\.com/);
  await screenshot(page, "passkeys-desktop");
  const axe = await violations(page, "passkeys (desktop, en)");

  // Log out, then log in with the passkey alone.
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((u) => u.pathname.startsWith("/login"));
  await page.getByRole("button", { name: "Log in with a passkey" }).waitFor();
  await screenshot(page, "passkeys-login-desktop");
  await page.getByRole("button", { name: "Log in with a passkey" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto(`${base}/security/passkeys?lang=en`);
  await list.getByText("Test laptop").waitFor();
  assert.equal(await list.getByText("Not used yet").count(), 0, "last use recorded");
  await page.goto(`${base}/security?lang=en`);
  await page.getByText("This device").waitFor();

  // Rename.
  await page.goto(`${base}/security/passkeys?lang=en`);
  await list.getByRole("button", { name: "Rename Test laptop" }).click();
  await list.getByLabel("New name").fill("Office laptop");
  await list.getByRole("button", { name: "Save" }).click();
  await page.getByRole("status").filter({ hasText: "Passkey renamed." }).waitFor();
  await list.getByText("Office laptop").waitFor();

  // Phone: the list and the login page at 375 px (a second device signs in
  // with the password: the password keeps working beside the passkey).
  const phone = await browser.newContext({ viewport: VIEWPORTS.phone, locale: "ja-JP" });
  const phonePage = await phone.newPage();
  await passwordLogin(phonePage, "jp");
  await phonePage.goto(`${base}/security/passkeys?lang=jp`);
  await phonePage.getByText("Office laptop").waitFor();
  await screenshot(phonePage, "passkeys-phone-jp");
  axe.push(...(await violations(phonePage, "passkeys (phone, jp)")));
  await phonePage.goto(`${base}/security/passkeys?lang=en`);
  await phonePage.getByText("Office laptop").waitFor();
  await screenshot(phonePage, "passkeys-phone");
  await phone.clearCookies();
  await phonePage.goto(`${base}/login?lang=en`);
  await phonePage.getByRole("button", { name: "Log in with a passkey" }).waitFor();
  await screenshot(phonePage, "passkeys-login-phone");
  await phone.close();

  // Remove: refused without re-authentication, done with the passkey.
  await list.getByRole("button", { name: "Remove Office laptop" }).click();
  await list.getByRole("button", { name: "Remove passkey" }).click();
  await list.getByRole("alert").filter({ hasText: "Confirm with your current password or a passkey." }).waitFor();
  await list.getByLabel("Current password").fill("Wrong9999");
  await list.getByRole("button", { name: "Remove passkey" }).click();
  await list.getByRole("alert").filter({ hasText: "The password is not correct." }).waitFor();
  await list.getByText("Office laptop", { exact: true }).waitFor();
  await screenshot(page, "passkeys-remove-desktop");
  axe.push(...(await violations(page, "passkeys removal (desktop, en)")));
  await list.getByRole("button", { name: "Confirm with a passkey instead" }).click();
  await page.getByRole("status").filter({ hasText: "Passkey “Office laptop” removed" }).waitFor();
  await list.getByText("You have no passkeys yet.").waitFor();
  assert.match(mails(), /security_passkey_removed\s+demo@example\.com/);

  // The security centre lists both changes.
  await page.goto(`${base}/security?lang=en`);
  const events = page.getByRole("region", { name: "Recent security events" });
  await events.getByText("A passkey was removed").waitFor();
  await events.getByText("A passkey was added").waitFor();

  // The removed passkey no longer signs in (the authenticator still has it).
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((u) => u.pathname.startsWith("/login"));
  await page.getByRole("button", { name: "Log in with a passkey" }).click();
  await page.getByRole("alert").filter({ hasText: "did not succeed" }).waitFor();
  assert.ok(new URL(page.url()).pathname.startsWith("/login"));
  axe.push(...(await violations(page, "login with a passkey failure (desktop, en)")));
  assert.deepEqual(axe, []);
  await context.close();
});
