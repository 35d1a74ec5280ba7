// The account half's layout at 375 and 1280 px in en, jp and th: home
// shortcuts in whole rows, the passenger form's Save and Cancel side by
// side (stacked full width on a phone), the account form that keeps its
// place while a new e-mail address is typed, the security centre's times
// said to be Japan time, and the bookings page. Screenshots in e2e/screenshots/layout-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, screenshot, VIEWPORTS } from "./harness.mjs";

const env = e2eSuite({ before, after });

/** The boxes of elements, rounded. */
const boxes = (loc) => loc.evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) }; }));

for (const lang of ["en", "jp", "th"]) {
  for (const [vname, viewport] of Object.entries(VIEWPORTS)) {
    test(`account half layout, ${lang} ${vname}`, async () => {
      const { context, page } = await env.newPage(viewport);
      await signIn(page, env.server.url, undefined, lang);
      // Home: tiles in whole rows.
      await page.goto(`${env.server.url}/?lang=${lang}`);
      await page.locator(".tiles .tile").first().waitFor();
      const tiles = await boxes(page.locator(".tiles > li"));
      const rows = new Map();
      for (const b of tiles) rows.set(b.y, (rows.get(b.y) ?? 0) + 1);
      const counts = [...rows.values()];
      assert.ok(counts.every((n) => n === counts[0]), `tiles in whole rows: ${counts}`);
      await screenshot(page, `layout-home-${lang}-${vname}`);

      // Passengers: Save and Cancel.
      await page.goto(`${env.server.url}/passengers?lang=${lang}`);
      await page.locator(".passengers-page h1").waitFor();
      await page.locator(".passengers-page .page-header button, .passengers-page button.button--primary").first().click();
      const row = page.locator(".passengers-page form .button-row .button");
      await row.first().waitFor();
      const [save, cancel] = await boxes(row);
      if (vname === "phone") {
        assert.ok(cancel.y >= save.y + save.h + 8, "stacked with a gap on a phone");
        assert.equal(save.w, cancel.w, "full width");
      } else {
        assert.equal(save.y, cancel.y, "side by side");
        assert.ok(cancel.x >= save.x + save.w + 8, "with a gap");
      }
      await screenshot(page, `layout-passenger-form-${lang}-${vname}`);

      // Account: typing a new address moves nothing else.
      await page.goto(`${env.server.url}/account?lang=${lang}`);
      const email = page.locator('input[type="email"]').first();
      await email.waitFor();
      const after = page.locator('input[name="addressPostalCode"], input[autocomplete="postal-code"]').first();
      const before1 = await boxes(page.locator("form input[type=tel]"));
      const beforePostal = (await boxes(after))[0];
      await email.fill("new-address@example.com");
      await page.locator('input[type="password"]').first().waitFor();
      const after1 = await boxes(page.locator("form input[type=tel]"));
      const afterPostal = (await boxes(after))[0];
      if (vname === "desktop") {
        assert.equal(after1[0].x, before1[0].x, "the phone field keeps its column");
        assert.equal(afterPostal.x, beforePostal.x, "the postal code keeps its column");
      }
      await screenshot(page, `layout-account-email-${lang}-${vname}`);

      // Security centre: times.
      await page.goto(`${env.server.url}/security?lang=${lang}`);
      await page.locator("time").first().waitFor();
      await screenshot(page, `layout-security-${lang}-${vname}`);
      // Bookings: the hotel offers of the first booking that has them, as cards.
      await page.goto(`${env.server.url}/bookings?lang=${lang}`);
      await page.locator("article").first().waitFor();
      const more = page.locator("article button[aria-haspopup], article .action-menu > button");
      const n = await more.count();
      for (let i = 0; i < n; i++) {
        await more.nth(i).click();
        const hotel = page.getByRole("menuitem").filter({ hasText: /Hotels|ホテル|โรงแรม/ });
        if (await hotel.count()) {
          await hotel.first().click();
          await page.locator(".offer-card").first().waitFor();
          const cards = await boxes(page.locator(".offer-card"));
          assert.ok(cards.length > 0);
          await page.locator(".offer-card").first().scrollIntoViewIfNeeded();
          await screenshot(page, `layout-offers-${lang}-${vname}`);
          break;
        }
        await page.keyboard.press("Escape");
      }
      await context.close();
    });
  }
}
