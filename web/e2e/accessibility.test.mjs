// axe-core finds no accessibility violations on the member's pages, on a
// phone and a desktop, in English and Japanese.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { e2eSuite, login, VIEWPORTS, DEMO } from "./harness.mjs";
import { axeBuilder } from "./axe.mjs";

const env = e2eSuite({ before, after });

async function violations(page) {
  const r = await axeBuilder(page).analyze();
  return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const lang of ["en", "jp"]) {
    test(`no axe violations on ${device} in ${lang}`, async () => {
      const { context, page } = await env.newPage(viewport);
      const found = [];
      await page.goto(`${env.server.url}/login?lang=${lang}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      found.push(...(await violations(page)).map((v) => `login: ${v}`));
      await login(page, env.server.url, DEMO, lang);
      await page.getByText("HNK7Q2").first().waitFor();
      found.push(...(await violations(page)).map((v) => `home: ${v}`));
      for (const path of ["/account", "/passengers", "/bookings"]) {
        await page.goto(`${env.server.url}${path}?lang=${lang}`);
        await page.getByRole("heading", { level: 1 }).waitFor();
        await page.locator("main input, main li, main article").first().waitFor();
        found.push(...(await violations(page)).map((v) => `${path}: ${v}`));
      }
      assert.deepEqual(found, []);
      await context.close();
    });
  }
}
