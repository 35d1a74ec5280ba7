// Decrypts a Web Push message (aes128gcm, RFC 8188 with the Web Push keys of
// RFC 8291) with the npm package http_ece, by one of RFC 8291's authors: a
// decryption the server's code did not write. The Go test that hands it a
// push the server sent runs it (internal/push/ece_test.go):
//   echo '{"body":"…","privateKey":"…","auth":"…"}' | node e2e/ece-decrypt.mjs
// (each value base64url: the encrypted body, the device's P-256 private key
// and its 16-byte secret) prints the plaintext.
import { createECDH } from "node:crypto";
import { fileURLToPath } from "node:url";
import ece from "http_ece";

/** The plaintext of an aes128gcm body for the device of privateKey and auth (base64url). */
export function decryptPush(body, privateKey, auth) {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
  return ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: auth });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  process.stdout.write(decryptPush(Buffer.from(input.body, "base64url"), input.privateKey, input.auth));
}
