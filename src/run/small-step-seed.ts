import { createHmac } from "node:crypto";

/**
 * The seed a small step deals its reviewers by (assignReviewers): an HMAC of a secret the app
 * holds and the reviewed head. The author controls the head but not the secret, so cannot
 * compute which model a lens will get; a resumed round (same head) deals the same.
 */
export function smallStepSeed(secret: string, pullRequest: string, headSha: string): Buffer {
  return createHmac("sha256", secret)
    .update(`gadfly small-step reviewers\u0000${pullRequest}\u0000${headSha}`)
    .digest();
}
