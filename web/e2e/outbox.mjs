// The mails the server wrote, read from its outbox with the operator
// command (`members mail list | show`), as a member's mailbox would hold
// them. Bound to a suite (harness.mjs e2eSuite):
//   const { mailOf, linksOf } = outbox(env);
import { execFileSync } from "node:child_process";
import path from "node:path";
import { root } from "./harness.mjs";

/** The suite's outbox readers; the server's database and address are read at each call. */
export function outbox(env) {
  const bin = process.env.MEMBERS_BIN || path.join(root, "bin/members");
  const members = (...args) => execFileSync(bin, [...args, "--db", env.server.dsn], { encoding: "utf8" });

  /** The newest mail of a kind to an address (its text, or its HTML part), waiting for the outbox. */
  async function mailOf(kind, to, { html = false, timeoutMs = 45000 } = {}) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const row = members("mail", "list").split("\n").find((l) => l.split(/\s+/).includes(kind) && l.includes(to));
      if (row) {
        const id = row.split(/\s+/)[0];
        return html ? members("mail", "show", "--html", id) : members("mail", "show", id);
      }
      if (Date.now() > end) throw new Error(`no ${kind} mail to ${to}:\n${members("mail", "list")}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  /** The links of a mail's text that lead into the members' area. */
  function linksOf(text) {
    const found = text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
    return [...new Set(found.filter((u) => u.startsWith(env.server.url)))];
  }

  return { mailOf, linksOf };
}
