/* global window, document */
// Stripe mode end to end: bin/members serve --gateway stripe against
// bin/stripefake (the backend's stateful Stripe API stand-in) on loopback.
//
// js.stripe.com cannot be reached from here (no outside network), so the
// browser gets a local stand-in for it through Playwright's route: a small
// Stripe.js (window.Stripe) whose Card Element mounts a frame of the
// js.stripe.com origin (number, expiry, CVC inputs, reported to the page by
// postMessage as Stripe's frame does), and whose createPaymentMethod answers
// the stand-in's test PaymentMethods (pm_card_visa, pm_card_threeDSecureRequired,
// pm_card_chargeDeclined…) by the typed test card number. The app, the
// server, its Content-Security-Policy and the API stand-in are the real ones.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { apiCall, freePort, launchBrowser, root, screenshot, signIn, startServer, VIEWPORTS } from "./harness.mjs";

/** Stripe's test numbers → the stand-in API's PaymentMethods (docs.stripe.com/testing). */
const TEST_CARDS = {
  "4242424242424242": "pm_card_visa",
  "5555555555554444": "pm_card_mastercard",
  "3566002020360505": "pm_card_jcb",
  "4000002760003184": "pm_card_threeDSecureRequired",
  "4000000000000002": "pm_card_chargeDeclined",
  "4000000000009995": "pm_card_chargeDeclinedInsufficientFunds",
  "4000000000000069": "pm_card_chargeDeclinedExpiredCard",
};

/** The stand-in for https://js.stripe.com/<release>/stripe.js. */
const STRIPE_JS = `(() => {
  const CARDS = ${JSON.stringify(TEST_CARDS)};
  window.__stripeStandIn = { keys: [], locales: [], created: [] };
  window.Stripe = function Stripe(key) {
    window.__stripeStandIn.keys.push(key);
    let typed = { number: "", exp: "", cvc: "" };
    const handlers = {};
    const emit = (ev, e) => (handlers[ev] || []).forEach((cb) => cb(e));
    const element = {
      mount(node) {
        const frame = document.createElement("iframe");
        frame.src = "https://js.stripe.com/standin/card.html";
        frame.title = "Secure card payment input frame";
        frame.style.cssText = "border:0;width:100%;height:24px;display:block";
        node.appendChild(frame);
        window.addEventListener("message", (m) => {
          if (m.origin !== "https://js.stripe.com" || !m.data || m.data.standIn !== "card") return;
          if (m.data.event === "focus" || m.data.event === "blur") return emit(m.data.event, {});
          typed = m.data.typed;
          const complete = typed.number.replace(/\\s/g, "").length === 16 && /^\\d\\d \\/ \\d\\d$/.test(typed.exp) && typed.cvc.length >= 3;
          emit("change", { elementType: "card", empty: typed.number === "", complete, error: undefined });
        });
        setTimeout(() => emit("ready", {}), 0);
      },
      on(ev, cb) { (handlers[ev] = handlers[ev] || []).push(cb); return element; },
      off(ev, cb) { handlers[ev] = (handlers[ev] || []).filter((h) => h !== cb); return element; },
      update() {}, destroy() {}, unmount() {}, focus() {}, blur() {}, clear() {},
    };
    return {
      elements(opts) {
        window.__stripeStandIn.locales.push(opts && opts.locale);
        return { create: () => element, getElement: () => element, update() {} };
      },
      async createPaymentMethod(params) {
        const n = typed.number.replace(/\\s/g, "");
        window.__stripeStandIn.created.push({ type: params.type, name: params.billing_details && params.billing_details.name });
        if (n.length < 16) return { error: { type: "validation_error", code: "incomplete_number", message: "Your card number is incomplete." } };
        const id = CARDS[n];
        if (!id) return { error: { type: "validation_error", code: "invalid_number", message: "Your card number is invalid." } };
        return { paymentMethod: { id, object: "payment_method", type: "card" } };
      },
      async createToken() { return { error: { type: "invalid_request_error", message: "not in the stand-in" } }; },
      async confirmCardPayment() { return { error: { type: "invalid_request_error", message: "not in the stand-in" } }; },
    };
  };
})();`;

