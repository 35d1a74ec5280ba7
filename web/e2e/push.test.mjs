// Flight change alerts pushed to the device (docs/flight-alerts.md), end to
// end: the member switches them on (the notifications permission granted
// through the browser context), the operations feed posts a change, the
// server encrypts the push to the device and sends it to a stand-in push
// service, which decrypts it with http_ece and hands it to the real service
// worker through Chromium's DevTools protocol (ServiceWorker.deliverPushMessage),
// as a browser's push service would. The notification shows with its title
// and text in en, jp and th, the trips kept on the device follow while no
// page of the app is open, and a tap opens the booking at 375 px.
//
// Two things are stood in for, as no browser here can reach Google's push
// service: Chromium's pushManager.subscribe (it refuses in a browser
// context, which is off the record, and has no push service to register
// with otherwise) returns the stand-in's endpoint and a key pair this test
// holds; and the stand-in push service itself. Everything else is real:
// the page's subscription path, the server's encryption and VAPID
// signature, the generated service worker with its push and click handlers.
/* global self, indexedDB, PushManager, NotificationEvent, document, window */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createECDH, createHmac, randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import { BROWSER_OPTIONS, DEMO, apiCall, freePort, screenshot, signIn, startServer, VIEWPORTS } from "./harness.mjs";
import { decryptPush } from "./ece-decrypt.mjs";

const SECRET = "demo-ops-secret"; // serve --demo without --ops-secret
const LABEL = {
  en: "Notify me on this device about changes to my flights",
  jp: "フライトの変更をこの端末に通知する",
  th: "แจ้งเตือนการเปลี่ยนแปลงเที่ยวบินบนอุปกรณ์นี้",
};
const ON = {
  en: "On: this device is notified of changes to your flights.",
  jp: "オン: この端末にフライトの変更が通知されます。",
  th: "เปิดอยู่: อุปกรณ์นี้จะได้รับการแจ้งเตือนการเปลี่ยนแปลงเที่ยวบินของคุณ",
};

const standInPort = await freePort();
let server;
let browser;
let standIn;

/**
 * The stand-in push service: it takes the server's pushes for the device
 * (checking the headers a push service needs), decrypts each with http_ece,
 * and delivers it to the registration through `deliver`.
 */
function startStandIn(device) {
  const received = [];
  let deliver = async () => {};
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      if (req.method !== "POST" || req.url !== `/push/${device.id}`) {
        res.writeHead(404).end();
        return;
      }
      const auth = req.headers.authorization ?? "";
      if (req.headers["content-encoding"] !== "aes128gcm" || !req.headers.ttl || !req.headers.urgency || !/^vapid t=[^,]+, k=/.test(auth)) {
        res.writeHead(400).end("missing push headers");
        return;
      }
      let plain;
      try {
        plain = decryptPush(Buffer.concat(chunks), device.privateKey, device.auth).toString("utf8");
      } catch (e) {
        res.writeHead(400).end(String(e));
        return;
      }
      received.push(JSON.parse(plain));
      res.writeHead(201).end();
      await deliver(plain).catch((e) => received.push({ deliveryFailed: String(e) }));
    });
  });
  return new Promise((resolve) =>
    srv.listen(standInPort, "127.0.0.1", () => resolve({ received, onPush: (f) => (deliver = f), close: () => srv.close() })),
  );
}

/** A device's keys, as a browser makes them for a subscription. */
function newDevice() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    id: randomBytes(9).toString("base64url"),
    privateKey: ecdh.getPrivateKey().toString("base64url"),
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
  };
}

/** The page's pushManager, standing in for Chromium's: the subscription is the stand-in's endpoint with the device's keys. */
function standInPushManager({ endpoint, p256dh, auth }) {
  const KEY = "members.e2e.subscription";
  const bytes = (b64) => Uint8Array.from(atob(b64.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const make = (serverKey) => ({
    endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: bytes(serverKey).buffer },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => (localStorage.removeItem(KEY), true),
  });
  PushManager.prototype.subscribe = async function (options) {
    const key = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem(KEY, key);
    return make(key);
  };
  PushManager.prototype.getSubscription = async function () {
    const key = localStorage.getItem(KEY);
    return key ? make(key) : null;
  };
}

before(async () => {
  server = await startServer(["--test-push-service", `http://127.0.0.1:${standInPort}/push/`]);
  // The full browser: the headless shell has no notifications (their permission stays denied).
  browser = await chromium.launch({ ...BROWSER_OPTIONS, executablePath: "/usr/bin/chromium" });
});

after(async () => {
  await browser?.close();
  standIn?.close();
  await server?.stop();
});

async function postEvent(event) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const sig = createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex");
  const res = await fetch(`${server.url}/ops/v1/flight-events`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Ops-Signature": `t=${t},v1=${sig}` },
    body,
  });
  const out = await res.json();
  assert.equal(res.status, 200, JSON.stringify(out));
  assert.equal(out.outcome, "applied");
}

/** Waits until the page is controlled by the service worker. */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }
}

