// Security centre end to end: two devices logged in, the new-device mail,
// the sessions with device, address and times, signing another device out.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { e2eSuite, login, screenshot, VIEWPORTS, root } from "./harness.mjs";

const env = e2eSuite({ before, after });
const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

test("sessions on two devices, a new-device mail, signing the other device out", async () => {
  const desk = await env.newPage(VIEWPORTS.desktop);
  await login(desk.page, env.server.url);
  const phoneContext = await env.browser.newContext({ viewport: VIEWPORTS.phone, userAgent: IPHONE, locale: "en-US" });
  const phone = await phoneContext.newPage();
  await login(phone, env.server.url);

  const mails = execFileSync(bin, ["mail", "list", "--db", env.server.dsn], { encoding: "utf8" });
  assert.match(mails, /security_new_device\s+demo@example\.com/, mails);

  await desk.page.goto(`${env.server.url}/account?lang=en`);
  await desk.page.getByRole("link", { name: /Security centre/ }).click();
  const sessions = desk.page.getByRole("region", { name: "Where you're logged in" });
  await sessions.getByText("This device").waitFor();
  const items = sessions.getByRole("listitem");
  assert.equal(await items.count(), 2);
  await sessions.getByText(/Safari 17 · iOS \(phone\)/).waitFor();
  await desk.page.getByRole("region", { name: "Recent security events" }).getByText("Logged in from a new device").waitFor();
  await screenshot(desk.page, "security-centre-desktop");

  await phone.goto(`${env.server.url}/security?lang=jp`);
  await phone.getByText("この端末").waitFor();
  await screenshot(phone, "security-centre-phone-jp");

  await sessions.getByRole("button", { name: /^End session: Safari 17/ }).click();
  await sessions.getByText("No other device is logged in.").waitFor();
  // The phone's next load finds its session ended from the desk: the login
  // page says so (not "due to inactivity"), in the phone's language.
  await phone.goto(`${env.server.url}/security?lang=th`);
  await phone.waitForURL((u) => u.pathname.startsWith("/login"));
  await phone.getByText("อุปกรณ์นี้ถูกออกจากระบบจากอุปกรณ์อื่นในศูนย์ความปลอดภัย", { exact: false }).waitFor();
  await screenshot(phone, "security-signed-out-login-th-phone");
  // A reload does not say it again (the server still reports it until a
  // login on this device; the page tells it once), and no dialog covers it.
  await phone.goto(`${env.server.url}/login?lang=en`);
  await phone.getByLabel(/E-mail address/).waitFor();
  assert.equal(await phone.getByText("This device was logged out from another device", { exact: false }).count(), 0);
  assert.equal(await phone.getByRole("alertdialog").count(), 0);
  await screenshot(phone, "security-signed-out-reload-en-phone");
  await desk.context.close();
  await phoneContext.close();
});

test("a device signed out from another one while on a page is told so, not 'due to inactivity' (en, th at 375 px)", async () => {
  for (const [lang, points, title, text] of [
    ["en", "Points", "You were logged out", "This device was logged out from another device, in the Security centre."],
    ["th", "พอยต์", "คุณถูกออกจากระบบแล้ว", "อุปกรณ์นี้ถูกออกจากระบบจากอุปกรณ์อื่นในศูนย์ความปลอดภัย"],
  ]) {
    const desk = await env.newPage(VIEWPORTS.desktop);
    await login(desk.page, env.server.url);
    const phoneContext = await env.browser.newContext({ viewport: VIEWPORTS.phone, userAgent: IPHONE, locale: "en-US" });
    const phone = await phoneContext.newPage();
    await login(phone, env.server.url);
    await phone.goto(`${env.server.url}/account?lang=${lang}`);
    await phone.locator("h1").waitFor();
    // the desk ends every other session
    await desk.page.goto(`${env.server.url}/security?lang=en`);
    await desk.page.getByRole("button", { name: "End all other sessions" }).click();
    await desk.page.getByRole("dialog", { name: "End all other sessions?" }).getByRole("button", { name: "End all other sessions" }).click();
    await desk.page.getByText("No other device is logged in.").waitFor();
    // the phone, still on its page, goes on to another: the dialog names what happened
    await phone.getByRole("button", { name: /Menu|เมนู/ }).click();
    await phone.getByRole("dialog").getByRole("link", { name: points, exact: true }).click();
    const dialog = phone.getByRole("alertdialog", { name: title });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), new RegExp(text));
    await screenshot(phone, `security-signed-out-${lang}-phone`);
    await desk.context.close();
    await phoneContext.close();
  }
});
