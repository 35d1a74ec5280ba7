// The bookings page on a phone: each flight's duration stays clear of its line's arrowhead.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, VIEWPORTS } from "./harness.mjs";

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
