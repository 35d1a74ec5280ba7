// axe-core finds no accessibility violations on the security centre, your-data and calendar pages
// (security centre, your data, the calendar panel with a fresh link shown),
// on a phone and a desktop, in English and Japanese.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, signIn, VIEWPORTS } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";

const env = e2eSuite({ before, after });

async function violations(page) {
  const r = await axeBuilder(page).analyze();
  return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const lang of ["en", "jp"]) {
    test(`no axe violations on the security pages on ${device} in ${lang}`, async () => {
      const { context, page } = await env.newPage(viewport);
      await signIn(page, env.server.url, undefined, lang);
      const found = [];
      await page.goto(`${env.server.url}/security?lang=${lang}`);
      await page.locator(".session-list li").first().waitFor();
      await page.locator(".event-list li").first().waitFor();
      found.push(...(await violations(page)).map((v) => `security: ${v}`));
      await page.goto(`${env.server.url}/your-data?lang=${lang}`);
      await page.locator(".data-parts").waitFor();
      found.push(...(await violations(page)).map((v) => `your-data: ${v}`));
      await page.goto(`${env.server.url}/bookings?lang=${lang}`);
      await page.locator("section.calendar-sub .actions button").first().click();
      const dialog = page.getByRole("dialog");
      await Promise.race([page.locator("section.calendar-sub input[readonly]").waitFor(), dialog.waitFor()]);
      if (await dialog.count()) await dialog.locator("button.button--primary").click();
      await page.locator("section.calendar-sub input[readonly]").waitFor();
      found.push(...(await violations(page)).map((v) => `bookings (calendar): ${v}`));
      assert.deepEqual(found, []);
      await context.close();
    });
  }
}
