import { type CorpusScenario, GLM, GPT, KIMI, labelled, OPUS, SONNET } from "./corpus-scenario.js";

const FILE = "src/auth/verify-session.ts";

/**
 * Held out (written before tuning, never looked at while tuning): one TypeScript function
 * (`verifySession`, lines 40-48) where every finding is about `token`: a timing-unsafe
 * comparison, the token written to the log, and an expiry that is never checked; plus one
 * model reporting the comparison twice under two lenses (the same claim, which must merge).
 */
export const heldOutTsToken: CorpusScenario = {
  name: "held-out-ts-token",
  description: "held out: token timing compare vs token logged vs expiry unchecked",
  modelOrder: [OPUS, KIMI, SONNET, GLM, GPT],
  findings: [
    labelled(
      "timing",
      OPUS,
      "security",
      FILE,
      42,
      "medium",
      "high",
      "`token === stored.token` is not a constant-time comparison",
      "String equality returns at the first differing character, so the time it takes leaks how much of a guessed token is right. Use `crypto.timingSafeEqual` on equal-length buffers.",
    ),
    labelled(
      "timing",
      OPUS,
      "correctness",
      FILE,
      42,
      "medium",
      "medium",
      "Session token compared with `===` (timing side channel)",
      "The comparison of the presented token with the stored one is not constant time; use `crypto.timingSafeEqual`.",
    ),
    labelled(
      "timing",
      KIMI,
      "security",
      FILE,
      42,
      "medium",
      "medium",
      "Timing attack on session token comparison",
      "Comparing secrets with === leaks timing information; an attacker can recover the token byte by byte.",
    ),
    labelled(
      "logged",
      SONNET,
      "security",
      FILE,
      44,
      "high",
      "high",
      "The session token is written to the log on failure",
      "`logger.warn('invalid session ' + token)` puts a bearer credential into the logs, where anyone with log access can replay it. Log a hash or the session id instead.",
    ),
    labelled(
      "logged",
      GPT,
      "security",
      FILE,
      44,
      "high",
      "medium",
      "Secret leaked to logs",
      "token interpolated into warn message.",
    ),
    labelled(
      "logged",
      GLM,
      "security",
      FILE,
      [44, 45],
      "high",
      "medium",
      "Sensitive token exposure in log output",
      "when verification fails the raw token value is logged, log aggregation systems keep it and it can be used to hijack the session",
    ),
    labelled(
      "expiry",
      KIMI,
      "correctness",
      FILE,
      46,
      "high",
      "medium",
      "`stored.expiresAt` is never checked, so expired tokens stay valid",
      "After the token matches, the function returns the session without comparing `expiresAt` with `Date.now()`; a token stolen months ago still works.",
    ),
    labelled(
      "expiry",
      SONNET,
      "correctness",
      FILE,
      [46, 47],
      "high",
      "high",
      "Expired sessions are accepted",
      "There is no expiry check on the session record before it is returned, so logging out or waiting for expiry never invalidates a token.",
    ),
  ],
};
