// axe-core for the browser tests (apart from harness.mjs: loading axe-core
// costs a test file that does not check with it a third of a CPU second).
import assert from "node:assert/strict";
import { AxeBuilder } from "@axe-core/playwright";

/**
 * axe-core over the page, as every browser test runs it: axe.run in the
 * page itself (legacy mode; the default runs it in parts and finishes in a
 * new blank page, a renderer process more for each check) and only the
 * violations worked out in full. The pages have no frames of another
 * origin, so it finds the same violations at a third of the CPU time
 * (docs/testing.md).
 */
export function axeBuilder(page) {
  return new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] });
}

/** axe-core finds no accessibility violations on the page. */
export async function expectNoAxeViolations(page, label) {
  const r = await axeBuilder(page).analyze();
  const found = r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
  assert.deepEqual(found, [], label);
}