/** The stand-in's card frame, served from the js.stripe.com origin. */
const CARD_FRAME = `<!doctype html><html><head><meta charset="utf-8"><style>
  body{margin:0;font:16px system-ui,sans-serif}div{display:flex;gap:6px}input{border:0;font:inherit;min-width:0;padding:2px 0;outline:none}
  #n{flex:1 1 auto}#e{width:4.6em}#c{width:3em}</style></head><body><div>
  <input id="n" name="cardnumber" aria-label="Card number" placeholder="1234 1234 1234 1234" inputmode="numeric" autocomplete="cc-number">
  <input id="e" name="exp-date" aria-label="Expiration date" placeholder="MM / YY" autocomplete="cc-exp">
  <input id="c" name="cvc" aria-label="CVC" placeholder="CVC" inputmode="numeric" autocomplete="cc-csc"></div>
  <script>
  const send = (event) => parent.postMessage({ standIn: "card", event, typed: { number: n.value, exp: e.value, cvc: c.value } }, "*");
  for (const i of [n, e, c]) { i.addEventListener("input", () => send("change")); i.addEventListener("focus", () => send("focus")); i.addEventListener("blur", () => send("blur")); }
  </script></body></html>`;

let fake;
let server;
let browser;

/** Starts bin/stripefake on a free loopback port; resolves with its URL. */
function startFake(webhookURL) {
  const bin = path.join(path.dirname(process.env.MEMBERS_BIN || path.join(root, "bin/members")), "stripefake");
  const proc = spawn(bin, ["--addr", "127.0.0.1:0", "--webhook-url", webhookURL, "--webhook-secret", "whsec_test_e2e"], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  proc.stderr.on("data", (d) => { log += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stripefake did not start:\n${log}`)), 15000);
    proc.stdout.on("data", (d) => {
      const m = /listening on (http:\/\/\S+)/.exec(String(d));
      if (m) { clearTimeout(timer); resolve({ url: m[1], stop: () => new Promise((r) => { proc.once("exit", r); proc.kill("SIGTERM"); }) }); }
    });
    proc.on("exit", (code) => { clearTimeout(timer); reject(new Error(`stripefake exited ${code}:\n${log}`)); });
  });
}

before(async () => {
  // the stand-in sends Stripe's signed events to the server, whose port is chosen first
  const port = await freePort();
  fake = await startFake(`http://127.0.0.1:${port}/webhooks/stripe`);
  server = await startServer([
    "--gateway", "stripe", "--stripe-api-url", fake.url,
    "--stripe-secret-key", "sk_test_e2e", "--stripe-publishable-key", "pk_test_e2e", "--stripe-webhook-secret", "whsec_test_e2e",
  ], { port });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
});

/**
 * A member's page with the js.stripe.com stand-in, logged in. It records
 * every Content-Security-Policy refusal the page reports.
 */
async function memberPage(lang, viewport = VIEWPORTS.phone) {
  const context = await browser.newContext({ viewport, locale: "en-US" });
  await context.route("https://js.stripe.com/**", (route) => {
    const u = new URL(route.request().url());
    if (/^\/[a-z]+\/stripe\.js$|^\/v3\/?$/.test(u.pathname)) return route.fulfill({ contentType: "text/javascript", body: STRIPE_JS });
    if (u.pathname === "/standin/card.html") return route.fulfill({ contentType: "text/html", body: CARD_FRAME });
    return route.fulfill({ status: 404, body: "" });
  });
  const page = await context.newPage();
  const refused = [];
  page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) refused.push(m.text()); });
  await signIn(page, server.url, undefined, lang);
  // each test starts with no card of Stripe's saved (the server refuses a card saved twice)
  const cards = await apiCall(page, server.url, "GET", "/api/cc");
  for (const c of cards.body.creditcards.filter((x) => x.gateway === "stripe")) {
    await apiCall(page, server.url, "DELETE", `/api/cc/${encodeURIComponent(c.token)}?gateway=stripe`);
  }
  return { context, page, refused };
}

/** The address a CSP refusal names (what was blocked). */
const blocked = (message) => /'(https?:[^']+)'/.exec(message)?.[1] ?? "";

/** Types a card into the stand-in's frame (Stripe's field) and the holder into ours. */
async function typeCard(page, number, holder = "TARO PEACH", holderLabel = /Cardholder name|カード名義|ชื่อผู้ถือบัตร/) {
  const frame = page.frameLocator('[data-testid="stripe-card"] iframe');
  await frame.locator('input[name="cardnumber"]').fill(number);
  await frame.locator('input[name="exp-date"]').fill("08 / 33");
  await frame.locator('input[name="cvc"]').fill("123");
  await page.getByLabel(holderLabel).fill(holder);
}

const T = {
  en: { open: "Register a card", submit: "Register", saved: /The card has been registered/, nothing: "Nothing was charged to your card." },
  jp: { open: "カードを登録する", submit: "登録する", saved: /カードを登録しました/, nothing: "カードへの請求は発生していません。" },
  th: { open: "ลงทะเบียนบัตร", submit: "ลงทะเบียน", saved: /ลงทะเบียนบัตรแล้ว/, nothing: "ไม่มีการเรียกเก็บเงินจากบัตรของคุณ" },
};

