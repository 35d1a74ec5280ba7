// A member who comes from the airline's systems, as in production: the
// booking site provisions them through the members feed (no password), the
// reservation system pushes their booking through the bookings feed, both
// signed as the airline signs them (docs/airline-feeds.md). The member opens
// the set-password link of the mail (read from the outbox), sets a password,
// logs in through the form, and finds the booking on home and on /bookings:
// in en and jp, at 375 px and at 320 px.
/* global document, window */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";
import { outbox } from "./outbox.mjs";
import { signedFeeds, DEMO_FEED_SECRETS } from "./feeds.mjs";

const env = e2eSuite({ before, after });
const { mailOf, linksOf } = outbox(env);
const { feedCall } = signedFeeds(env);

const NARROW = { width: 320, height: 700 };
const PASSWORD = "Sora2026pw";

/** What the pages say, by language. */
const TEXTS = {
  en: {
    mail: /Open the link below to choose your password\. The link can be used once and expires in 7\s?days\./,
    setTitle: "Set your password",
    newPassword: /^New password/,
    set: "Set password",
    done: "Your password is set. Please log in with it.",
    toLogin: "Go to login",
    greeting: /Sora/,
    usedLink: /This link to set your password is invalid or has expired/,
  },
  jp: {
    mail: /下記のリンクからパスワードを設定してください。リンクは1回のみ有効で、7\u2060?日後に無効になります。/,
    setTitle: "パスワードの設定",
    newPassword: /^新しいパスワード(?!（確認）)/,
    set: "パスワードを設定",
    done: "パスワードを設定しました。設定したパスワードでログインしてください。",
    toLogin: "ログインへ",
    greeting: /Sora/,
    usedLink: /このパスワード設定リンクは無効か、有効期限が切れています/,
  },
};

/** A date in Japan, n days from today, as YYYY-MM-DD. */
function jstDate(days) {
  return new Date(Date.now() + days * 86400e3).toLocaleDateString("sv-SE", { timeZone: "Asia/Tokyo" });
}

/** The member of the booking site, as the members feed takes them (the account page's fields, the language). */
function memberBody(lang) {
  return {
    email: `sora.${lang}@example.com`, firstname: "Hana", lastname: "Sora", gender: "female", birth: "1990-05-06",
    tel: "0312345678", addressCountryCode: "JP", addressPostalCode: "5490001", addressStateAndCity: "Osaka Izumisano",
    address1: "1 Senshu-kuko-kita", optin1: true, lang,
  };
}

/** A booking of the reservation system for the member: MM205 KIX 08:00 → CTS 10:00, twelve days out. */
function bookingBody(memberNumber, email, date) {
  return {
    version: 1, memberNumber, bookingDate: new Date(Date.now() - 3600e3).toISOString().replace(/\.\d+Z$/, "Z"),
    statusCode: "CONFIRMED", currency: "JPY", totalAmount: 12800, contactEmail: email,
    passengers: [{ lastname: "SORA", firstname: "HANA", passengerType: "ADULT" }],
    segments: [{
      key: "1", flight: "MM205", originAirportCode: "KIX", destinationAirportCode: "CTS",
      departDateTime: `${date}T08:00:00+09:00`, arrivalDateTime: `${date}T10:00:00+09:00`,
      statusCode: "CONFIRMED", originTerminal: "1", destinationTerminal: "",
    }],
  };
}

/** The page is no wider than its viewport, and shows no raw catalogue key nor an unfilled placeholder. */
async function assertTidy(page, where) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${where}: ${overflow}px wider than the screen`);
  const text = await page.locator("main").innerText();
  assert.doesNotMatch(text, /\{\{?\w+\}\}?|\b[a-z]+(\.[a-zA-Z]+){2,}\b|undefined|NaN|Invalid Date/, `${where}: a raw key or a placeholder:\n${text}`);
}

/** The booking's card on the page, with its flight on the date. */
async function assertBooking(page, pnr, date, where) {
  const card = page.getByRole("article", { name: new RegExp(pnr) });
  await card.waitFor();
  assert.equal(await card.locator(".flight__date").first().getAttribute("datetime"), date, `${where}: the departure's date`);
  assert.match(await card.locator(".flight__time").first().innerText(), /08:00/, `${where}: the departure's time`);
  assert.match(await card.innerText(), /KIX[\s\S]*CTS/, `${where}: the route`);
}

