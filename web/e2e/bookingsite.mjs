// A stand-in for the booking site (or a partner) as an OpenID Connect
// relying party, built on openid-client, a certified relying-party library
// no one here wrote: it signs the member in with the code flow and PKCE
// (silently, prompt=none, for the booking site), keeps its own session in
// a cookie, sends the member back to the members' area's
// /login?sso=failed when the sign-on fails, and takes back-channel logout
// tokens, which it verifies as the specification asks (jose, openid-client's
// own JWT library) and keeps for the test to look at.
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import * as client from "openid-client";
import { createRemoteJWKSet, jwtVerify } from "jose";

const BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout";

/**
 * Starts the stand-in on port. issuer is the members' area; clientId and
 * secret its registration there; silent signs in with prompt=none (the
 * booking site), otherwise the member may be asked (a partner).
 */
export async function startBookingSite({ port, issuer, clientId, secret, silent = true, scope = "openid email profile membership" }) {
  const base = `http://127.0.0.1:${port}`;
  const config = await client.discovery(new URL(issuer), clientId, secret, client.ClientSecretBasic(secret), {
    execute: [client.allowInsecureRequests], // the test's issuer is http on loopback
  });
  const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri));
  const pending = new Map(); // transaction cookie → { verifier, state, nonce, back, lang }
  const sessions = new Map(); // session cookie → claims of the ID token
  const logouts = []; // { claims } or { error } of each logout token received

  const cookie = (req, name) => (req.headers.cookie ?? "").split(/;\s*/).map((c) => c.split("=")).find(([k]) => k === name)?.[1];
  const page = (res, status, body) => {
    res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Booking site</title></head><body>${body}</body></html>`);
  };
  const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, base);
      if (req.method === "POST" && url.pathname === "/backchannel-logout") {
        let body = "";
        for await (const chunk of req) body += chunk;
        const token = new URLSearchParams(body).get("logout_token") ?? "";
        try {
          // Back-Channel Logout 1.0, section 2.6: signature, iss, aud,
          // iat, typ, the event, sub or sid, and no nonce.
          const { payload } = await jwtVerify(token, jwks, { issuer: config.serverMetadata().issuer, audience: clientId, typ: "logout+jwt", maxTokenAge: "2m" });
          if (!payload.events?.[BACKCHANNEL_EVENT] || (!payload.sub && !payload.sid) || "nonce" in payload) throw new Error("not a logout token");
          for (const [id, s] of sessions) if ((payload.sid && s.sid === payload.sid) || (!payload.sid && s.sub === payload.sub)) sessions.delete(id);
          logouts.push({ claims: payload });
          res.writeHead(200).end();
        } catch (e) {
          logouts.push({ error: String(e) });
          res.writeHead(400).end();
        }
        return;
      }
      if (url.pathname === "/callback") {
        const tx = pending.get(cookie(req, "standin_tx"));
        if (!tx) return page(res, 400, "<p>No sign-in under way.</p>");
        pending.delete(cookie(req, "standin_tx"));
        try {
          const tokens = await client.authorizationCodeGrant(config, url, { pkceCodeVerifier: tx.verifier, expectedState: tx.state, expectedNonce: tx.nonce });
          const id = randomBytes(16).toString("hex");
          sessions.set(id, tokens.claims());
          res.writeHead(302, { Location: tx.back, "Set-Cookie": `standin_session=${id}; Path=/; HttpOnly; SameSite=Lax` });
          res.end();
        } catch {
          // The sign-on failed (login_required…): back to the members' area, which says so.
          res.writeHead(302, { Location: `${issuer}/login?sso=failed&lang=${encodeURIComponent(tx.lang)}` });
          res.end();
        }
        return;
      }
      const session = sessions.get(cookie(req, "standin_session"));
      if (session) {
        return page(res, 200, `<h1>Booking site</h1><p id="signed-in">Logged in as ${escape(session.email)} (${escape(session.given_name)} ${escape(session.family_name)})</p>` +
          `<p>Member ${escape(session.sub)}, ${escape(url.pathname)}</p>`);
      }
      // No session here: sign in at the members' area.
      const lang = url.searchParams.get("lang") ?? "en";
      const verifier = client.randomPKCECodeVerifier();
      const tx = { verifier, state: client.randomState(), nonce: client.randomNonce(), back: url.pathname + url.search, lang };
      const txId = randomBytes(16).toString("hex");
      pending.set(txId, tx);
      const params = {
        redirect_uri: `${base}/callback`, scope, state: tx.state, nonce: tx.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
        ui_locales: lang === "jp" ? "ja-JP" : "en",
      };
      if (silent) params.prompt = "none";
      res.writeHead(302, { Location: client.buildAuthorizationUrl(config, params).href, "Set-Cookie": `standin_tx=${txId}; Path=/; HttpOnly; SameSite=Lax` });
      res.end();
    } catch (e) {
      page(res, 500, `<p>${escape(e)}</p>`);
    }
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: base,
    logouts,
    sessions,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