async function openRegister(page, lang) {
  await page.goto(`${server.url}/payment-methods?lang=${lang}`);
  await page.getByRole("button", { name: T[lang].open }).click();
  await page.frameLocator('[data-testid="stripe-card"] iframe').locator('input[name="cardnumber"]').waitFor();
}

test("the CSP of Stripe mode lets Stripe's script and frame in, and nothing else", async () => {
  const { context, page, refused } = await memberPage("en");
  const res = await page.goto(`${server.url}/payment-methods?lang=en`);
  const csp = res.headers()["content-security-policy"] ?? "";
  const directive = (name) => csp.split(";").map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? "";
  assert.match(directive("script-src"), /https:\/\/js\.stripe\.com/, csp);
  assert.match(directive("frame-src"), /https:\/\/js\.stripe\.com/, csp);
  assert.match(directive("connect-src"), /https:\/\/api\.stripe\.com/, csp);
  assert.doesNotMatch(csp, /m\.stripe\.network|\*/, "no other Stripe origin, no wildcard");
  await page.getByRole("button", { name: "Register a card" }).click();
  // the stand-in script ran (script-src) and its frame loaded (frame-src)
  await page.frameLocator('[data-testid="stripe-card"] iframe').locator('input[name="cardnumber"]').waitFor();
  assert.deepEqual(await page.evaluate(() => window.__stripeStandIn.keys), ["pk_test_e2e"]);
  assert.deepEqual(await page.evaluate(() => window.__stripeStandIn.locales), ["en"]);
  // Stripe.js was loaded without the fraud-signals frame the CSP does not allow
  const src = await page.evaluate(() => [...document.scripts].map((s) => s.src).find((s) => s.startsWith("https://js.stripe.com/")));
  assert.match(src, /advancedFraudSignals=false/);
  // a script of another origin is still refused (the CSP is in force)
  await page.evaluate(() => { const s = document.createElement("script"); s.src = "https://evil.example/x.js"; document.head.appendChild(s); });
  await page.waitForTimeout(300);
  assert.ok(refused.some((r) => r.includes("evil.example")), `the other origin refused: ${refused} (CSP ${csp})`);
  assert.deepEqual(refused.filter((r) => blocked(r).includes("stripe")), [], "nothing of Stripe's refused");
  await context.close();
});

test("Stripe mode: the login page loads no Stripe.js", async () => {
  const context = await browser.newContext({ viewport: VIEWPORTS.phone });
  const stripeRequests = [];
  context.on("request", (r) => { if (r.url().includes("stripe")) stripeRequests.push(r.url()); });
  const page = await context.newPage();
  await page.goto(`${server.url}/login?lang=en`);
  await page.locator('input[type="password"]').waitFor();
  assert.deepEqual(stripeRequests, [], "no Stripe request on the login page");
  await context.close();
});

const CARD = { en: ["5555 5555 5555 4444", /Mastercard/], jp: ["4242 4242 4242 4242", /Visa|VISA/], th: ["3566 0020 2036 0505", /JCB/] };
for (const lang of ["en", "jp", "th"]) {
  test(`save a card in Stripe's field (${lang}, 375 px)`, async () => {
    const { context, page, refused } = await memberPage(lang);
    await openRegister(page, lang);
    await typeCard(page, CARD[lang][0]);
    await screenshot(page, `stripe-register-form-${lang}-phone`);
    await page.getByRole("button", { name: T[lang].submit, exact: true }).click();
    const outcome = page.getByTestId("register-outcome");
    await outcome.getByText(T[lang].saved).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "register-outcome", "focus on the outcome");
    await page.locator(".saved-cards").getByText(CARD[lang][1]).first().waitFor();
    await screenshot(page, `stripe-register-saved-${lang}-phone`);
    assert.deepEqual(await page.evaluate(() => window.__stripeStandIn.created), [{ type: "card", name: "TARO PEACH" }]);
    assert.deepEqual(refused, []);
    await context.close();
  });

  test(`a declined card says why and that nothing was charged (${lang}, 375 px)`, async () => {
    const { context, page } = await memberPage(lang);
    await openRegister(page, lang);
    await typeCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: T[lang].submit, exact: true }).click();
    const refusal = page.getByTestId("register-refusal");
    await refusal.getByText(T[lang].nothing).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "register-refusal", "focus on the refusal");
    const text = await refusal.innerText();
    assert.ok(text.split("\n").filter((l) => l.trim()).length >= 3, `the reason between the two lines: ${text}`);
    await screenshot(page, `stripe-register-declined-${lang}-phone`);
    // an incomplete card stays with Stripe's message, nothing is asked
    await typeCard(page, "4242 4242");
    await page.getByRole("button", { name: T[lang].submit, exact: true }).click();
    await page.getByText("Your card number is incomplete.").waitFor();
    await context.close();
  });
}

