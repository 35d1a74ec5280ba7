/* global document, getComputedStyle */
// The bookings page on a phone: each flight's duration stays clear of its line's arrowhead.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });

test("on a phone the flight duration is not covered by its arrow, in en and jp", async () => {
  for (const lang of ["en", "jp"]) {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, env.server.url, undefined, lang);
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    await page.locator(".flight__duration").first().waitFor();
    const overlaps = await page.locator(".flight__line").evaluateAll((lines) =>
      lines.flatMap((line) => {
        const d = line.querySelector(".flight__duration");
        if (!d) return [];
        // The arrowhead is the line's ::after, 10 px wide at its right end.
        const arrowLeft = line.getBoundingClientRect().right - 10;
        return d.getBoundingClientRect().right > arrowLeft ? [d.textContent] : [];
      }),
    );
    assert.deepEqual(overlaps, [], `${lang}: durations under the arrow`);
    await context.close();
  }
});

test("on a phone the next trip comes first: on /bookings before the search form, on home near the top", async () => {
  const { context, page } = await env.newPage(VIEWPORTS.phone);
  await signIn(page, env.server.url);
  await page.goto(`${env.server.url}/bookings?lang=en`);
  const first = page.getByRole("article").first();
  await first.waitFor();
  // The default search: the flights to come, nearest first (TPE3XY in three days).
  assert.match(await first.innerText(), /TPE3XY/);
  const card = (await first.boundingBox()).y;
  const form = (await page.getByRole("search", { name: "Search bookings" }).boundingBox()).y;
  assert.ok(card < form, `the first booking (y=${card}) comes before the search form (y=${form})`);
  assert.ok(card < 812 / 2, `the first booking starts at y=${card}, in the top half of an 812 px screen`);
  await page.goto(`${env.server.url}/?lang=en`);
  const homeFirst = page.getByRole("region", { name: "Your upcoming flights" }).getByRole("article").first();
  await homeFirst.waitFor();
  const y = (await homeFirst.boundingBox()).y;
  assert.ok(y < 812 / 2, `the first flight on home starts at y=${y}`);
  await context.close();
});

test("on a phone the sort select shows its whole choice, in en, jp and th", async () => {
  for (const lang of ["en", "jp", "th"]) {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, env.server.url, undefined, lang);
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    const select = page.locator("#booking-order");
    await select.waitFor();
    // The longest choice, in the select's own font, plus the room of its arrow and padding.
    const { need, have } = await select.evaluate((el) => {
      const style = getComputedStyle(el);
      const probe = document.createElement("span");
      probe.style.font = style.font;
      probe.style.whiteSpace = "nowrap";
      probe.style.position = "absolute";
      document.body.append(probe);
      let widest = 0;
      for (const o of el.options) {
        probe.textContent = o.textContent;
        widest = Math.max(widest, probe.getBoundingClientRect().width);
      }
      probe.remove();
      const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      return { need: widest + pad + 16, have: el.getBoundingClientRect().width };
    });
    assert.ok(have >= need, `${lang}: the select is ${have} px wide, its longest choice needs ${need} px`);
    await screenshot(page.locator(".search-form__grid"), `bookings-search-phone-${lang}`);
    await context.close();
  }
});

test("on a phone five upcoming bookings fit in 4,000 px, each showing all it shows, in en, jp and th", async () => {
  for (const lang of ["en", "jp", "th"]) {
    const { context, page } = await env.newPage(VIEWPORTS.phone);
    await signIn(page, env.server.url, undefined, lang);
    await page.goto(`${env.server.url}/bookings?lang=${lang}`);
    const cards = page.locator(".booking-results article.reservation");
    await cards.first().waitFor();
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => document.fonts.ready);
    // The demo member's default search: the five bookings to come.
    assert.equal(await cards.count(), 5, `${lang}: five upcoming bookings`);
    const { height, cardHeights, missing } = await page.evaluate(() => {
      const shown = (e) => !!e && e.getBoundingClientRect().height > 0 && (e.textContent ?? "").trim() !== "";
      const missing = [];
      const articles = [...document.querySelectorAll(".booking-results article.reservation")];
      for (const a of articles) {
        const pnr = a.querySelector(".reservation__pnr")?.textContent ?? "?";
        for (const sel of [".reservation__pnr", ".reservation__meta", ".reservation__meta .chip", ".reservation__passengers", ".reservation__actions"]) {
          if (!shown(a.querySelector(sel))) missing.push(`${pnr}: ${sel}`);
        }
        for (const f of a.querySelectorAll(".flight")) {
          for (const sel of [".flight__number", ".flight__date", ".flight__top .chip"]) if (!shown(f.querySelector(sel))) missing.push(`${pnr}: ${sel}`);
          for (const sel of [".flight__time", ".flight__code", ".flight__airport"]) {
            const n = [...f.querySelectorAll(sel)].filter(shown).length;
            if (n !== 2) missing.push(`${pnr}: ${n} ${sel}`);
          }
        }
      }
      return { height: document.documentElement.scrollHeight, cardHeights: articles.map((a) => Math.round(a.getBoundingClientRect().height)), missing };
    });
    assert.deepEqual(missing, [], `${lang}: what each card shows`);
    assert.ok(height <= 4000, `${lang}: the bookings page is ${height} px tall at 375 px (cards ${cardHeights.join(", ")})`);
    await screenshot(page, `bookings-five-phone-${lang}`);
    await context.close();
  }
});
