// Calls of the airline's signed feeds (docs/airline-feeds.md,
// docs/flight-alerts.md), as the airline's systems make them: the body
// signed in Ops-Signature with the secret `serve --demo` uses for the feed.
// Bound to a suite (harness.mjs e2eSuite):
//   const { feedCall } = signedFeeds(env);
import { createHmac } from "node:crypto";

/** The secrets of `serve --demo` (internal/app), one a feed. */
export const DEMO_FEED_SECRETS = {
  flightEvents: "demo-ops-secret",
  members: "demo-members-feed-secret",
  bookings: "demo-bookings-feed-secret",
};

/** The suite's feed caller; the server's address is read at each call. */
export function signedFeeds(env) {
  /**
   * Sends method to the feed's path with body (JSON; none when undefined)
   * signed with secret now; resolves to the status and the JSON answer.
   */
  async function feedCall(secret, method, p, body) {
    const raw = body === undefined ? "" : JSON.stringify(body);
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac("sha256", secret).update(`${t}.${raw}`).digest("hex");
    const res = await fetch(`${env.server.url}${p}`, {
      method,
      headers: { "Content-Type": "application/json", "Ops-Signature": `t=${t},v1=${sig}` },
      body: body === undefined ? undefined : raw,
    });
    return { status: res.status, body: await res.json() };
  }

  return { feedCall };
}