test("a 3-D Secure card: to the issuer's page and back, saved (jp) or refused (en)", async () => {
  for (const [lang, outcome] of [["jp", "Complete"], ["en", "Fail"]]) {
    const { context, page } = await memberPage(lang);
    await openRegister(page, lang);
    await typeCard(page, "4000 0027 6000 3184");
    // the stand-in's PaymentMethod ids are fixed (Stripe's are new at every
    // entry) and the server's idempotency key names the card and its scope:
    // the second round saves it for the other currencies
    if (lang === "en") await page.getByLabel(/For other currencies/).check();
    await page.getByRole("button", { name: T[lang].submit, exact: true }).click();
    // the stand-in's challenge page (Stripe's hooks.stripe.com in production)
    await page.waitForURL((u) => u.href.startsWith(fake.url));
    await page.getByRole("heading", { name: "3-D Secure (test)" }).waitFor().catch(async (e) => {
      throw new Error(`${lang}: ${page.url()}\n${await page.locator("body").innerText()}`, { cause: e });
    });
    await page.getByRole("button", { name: outcome }).click();
    await page.waitForURL((u) => u.pathname === "/payment-methods");
    const notice = page.getByTestId("register-outcome");
    if (outcome === "Complete") await notice.getByText(T[lang].saved).waitFor();
    else await notice.getByText(T[lang].nothing).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "register-outcome", "focus on the outcome");
    // the check's parameters are gone: a reload does not complete again
    await page.waitForURL((u) => !u.searchParams.has("setup"));
    await screenshot(page, `stripe-register-3ds-${outcome.toLowerCase()}-${lang}-phone`);
    await context.close();
  }
});

test("pay a purchase with a new card in Stripe mode (points, th then en)", async () => {
  for (const lang of ["th", "en"]) {
    const { context, page, refused } = await memberPage(lang);
    await page.goto(`${server.url}/points/sale?lang=${lang}`);
    await page.locator('form.form input[autocomplete="name"]').fill("HANAKO YAMADA");
    await page.locator("#sale-currency").selectOption("JPY");
    await page.locator("#sale-amount").selectOption({ index: 1 });
    await page.locator("form button[type=submit]").first().click();
    await page.locator("#payment-panel-title").waitFor();
    // no usable saved card (the demo's are the sandbox's): a new card, in Stripe's field
    const frame = page.frameLocator('[data-testid="stripe-card"] iframe');
    await frame.locator('input[name="cardnumber"]').waitFor();
    await typeCard(page, "4242 4242 4242 4242", "HANAKO YAMADA", /Cardholder name|ชื่อผู้ถือบัตร/);
    await screenshot(page, `stripe-purchase-card-${lang}-phone`);
    await page.locator(".payment-panel__confirm").click();
    await page.waitForURL((u) => /^\/payment\/peachpoints\/[^/]+$/.test(u.pathname));
    await page.locator("main button.button--primary").first().click();
    await page.waitForURL((u) => u.pathname.endsWith("/completed"));
    await page.waitForFunction(() => /\b\d{16}\b/.test(document.querySelector("main")?.innerText ?? ""));
    const text = await page.locator("main").innerText();
    assert.match(text, /\b\d{16}\b/, `the voucher number is shown: ${page.url()}\n${text}`);
    await screenshot(page, `stripe-purchase-completed-${lang}-phone`);
    assert.deepEqual(refused, []);
    await context.close();
  }
});

/** Points sale up to the PaymentPanel with a new card typed into Stripe's field; then confirmation → the prepared page. */
async function buyWithNewCard(page, lang, number) {
  await page.goto(`${server.url}/points/sale?lang=${lang}`);
  await page.locator('form.form input[autocomplete="name"]').fill("HANAKO YAMADA");
  await page.locator("#sale-currency").selectOption("JPY");
  await page.locator("#sale-amount").selectOption({ index: 1 });
  await page.locator("form button[type=submit]").first().click();
  await page.frameLocator('[data-testid="stripe-card"] iframe').locator('input[name="cardnumber"]').waitFor();
  await typeCard(page, number, "HANAKO YAMADA", /Cardholder name|カード名義/);
  await page.locator(".payment-panel__confirm").click();
  await page.waitForURL((u) => /^\/payment\/peachpoints\/[^/]+$/.test(u.pathname));
  await page.locator("main button.button--primary").first().click();
}