/**
 * The browser's service worker of the site (the generated sw.js), running:
 * Chromium stops an idle worker, so each look starts it again if need be
 * (through the DevTools session `cdp`).
 */
async function worker(context, cdp) {
  for (const until = Date.now() + 15000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const w = context.serviceWorkers().find((s) => s.url().endsWith("/sw.js"));
    if (w) {
      try {
        await w.evaluate(() => true);
        return w;
      } catch {
        // stopped meanwhile
      }
    }
    await cdp?.send("ServiceWorker.startWorker", { scopeURL: `${server.url}/` }).catch(() => {});
  }
  throw new Error("no service worker");
}

/** The notifications the service worker shows, read through its registration. */
async function notifications(context, cdp) {
  return (await worker(context, cdp)).evaluate(async () =>
    (await self.registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, lang: n.lang, data: n.data })));
}

/** Waits until the notification of tag has the change of sequence (or later). */
async function notificationOf(context, cdp, tag, sequence) {
  for (const until = Date.now() + 30000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    const n = (await notifications(context, cdp)).filter((x) => x.tag === tag);
    assert.ok(n.length <= 1, `one notification per flight: ${JSON.stringify(n)}`);
    if (n[0] && n[0].data.sequence >= sequence) return n[0];
  }
  throw new Error(`no notification ${tag} #${sequence}; pushes received: ${JSON.stringify(standIn.received)}`);
}

/** The kept copy's segment of a booking and flight, read in the service worker (IndexedDB members-kept). */
async function keptSegment(context, cdp, pnr, flight) {
  return (await worker(context, cdp)).evaluate(
    async ([pnr, flight]) => {
      const db = await new Promise((res, rej) => {
        const r = indexedDB.open("members-kept");
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      try {
        const rec = await new Promise((res, rej) => {
          const r = db.transaction("kept").objectStore("kept").get("trips");
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        });
        return rec?.trips.find((t) => t.pnr === pnr)?.segments.find((s) => s.flight === flight) ?? null;
      } finally {
        db.close();
      }
    },
    [pnr, flight],
  );
}

test("a flight change pushed to the device: the notification in en, jp and th, the kept trips updated with no page open, a tap opens the booking", async () => {
  const base = server.url;
  const device = newDevice();
  standIn = await startStandIn(device);
  const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: "en-US" });
  await context.grantPermissions(["notifications"], { origin: base });
  await context.addInitScript(standInPushManager, {
    endpoint: `http://127.0.0.1:${standInPort}/push/${device.id}`, p256dh: device.p256dh, auth: device.auth,
  });
  let page = await context.newPage();
  await signIn(page, base, DEMO, "en");

  // Off by default, on by the member's press: the device is the member's on the server.
  await page.goto(`${base}/account/notifications?lang=en`);
  await controlled(page);
  const box = page.getByRole("checkbox", { name: LABEL.en });
  await box.waitFor();
  for (const until = Date.now() + 10000; !(await box.isEnabled()) && Date.now() < until; ) await page.waitForTimeout(100);
  assert.equal(await box.isChecked(), false, "off by default");
  await box.check();
  await page.getByText(ON.en).waitFor();
  await screenshot(page, "push-notifications-on-en-phone");
  const devices = await apiCall(page, base, "GET", "/api/push/devices");
  assert.equal(devices.body.devices.length, 1);
  assert.equal(devices.body.devices[0].current, true);

  // Beside "Keep my trips on this device", on too; the trips kept.
  await page.goto(`${base}/bookings?lang=en`);
  await page.getByRole("checkbox", { name: LABEL.en, checked: true }).waitFor();
  await page.getByRole("checkbox", { name: "Keep my trips on this device" }).check();
  await page.getByText("Saved on this device — last updated").first().waitFor();
  const booking = await (await page.request.get(`${base}/api/reservations/HNK7Q2`, { headers: { "X-Lang": "en" } })).json();
  const date = booking.segments[0].departDateTime.slice(0, 10);
  await screenshot(page.locator(".keep-trips"), "push-bookings-choice-en-phone");

  // No page of the app open: the push reaches the service worker alone.
  await page.close();
  const blank = await context.newPage();
  const cdp = await context.newCDPSession(blank);
  const registrations = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => registrations.push(...e.registrations));
  await cdp.send("ServiceWorker.enable");
  standIn.onPush(async (data) => {
    const reg = registrations.find((r) => !r.isDeleted && r.scopeURL === `${base}/`);
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: base, registrationId: reg.registrationId, data });
  });
  const tag = `flight-MM001-${date}`;

  // en: a delay, with the new time and the gate.
  await postEvent({ id: "e2e-push-1", flight: "MM001", date, kind: "delay", occurredAt: new Date().toISOString(), departure: `${date}T10:40:00+09:00`, gate: "31" });
  let n = await notificationOf(context, cdp, tag, 1);
  assert.equal(n.title, "MM001 delayed");
  assert.equal(n.body, "KIX → ICN: now departs 10:40, scheduled 08:30. Terminal 1, gate 31.");
  assert.equal(n.lang, "en");
  const kept = await keptSegment(context, cdp, "HNK7Q2", "MM001");
  assert.equal(kept.estimatedDepartDateTime, `${date}T10:40:00+09:00`, "the kept copy has the delay");
  assert.equal(kept.originGate, "31");
  assert.equal(kept.isIrregular, true);
  assert.equal(kept.flightChange.kind, "delay");

  // jp: a gate and terminal change within the minute replaces it (one notification, the flight's tag).
  await apiCall(blank, base, "PUT", "/api/user/notification_settings", { flightChanges: true, pointsReminders: true, mailLang: "jp" });
  await postEvent({ id: "e2e-push-2", flight: "MM001", date, kind: "gate", occurredAt: new Date().toISOString(), gate: "7", terminal: "2" });
  n = await notificationOf(context, cdp, tag, 2);
  assert.equal(n.title, "MM001便 搭乗口・ターミナル変更");
  assert.equal(n.body, "KIX → ICN：10:40発。ターミナル2、搭乗口7。");
  assert.equal(n.lang, "ja-JP");
  assert.equal((await keptSegment(context, cdp, "HNK7Q2", "MM001")).originGate, "7");

  // th: the return flight's new schedule, a notification of its own.
  await apiCall(blank, base, "PUT", "/api/user/notification_settings", { flightChanges: true, pointsReminders: true, mailLang: "th" });
  const backDate = booking.segments[1].departDateTime.slice(0, 10);
  await postEvent({ id: "e2e-push-3", flight: "MM002", date: backDate, kind: "time_change", occurredAt: new Date().toISOString(), departure: `${backDate}T15:05:00+09:00` });
  n = await notificationOf(context, cdp, `flight-MM002-${backDate}`, 1);
  assert.equal(n.title, "เที่ยวบิน MM002 เปลี่ยนตารางบิน");
  assert.equal(n.body, "ICN → KIX: ออกเดินทางเวลา 15:05 (เดิม 13:45) ถึงเวลา 16:50 อาคารผู้โดยสาร 1");
  assert.equal(n.lang, "th-TH");
  assert.equal((await keptSegment(context, cdp, "HNK7Q2", "MM002")).departDateTime, `${backDate}T15:05:00+09:00`);
  assert.equal((await notifications(context, cdp)).length, 2);
  assert.equal(standIn.received.filter((m) => m.deliveryFailed).length, 0, JSON.stringify(standIn.received));

  // A tap on the Thai one opens that booking in the app's window, at 375 px.
  page = await context.newPage();
  await page.goto(`${base}/?lang=th`);
  await controlled(page);
  await (await worker(context, cdp)).evaluate(async (tag) => {
    const [note] = await self.registration.getNotifications({ tag });
    self.dispatchEvent(new NotificationEvent("notificationclick", { notification: note }));
  }, `flight-MM002-${backDate}`);
  await page.waitForURL((u) => u.pathname === "/bookings" && u.searchParams.get("pnr") === "HNK7Q2" && u.searchParams.get("lang") === "th");
  const card = page.getByRole("article", { name: /HNK7Q2/ });
  await card.waitFor();
  await card.getByText("15:05").first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, "no horizontal overflow at 375 px");
  await screenshot(page, "push-opened-booking-th-phone");

  // The security centre lists the device; its switch-off ends it here too.
  await page.goto(`${base}/security?lang=en`);
  const off = page.getByRole("button", { name: /^Switch off notifications:/ });
  await off.waitFor();
  await screenshot(page, "push-security-centre-en-phone");
  await off.click();
  await page.getByText("No device is notified.", { exact: false }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("members.push")), null);
  assert.equal(await page.evaluate(() => localStorage.getItem("members.e2e.subscription")), null, "the browser's subscription ended");
  await context.close();
});

