import { createSign } from "node:crypto";

/**
 * The JWT a GitHub App authenticates as itself with (RS256; issued a minute in the past
 * for clock drift, valid nine minutes, as GitHub allows at most ten). Throws when the
 * private key is not a usable PEM key.
 */
export function signAppJwt(appId: string, privateKey: string, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256", typ: "JWT" })}.${encode({ iat: now - 60, exp: now + 540, iss: appId })}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(privateKey, "base64url");
  return `${unsigned}.${signature}`;
}
