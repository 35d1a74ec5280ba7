/* global document, window */
// The pages moved to PageHeader (passes, security, payment methods) in en,
// jp and th at 375 and 1280 px: nothing wider than the screen, and a
// screenshot of each to look at (e2e/screenshots/pageheader-*.png).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });
const PAGES = ["/gogo-pass", "/gogo-pass/lottery", "/gogo-pass/exchange", "/coupon-pass", "/my-passes", "/security", "/your-data", "/payment-methods"];

test("PageHeader pages in en, jp and th at 375 and 1280 px: no sideways scrolling, a date range breaks only between its dates", async () => {
  for (const lang of ["en", "jp", "th"]) {
    for (const [vp, viewport] of Object.entries(VIEWPORTS)) {
      const { context, page } = await env.newPage(viewport);
      await signIn(page, env.server.url, undefined, lang);
      for (const p of PAGES) {
        await page.goto(`${env.server.url}${p}?lang=${lang}`);
        await page.getByRole("heading", { level: 1 }).waitFor();
        const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(over <= 0, `${lang} ${vp} ${p}: ${over} px wider than the screen`);
        // Each date of a range stays on one line ("12 พ.ย. 2569 –" / "10 ก.พ. 2570").
        const broken = await page.evaluate(() =>
          [...document.querySelectorAll(".passes .nowrap")].filter((e) => new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size > 1).map((e) => e.textContent),
        );
        assert.deepEqual(broken, [], `${lang} ${vp} ${p}`);
        await screenshot(page, `pageheader-${lang}-${vp}${p.replace(/\//g, "_")}`);
      }
      await context.close();
    }
  }
});