test("the choice in jp and th at 320 and 375 px; an iPhone outside the home screen is told to install first", async () => {
  const base = server.url;
  for (const lang of ["jp", "th"]) {
    for (const [size, viewport] of [["phone", VIEWPORTS.phone], ["narrow", { width: 320, height: 700 }]]) {
      const context = await browser.newContext({ viewport });
      await context.grantPermissions(["notifications"], { origin: base });
      const page = await context.newPage();
      await signIn(page, base, DEMO, lang);
      await page.goto(`${base}/account/notifications?lang=${lang}`);
      await page.getByRole("checkbox", { name: LABEL[lang] }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, `${lang} ${size}: no overflow`);
      await screenshot(page, `push-notifications-${lang}-${size}`);
      await context.close();
    }
  }
  const iphone = await browser.newContext({
    viewport: VIEWPORTS.phone,
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  });
  const page = await iphone.newPage();
  await signIn(page, base, DEMO, "jp");
  await page.goto(`${base}/bookings?lang=jp`);
  await page.getByText("iPhone・iPadでは、まずこのアプリをホーム画面に追加し", { exact: false }).waitFor();
  assert.equal(await page.getByRole("checkbox", { name: LABEL.jp }).isDisabled(), true);
  await screenshot(page.locator(".push-choice"), "push-install-first-jp-phone");
  await iphone.close();
});
