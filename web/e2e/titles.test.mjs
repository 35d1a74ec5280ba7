// The browser tab names the page, on every page, in the page's language:
// every route of src/app/routes.tsx (read from the file, so a new route is
// checked without a change here), the page of an unknown address, and the
// views without a network (the kept trips, a page that needs a
// connection). The title is "<the page's heading> | <brand>" (the home
// page: "Home", its heading being a greeting), and differs between en, jp
// and th.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { e2eSuite, signIn, root, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });
const LANGS = ["en", "jp", "th"];
const BRAND = { en: "Peach Members", jp: "Peach メンバーズ", th: "Peach Members" };
const HOME = { en: "Home", jp: "ホーム", th: "หน้าแรก" };

// Sample values of the routes' parameters: a page given one that leads
// nowhere (an unknown token or payment) still names itself.
const PARAMS = { token: "no-such-token", productType: "peachpoints", processId: "no-such-process", variant: "cny" };
const routes = [...readFileSync(path.join(root, "web/src/app/routes.tsx"), "utf8").matchAll(/\{ path: '([^']+)', element: .*?, access: '(\w+)' \}/g)].map(
  ([, p, access]) => ({ path: p.replace(/:(\w+)/g, (_, name) => PARAMS[name] ?? "x"), pattern: p, access }),
);

/** The page's heading and tab title once the page has named itself (its first heading shown). */
async function named(page, what) {
  const h1 = page.locator("main h1, h1").first();
  await h1.waitFor({ timeout: 15_000 }).catch((e) => assert.fail(`${what}: no heading on ${page.url()} (${e.message.split("\n")[0]})`));
  // the tab title follows the heading in the same commit; a page whose heading changes with its data settles
  let heading = "";
  let title = "";
  for (const until = Date.now() + 5000; Date.now() < until; await page.waitForTimeout(100)) {
    heading = (await h1.innerText()).replace(/\s+/g, " ").trim();
    title = await page.title();
    if (title.startsWith(`${heading} | `) || title.startsWith(`${HOME.en} | `) || title.startsWith(`${HOME.jp} | `) || title.startsWith(`${HOME.th} | `)) break;
  }
  return { heading, title, what };
}

function check({ heading, title, what }, lang, want) {
  assert.equal(title, `${want ?? heading} | ${BRAND[lang]}`, `${what}: the tab title names the page (heading "${heading}")`);
}

test("routes are read from routes.tsx", () => {
  assert.ok(routes.length > 30, `${routes.length} routes`);
  for (const p of ["/", "/bookings", "/saved-trips", "/login", "/points/reissue/:variant"]) assert.ok(routes.some((r) => r.pattern === p), p);
});

for (const lang of LANGS) {
  test(`every page names itself in the tab, in ${lang}`, async () => {
    const base = env.server.url;
    const member = await env.newPage(VIEWPORTS.phone);
    await signIn(member.page, base, undefined, lang);
    const visitor = await env.newPage(VIEWPORTS.phone);
    const titles = {};
    for (const r of routes) {
      const { page } = r.access === "anonymous" ? visitor : member;
      await page.goto(`${base}${r.path}${r.path.includes("?") ? "&" : "?"}lang=${lang}`);
      const got = await named(page, `${lang} ${r.pattern}`);
      const home = new URL(page.url()).pathname === "/";
      check(got, lang, home ? HOME[lang] : undefined);
      titles[r.pattern] = got.title;
    }
    await member.page.goto(`${base}/no-such-page?lang=${lang}`);
    check(await named(member.page, `${lang} an unknown address`), lang);
    // Without a network (the worker serving the page): the kept trips' view and a page that needs a connection.
    await member.page.goto(`${base}/bookings?lang=${lang}`);
    await member.page.evaluate(() => navigator.serviceWorker.ready);
    if (!(await member.page.evaluate(() => !!navigator.serviceWorker.controller))) {
      await member.page.reload();
      await member.page.waitForFunction(() => !!navigator.serviceWorker.controller);
    }
    await member.context.setOffline(true);
    for (const p of ["/", "/points"]) {
      await member.page.goto(`${base}${p}?lang=${lang}`);
      await member.page.locator(".offline").waitFor();
      check(await named(member.page, `${lang} offline ${p}`), lang);
    }
    await member.context.close();
    await visitor.context.close();
    env.titles ??= {};
    env.titles[lang] = titles;
  });
}

test("the titles differ between the languages", () => {
  assert.ok(env.titles?.en && env.titles?.jp && env.titles?.th, "every language's titles read");
  for (const r of routes) {
    const [en, jp, th] = LANGS.map((l) => env.titles[l][r.pattern]);
    assert.notEqual(en, jp, `${r.pattern}: the same title in en and jp`);
    assert.notEqual(en, th, `${r.pattern}: the same title in en and th`);
  }
});