for (const lang of ["en", "jp"]) {
  test(`a provisioned member (${lang}): the set-password mail's link, a password set, the login, and the pushed booking on home and /bookings at 375 and 320 px`, async () => {
    const number = `E2E-${lang.toUpperCase()}-0001`;
    const pnr = lang === "en" ? "PRVEN1" : "PRVJP1";
    const member = memberBody(lang);
    const date = jstDate(12);

    // The booking site provisions the member; the reservation system pushes the booking.
    const put = await feedCall(DEMO_FEED_SECRETS.members, "PUT", `/ops/v1/members/${number}`, member);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.outcome, "created");
    const pushed = await feedCall(DEMO_FEED_SECRETS.bookings, "PUT", `/ops/v1/reservations/${pnr}`, bookingBody(number, member.email, date));
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal(pushed.body.outcome, "applied");

    // The mail, in the member's language, with its link.
    const mail = await mailOf("password_set", member.email);
    assert.match(mail, TEXTS[lang].mail, mail);
    const link = linksOf(mail).find((l) => new URL(l).pathname.startsWith("/reset-password/"));
    assert.ok(link, `the mail has the set-password link:\n${mail}`);
    assert.equal(new URL(link).searchParams.get("lang"), lang, "the link opens the page in the member's language");
    assert.equal(new URL(link).searchParams.get("kind"), "set", "the link opens the page as the one that sets a first password");

    // The link's page: the password set.
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await page.goto(link);
    await page.getByRole("heading", { level: 1, name: TEXTS[lang].setTitle }).waitFor();
    await assertTidy(page, "the set-password page");
    await screenshot(page, `provisioned-set-password-${lang}-phone`);
    await page.getByLabel(TEXTS[lang].newPassword).first().fill(PASSWORD);
    await page.locator('input[autocomplete="new-password"]').nth(1).fill(PASSWORD);
    await page.getByRole("button", { name: TEXTS[lang].set }).click();
    await page.getByRole("status").filter({ hasText: TEXTS[lang].done }).waitFor();
    await page.getByRole("heading", { level: 1, name: TEXTS[lang].setTitle }).waitFor();
    await screenshot(page, `provisioned-password-set-${lang}-phone`);

    // The login, through the form the page links to.
    await page.getByRole("link", { name: TEXTS[lang].toLogin }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await page.locator('input[type="email"], input[name="email"]').first().fill(member.email);
    await page.locator('input[type="password"]').first().fill(PASSWORD);
    await page.locator('form button[type="submit"]').first().click();
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));

    // Home: greeted by name, the pushed booking among the upcoming flights.
    await page.getByRole("heading", { level: 1, name: TEXTS[lang].greeting }).waitFor();
    const recent = page.locator(".recent-bookings");
    await assertBooking(recent, pnr, date, "home");
    await assertTidy(page, "home");
    await screenshot(page, `provisioned-home-${lang}-phone`);

    // The bookings page: the same booking, whole.
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    await assertBooking(page, pnr, date, "/bookings");
    const card = page.getByRole("article", { name: new RegExp(pnr) });
    assert.match(await card.innerText(), /SORA|Sora/, "the passenger");
    await assertTidy(page, "/bookings");
    await screenshot(page, `provisioned-bookings-${lang}-phone`);

    await context.close();

    // The link was for one use (opened again without a session).
    const again = await env.newPage(VIEWPORTS.phone);
    await again.page.goto(link);
    await again.page.waitForURL((u) => u.pathname === "/reset-password/invalid");
    // It says the link to set a password was used, not a reset link.
    await again.page.getByText(TEXTS[lang].usedLink).waitFor();
    await assertTidy(again.page, "the used link's page");
    await screenshot(again.page, `provisioned-used-link-${lang}-phone`);
    await again.context.close();

    // At 320 px: the same pages, nothing cut off.
    const narrow = await env.newPage(NARROW);
    await signIn(narrow.page, env.server.url, { email: member.email, password: PASSWORD }, lang);
    await narrow.page.goto(`${env.server.url}/?lang=${lang}`);
    await assertBooking(narrow.page.locator(".recent-bookings"), pnr, date, "home at 320 px");
    await assertTidy(narrow.page, "home at 320 px");
    await screenshot(narrow.page, `provisioned-home-${lang}-320`);
    await narrow.page.goto(`${env.server.url}/bookings?lang=${lang}`);
    await assertBooking(narrow.page, pnr, date, "/bookings at 320 px");
    await assertTidy(narrow.page, "/bookings at 320 px");
    await screenshot(narrow.page, `provisioned-bookings-${lang}-320`);
    await narrow.context.close();
  });
}