test("a purchase in Stripe mode with a declined card says why and that nothing was charged (jp)", async () => {
  const { context, page } = await memberPage("jp");
  await buyWithNewCard(page, "jp", "4000 0000 0000 0002");
  await page.getByText("カードが承認されませんでした。別のカードをご利用ください。カードへの請求は発生していません。").waitFor();
  await screenshot(page, "stripe-purchase-declined-jp-phone");
  await context.close();
});

test("a purchase in Stripe mode with a 3-D Secure card goes to the issuer's page and back to its result (jp)", async () => {
  const { context, page } = await memberPage("jp");
  await buyWithNewCard(page, "jp", "4000 0027 6000 3184");
  await page.waitForURL((u) => u.href.startsWith(fake.url));
  await page.getByRole("button", { name: "Complete" }).click();
  await page.waitForURL((u) => /\/payment\/peachpoints\/[^/]+\/(result|completed)$/.test(u.pathname));
  await page.waitForFunction(() => /\b\d{16}\b/.test(document.querySelector("main")?.innerText ?? ""), undefined, { timeout: 20000 })
    .catch(async (e) => { throw new Error(`${page.url()}\n${await page.locator("main").innerText()}`, { cause: e }); });
  await screenshot(page, "stripe-purchase-3ds-completed-jp-phone");
  await context.close();
});

/** The payment feature's catalogue of a language (what the member reads). */
const paymentText = (lang) => JSON.parse(readFileSync(path.join(root, "web/src/features/payment/locales", `${lang}.json`), "utf8"));

test("Stripe.js that cannot load: card entry is unavailable, in the member's language, and the other ways to pay are offered (blocked: en, jp; no answer: th; 320 px)", async () => {
  for (const [lang, how] of [["en", "blocked"], ["jp", "blocked"], ["th", "no answer"]]) {
    const L = paymentText(lang);
    const { context, page, refused } = await memberPage(lang, { width: 320, height: 740 });
    // the app's Stripe.js address (js.stripe.com/<release>/stripe.js), over the stand-in's route
    const asked = [];
    await context.route("https://js.stripe.com/**", (route) => {
      asked.push(new URL(route.request().url()).pathname);
      if (how === "blocked") return route.abort("blockedbyclient");
      // no answer: the request stays open, as behind a captive portal
    });
    await page.goto(`${server.url}/points/sale?lang=${lang}`);
    await page.locator('form.form input[autocomplete="name"]').fill("HANAKO YAMADA");
    await page.locator("#sale-currency").selectOption("JPY");
    await page.locator("#sale-amount").selectOption({ index: 1 });
    await page.locator("form button[type=submit]").first().click();
    await page.locator("#payment-panel-title").waitFor();
    // while it loads, the box says so (never an empty grey box)
    if (how === "no answer") await page.getByRole("status").filter({ hasText: L.stripe.loading }).waitFor();
    const alert = page.getByRole("alert").filter({ hasText: L.stripe.loadFailed });
    await alert.waitFor({ timeout: 20000 });
    await alert.getByText(L.stripe.otherMethodsHint).waitFor();
    assert.ok(asked.some((p) => /^\/[a-z]+\/stripe\.js$|^\/v3\/?$/.test(p)), `Stripe.js was asked for: ${asked}`);
    assert.equal(await page.locator(".stripe-card__frame").filter({ visible: true }).count(), 0, "no empty card box is shown");
    assert.equal(await page.locator(".payment-panel__confirm").isDisabled(), true, "no card to pay with: the confirm button waits");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 320, `${lang}: the page is ${width} px wide at 320 px`);
    for (const b of await alert.getByRole("button").all()) {
      const box = await b.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 320, `${lang}: a button of the notice leaves the screen: ${JSON.stringify(box)}`);
    }
    await screenshot(page, `stripe-unavailable-${lang}-320`);
    // the other ways to pay: the chooser, then the convenience store
    await alert.getByRole("button", { name: L.stripe.otherMethods }).click();
    const chooser = page.getByRole("dialog", { name: L.chooser.title });
    await chooser.getByRole("button", { name: L.methods.convenienceStore }).click();
    await page.getByTestId("current-method").getByText(L.methods.convenienceStore).waitFor();
    assert.equal(await page.locator(".payment-panel__confirm").isDisabled(), false);
    await page.locator(".payment-panel__confirm").click();
    await page.waitForURL((u) => /^\/payment\/peachpoints\/[^/]+$/.test(u.pathname));
    assert.deepEqual(refused, []);
    await context.close();
  }
});
