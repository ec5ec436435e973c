/**
 * Writes examples/demo/recordings/: the transcripts `gadfly review --demo` replays.
 *
 * These are NOT real model output. We wrote every answer below by hand, in the
 * style the lens prompts ask for, to show the whole pipeline offline: tool use,
 * agreement and disagreement across four models, the verify pass dropping a
 * finding, finalize recovering a degenerate last turn, a lens that fails, and the
 * models cross-examining each other's single-model findings.
 *
 *   npx tsx examples/demo/make-recordings.ts
 *
 * The spec below is compact: each chat session is a list of turns (tool calls,
 * or an answer); the message counts replay checks, the tool call ids and the
 * token usage are derived here, so the recordings always match the turns the
 * reviewer loop asks for (src/agent/chat-review.ts, verify-findings.ts):
 *   review turns … answer  [repair answer]  [verify turns … verify answer]
 * The repair turn happens only when the answer has no findings block; the
 * verify turns only when the review reported findings, in a session of their own
 * (its message count starts again). A cross-examination session
 * (src/agent/challenge-finding.ts) is tool turns, then the answer with its
 * `gadfly-challenge` block, recorded per challenged finding.
 */
import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fingerprint } from "../../src/consensus/fingerprint.js";
import type { ToolCall } from "../../src/llm/message.js";
import { recordingPath } from "../../src/llm/providers/replay/recording-path.js";
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  Recording,
} from "../../src/llm/providers/replay/schema.js";
import { writeRecording } from "../../src/llm/providers/replay/write-recording.js";
import { challengeSessionLens } from "../../src/run/cross-examination-phase.js";
import { fallbackSessionLens } from "../../src/run/review-lens-chain.js";
import { SUMMARY_LENS } from "../../src/run/summary-phase.js";

const GLM = "glm-5.2:cloud";
const KIMI = "kimi-k2.6:cloud";
const GPT = "gpt-5.1";
const OPUS = "claude-code/opus";

const VERIFY_FILE = "src/webhooks/verify-signature.ts";
const HANDLER_FILE = "src/webhooks/handle-payment-webhook.ts";
const SERVER_FILE = "src/server.ts";
const CONFIG_FILE = "src/config.ts";

// ---------------------------------------------------------------- building blocks

interface ToolUse {
  name: "read_file" | "grep" | "list_files";
  arguments: Record<string, unknown>;
}

/** One model turn: optional text, and tool calls (none for an answer). */
interface Turn {
  text?: string;
  tools?: ToolUse[];
}

interface ChatSession {
  kind: "chat";
  /** Tool turns, then the answer (a turn without tools). */
  review: Turn[];
  /** The answer to the repair prompt, when the review's answer had no findings block. */
  repair?: string;
  /** Tool turns of the verify pass, then its answer; when the review reported findings. */
  verify?: Turn[];
}

interface AgentSession {
  kind: "agent";
  review: string;
  verify?: string;
}

type Session = ChatSession | AgentSession;

interface Finding {
  /** Only on an "Outside my lens" finding: the lens it belongs to. */
  lens?: string;
  file: string;
  line: number;
  end_line: number;
  severity: string;
  confidence: "low" | "medium" | "high";
  title: string;
  body: string;
  /** The replacement for lines `line..end_line`, when the fix is local (checked before shown). */
  suggestion?: string;
}

const read = (path: string, start?: number, end?: number): ToolUse => ({
  name: "read_file",
  arguments: {
    path,
    ...(start === undefined ? {} : { start_line: start }),
    ...(end === undefined ? {} : { end_line: end }),
  },
});
const grep = (pattern: string, path?: string): ToolUse => ({
  name: "grep",
  arguments: { pattern, ...(path === undefined ? {} : { path }) },
});
const list = (path?: string): ToolUse => ({
  name: "list_files",
  arguments: path === undefined ? {} : { path },
});

/** A lens answer as the output contract asks: prose, the VERDICT line, the block. */
function answer(prose: string, verdict: string, findings: readonly Finding[]): string {
  return `${prose.trim()}\n\nVERDICT: ${verdict}\n\`\`\`gadfly-findings\n${JSON.stringify(findings, null, 2)}\n\`\`\``;
}

// ---------------------------------------------------------------- the findings

// The consensus should show: the unsigned-request bypass (3/4), the dedupe-before-processing
// bug (3/4), the unhandled rejection on the route (3/4), the non-constant-time comparison,
// the unbounded set and the unused import (2/4 each), and a few single-model findings.

const unsignedBypass = {
  glm: {
    file: VERIFY_FILE,
    line: 24,
    end_line: 27,
    severity: "high",
    confidence: "high",
    title: "Requests without a signature header skip verification entirely",
    body: "`verifySignature` returns `true` when `x-payhook-signature` is absent, so anyone can POST a forged `payment.succeeded` event to `/webhooks/payhook` just by leaving the header out, and `handlePaymentWebhook` marks the invoice paid. Reject unsigned requests; if dashboard test events must be accepted, put that behind an explicit opt-in that is off in production.",
  },
  gpt: {
    file: VERIFY_FILE,
    line: 24,
    end_line: 26,
    severity: "critical",
    confidence: "high",
    title: "Missing x-payhook-signature header bypasses authentication",
    body: "With no signature header, `check.signature` is `undefined` and the function returns `true` before any HMAC is computed. An unauthenticated caller can mark any invoice paid by sending an unsigned event. Treat a missing signature as invalid (`return false`) and reject it with 401.",
  },
  opus: {
    file: VERIFY_FILE,
    line: 26,
    end_line: 26,
    severity: "high",
    confidence: "high",
    title: "Unsigned webhooks are accepted as valid",
    body: "The early `return true` accepts any request that omits the signature header. The comment says the dashboard sends unsigned test events, but that cannot justify accepting unsigned events in production: an attacker omits the header and forges payments. Return `false` here.",
    suggestion: "    return false;",
  },
} satisfies Record<string, Finding>;

const timingCompare = {
  gpt: {
    file: VERIFY_FILE,
    line: 35,
    end_line: 35,
    severity: "medium",
    confidence: "medium",
    title: "Signature compared with === instead of a constant-time comparison",
    body: "`expected === check.signature` stops at the first differing character, which leaks how much of a guessed signature is right through response timing. `timingSafeEqual` is already imported: decode both hex strings to Buffers, check the lengths, then compare with it.",
  },
  opus: {
    file: VERIFY_FILE,
    line: 35,
    end_line: 35,
    severity: "moderate",
    confidence: "medium",
    title: "Non-constant-time HMAC comparison enables a timing side channel",
    body: "String equality on the hex digest returns early on a mismatch. Over many requests an attacker can recover a valid signature byte by byte. Use `crypto.timingSafeEqual` on equal-length Buffers.",
  },
} satisfies Record<string, Finding>;

const dedupeBeforeProcessing = {
  glm: {
    file: HANDLER_FILE,
    line: 38,
    end_line: 40,
    severity: "medium",
    confidence: "high",
    title: "Event is marked as seen before the invoice update succeeds",
    body: "If `markInvoicePaid` throws (unknown invoice, amount mismatch, a transient failure), the event id is already in `seenEvents`. PayHook retries the delivery, gets `200 duplicate`, and the payment is never recorded. Add the id only after the update succeeded.",
  },
  gpt: {
    file: HANDLER_FILE,
    line: 35,
    end_line: 41,
    severity: "medium",
    confidence: "high",
    title: "Failed deliveries are deduplicated on retry, so payments can be lost",
    body: "`seenEvents.add(event.id)` runs before `markInvoicePaid`. When that call rejects, the first delivery fails but the id is recorded, so every retry short-circuits as a duplicate. Move the `add` after the await (or remove the id in a `catch`).",
  },
  opus: {
    file: HANDLER_FILE,
    line: 38,
    end_line: 38,
    severity: "medium",
    confidence: "high",
    title: "Deduplication records the event before it is processed",
    body: "The id is added to `seenEvents` before `markInvoicePaid` runs. A failure in between turns PayHook's at-least-once retries into at-most-once: the retry is answered `duplicate` and the invoice stays unpaid.",
  },
} satisfies Record<string, Finding>;

const unhandledRejection = {
  glm: {
    file: SERVER_FILE,
    line: 18,
    end_line: 21,
    severity: "high",
    confidence: "high",
    title: "Rejected webhook promise is never handled and crashes the process",
    body: "`readBody(request).then(async …)` has no `.catch`. When `handlePaymentWebhook` throws (a body that is not JSON, an unknown invoice in `markInvoicePaid`) the rejection is unhandled; on Node 15 and later that terminates the whole service, and the request is never answered. One malformed POST takes the service down.",
  },
  kimi: {
    file: SERVER_FILE,
    line: 18,
    end_line: 18,
    severity: "medium",
    confidence: "high",
    title: "Missing error handling on the webhook route",
    body: "The promise chain started for `POST /webhooks/payhook` has no rejection handler. An exception in `handlePaymentWebhook`, for example `JSON.parse` on a malformed body, becomes an unhandled promise rejection, which crashes Node by default, and the client gets no response at all.",
  },
  gpt: {
    file: SERVER_FILE,
    line: 18,
    end_line: 21,
    severity: "medium",
    confidence: "high",
    title: "Unhandled promise rejection on the webhook route takes the server down",
    body: "Any throw inside the `.then` callback (invalid JSON, a failed invoice update) rejects a promise nobody handles. Add a `.catch` that logs and answers 400 for a bad body and 500 otherwise, so PayHook retries instead of the process exiting.",
  },
} satisfies Record<string, Finding>;

const unboundedSet = {
  kimi: {
    file: HANDLER_FILE,
    line: 17,
    end_line: 17,
    severity: "low",
    confidence: "medium",
    title: "seenEvents grows without bound",
    body: "Every event id ever received stays in this module-level `Set` for the life of the process: on a busy account that is an unbounded memory leak. Keep ids for a bounded window (PayHook retries for 72 hours) or persist them with an expiry.",
  },
  opus: {
    file: HANDLER_FILE,
    line: 17,
    end_line: 17,
    severity: "low",
    confidence: "medium",
    title: "Unbounded in-memory set of processed event ids",
    body: "`seenEvents` is never pruned, so memory grows with every event for as long as the process lives (and the set is lost on restart anyway). Bound it, e.g. an LRU or a time window matching PayHook's retry period.",
  },
} satisfies Record<string, Finding>;

const unusedImport = {
  glm: {
    file: VERIFY_FILE,
    line: 1,
    end_line: 1,
    severity: "nit",
    confidence: "high",
    title: "timingSafeEqual is imported but never used",
    body: "The import suggests a constant-time comparison was intended, yet the function never calls it. Use it or drop the import.",
  },
  kimi: {
    file: VERIFY_FILE,
    line: 1,
    end_line: 1,
    severity: "trivial",
    confidence: "high",
    title: "Unused import: timingSafeEqual",
    body: "`timingSafeEqual` is imported from `node:crypto` and never referenced in this file.",
  },
} satisfies Record<string, Finding>;

// Single-model findings.
const emptySecretDefault: Finding = {
  file: CONFIG_FILE,
  line: 10,
  end_line: 10,
  severity: "medium",
  confidence: "high",
  title: "A missing webhook secret silently defaults to an empty string",
  body: '`env.PAYHOOK_WEBHOOK_SECRET ?? ""` lets the service start without a secret; every signature is then an HMAC under an empty key, which anyone can compute. Fail at startup when the variable is unset or empty.',
};
const chunkDecoding: Finding = {
  file: SERVER_FILE,
  line: 36,
  end_line: 38,
  severity: "low",
  confidence: "medium",
  title: "Body decoded chunk by chunk can corrupt multi-byte characters",
  body: "`body += chunk` converts each Buffer to a string on its own; a UTF-8 character split across two chunks becomes two U+FFFD characters, the HMAC no longer matches and a legitimate event is rejected. Collect the Buffers and decode `Buffer.concat(chunks)` once at the end.",
};
const consoleLog: Finding = {
  file: HANDLER_FILE,
  line: 42,
  end_line: 42,
  severity: "nit",
  confidence: "medium",
  title: "console.log in a request handler",
  body: "The rest of the service has no logging convention yet, but a bare `console.log` per event will be noisy and unstructured; consider passing a logger in, which also makes the handler easier to test.",
};
const unlimitedBody: Finding = {
  file: SERVER_FILE,
  line: 33,
  end_line: 41,
  severity: "medium",
  confidence: "medium",
  title: "Webhook body is read without a size limit",
  body: "`readBody` buffers the whole request before the signature is checked, so an unauthenticated client can stream gigabytes and exhaust the heap. PayHook events are a few kilobytes: cap the body (say 64 KB) and answer 413 beyond it.",
};
const parseThrows: Finding = {
  file: HANDLER_FILE,
  line: 34,
  end_line: 34,
  severity: "low",
  confidence: "high",
  title: "Malformed JSON surfaces as an exception instead of a 400",
  body: "`JSON.parse(body)` throws a `SyntaxError` on a body that is not JSON, and nothing turns it into a response. A signed but malformed event should get a 400 so the sender sees its mistake, not an exception that escapes the handler.",
};
const nanTimestamp: Finding = {
  file: VERIFY_FILE,
  line: 28,
  end_line: 29,
  severity: "low",
  confidence: "medium",
  title: "A non-numeric timestamp passes the freshness check",
  body: "`Number(check.timestamp)` is `NaN` for a missing or garbled header, and `Math.abs(x - NaN) > TOLERANCE_SECONDS` is `false`, so the replay window is skipped.",
};

// A single-model finding that is wrong: line 29 divides the clock by 1000. GLM reports it from
// its performance lens as an "Outside my lens" finding; cross-examination refutes it.
const unitMismatch: Finding = {
  file: VERIFY_FILE,
  line: 29,
  end_line: 29,
  severity: "medium",
  confidence: "medium",
  title: "Replay window compares milliseconds with seconds",
  body: "`check.now` is milliseconds since the epoch and `sentAt` is seconds, so their difference is always far beyond `TOLERANCE_SECONDS` (300) and every signed event would be rejected as stale.",
  lens: "correctness",
};

// ---------------------------------------------------------------- the sessions

const sessions: Record<string, Record<string, Session>> = {
  [GLM]: {
    security: {
      kind: "chat",
      review: [
        { tools: [read(VERIFY_FILE), read(HANDLER_FILE)] },
        {
          text: "The handler trusts `verifySignature` completely. Let me check whether anything else on the route authenticates the caller.",
          tools: [grep("x-payhook-signature"), grep("verifySignature")],
        },
        {
          text: answer(
            `I read the new verifier and its only caller. \`handlePaymentWebhook\` passes the raw header values straight through and acts on the event whenever \`verifySignature\` returns \`true\`; nothing else on \`POST /webhooks/payhook\` authenticates the sender (the only references to \`x-payhook-signature\` are the handler and the verifier's doc comment).

The problem is the first branch of \`verifySignature\`: an absent signature header is treated as a valid one. The comment explains why (unsigned dashboard test events), but the effect is that authentication is optional for whoever sends the request. The HMAC itself is computed over \`timestamp.body\` with SHA-256, which is sound.`,
            "Significant issues",
            [unsignedBypass.glm],
          ),
        },
      ],
      verify: [
        { tools: [read(VERIFY_FILE, 20, 36)] },
        {
          text: answer(
            "Re-read lines 23–36: the `signature === undefined` branch returns `true` before any HMAC check, and the handler maps `true` to processing the event. The finding holds.",
            "Significant issues",
            [unsignedBypass.glm],
          ),
        },
      ],
    },
    correctness: {
      // The degenerate ending finalize recovers: the whole answer comes in a turn that
      // also calls a tool, and the last turn only points back at it.
      kind: "chat",
      review: [
        { tools: [read(HANDLER_FILE), read(VERIFY_FILE)] },
        {
          text: answer(
            `I traced one delivery through \`handlePaymentWebhook\` and \`verifySignature\`.

1. Deduplication happens too early. The event id goes into \`seenEvents\` on line 38, before \`markInvoicePaid\` runs. \`markInvoicePaid\` throws for an unknown invoice or an amount mismatch (see \`src/invoices.ts\`), and PayHook retries failed deliveries, but the retry is answered \`200 duplicate\`: the payment is lost.
2. The freshness check does not reject a timestamp that is not a number: \`Math.abs(now - NaN) > 300\` is false.

Let me also confirm there is no other caller of \`markInvoicePaid\` that would reconcile a lost payment.`,
            "Minor issues",
            [dedupeBeforeProcessing.glm, nanTimestamp],
          ),
          tools: [grep("markInvoicePaid")],
        },
        { text: "As I said above, the verdict and the findings stand." },
      ],
      verify: [
        { tools: [read(VERIFY_FILE, 28, 35), read(HANDLER_FILE, 34, 41)] },
        {
          text: answer(
            "The dedupe finding holds: line 38 records the id before the awaited update on line 40. I dropped the timestamp finding: the timestamp string is part of the signed payload (line 33), so an attacker cannot send a garbled timestamp without invalidating the signature, and PayHook always sends a numeric one.",
            "Minor issues",
            [dedupeBeforeProcessing.glm],
          ),
        },
      ],
    },
    maintainability: {
      kind: "chat",
      review: [
        { tools: [list("src"), read(VERIFY_FILE), read(HANDLER_FILE)] },
        {
          text: answer(
            `The new code is small and readable: one verifier with a documented input type, one handler, a route. Naming follows the existing files and the doc comments explain the why (raw body, tolerance).

One leftover: \`timingSafeEqual\` is imported in \`verify-signature.ts\` but never used, which also hints that the comparison on line 35 is not the one that was intended.`,
            "Minor issues",
            [unusedImport.glm],
          ),
        },
      ],
      verify: [
        {
          text: answer(
            "Checked the import on line 1 against the file: `timingSafeEqual` has no other reference. The finding holds.",
            "Minor issues",
            [unusedImport.glm],
          ),
        },
      ],
    },
    performance: {
      kind: "chat",
      review: [
        { tools: [read(SERVER_FILE), read(HANDLER_FILE)] },
        {
          text: answer(
            "The webhook path does one HMAC over a small body and one `Set` lookup per event, which costs nothing that matters; no performance problem here. Outside my lens: the freshness check in `verifySignature` looks like it mixes units, which would reject every signed event.",
            "Minor issues",
            [unitMismatch],
          ),
        },
      ],
      verify: [
        {
          text: answer(
            "Line 29 subtracts `sentAt` from the clock. I keep the finding.",
            "Minor issues",
            [unitMismatch],
          ),
        },
      ],
    },
    "error-handling": {
      kind: "chat",
      review: [
        { tools: [read(SERVER_FILE)] },
        { tools: [read(HANDLER_FILE), grep("unhandledRejection|uncaughtException")] },
        {
          text: answer(
            `The route in \`server.ts\` starts \`readBody(request).then(async (body) => …)\` and returns. Inside the callback, \`handlePaymentWebhook\` can throw: \`JSON.parse\` on a body that is not JSON, and \`markInvoicePaid\` for an unknown invoice. The promise has no \`.catch\`, and there is no \`unhandledRejection\` handler anywhere in the repository, so such a request crashes the process and is never answered.`,
            "Significant issues",
            [unhandledRejection.glm],
          ),
        },
      ],
      verify: [
        {
          text: answer(
            "Re-checked lines 18–21 of `src/server.ts` and searched for a process-level handler: none. The finding holds.",
            "Significant issues",
            [unhandledRejection.glm],
          ),
        },
      ],
    },
  },

  [KIMI]: {
    security: {
      // The failed lens: the answer has no findings block, and neither has the repair.
      kind: "chat",
      review: [
        { tools: [read(VERIFY_FILE), read(HANDLER_FILE)] },
        {
          text: `## Security review

The signature scheme is HMAC-SHA256 over \`timestamp.body\` with a five-minute window, which is the usual design. However, \`verifySignature\` returns \`true\` when the signature header is missing, so an unsigned request is processed as authentic. This allows forging \`payment.succeeded\` events.

VERDICT: Significant issues`,
        },
      ],
      repair:
        "VERDICT: Significant issues\n\nThe critical problem is the unsigned-request branch of `verifySignature` (lines 24–27 of src/webhooks/verify-signature.ts): a missing `x-payhook-signature` header makes the check pass. Recommend rejecting such requests with 401.",
    },
    correctness: {
      kind: "chat",
      review: [
        { tools: [read(CONFIG_FILE), grep("webhookSecret")] },
        {
          text: answer(
            `\`loadConfig\` reads the new \`PAYHOOK_WEBHOOK_SECRET\` with a fallback to \`""\`, and \`server.ts\` passes \`config.webhookSecret\` to the handler unchecked. A deployment that forgets the variable starts normally and verifies signatures against an empty key.`,
            "Minor issues",
            [emptySecretDefault],
          ),
        },
      ],
      verify: [
        { tools: [read(CONFIG_FILE, 7, 12)] },
        {
          text: answer(
            "Confirmed on line 10: the fallback is an empty string and nothing validates it later. The finding holds.",
            "Minor issues",
            [emptySecretDefault],
          ),
        },
      ],
    },
    maintainability: {
      kind: "chat",
      review: [
        { tools: [read(VERIFY_FILE)] },
        {
          text: answer(
            "`verify-signature.ts` is clear and well documented. It imports `timingSafeEqual` without using it.",
            "Minor issues",
            [unusedImport.kimi],
          ),
        },
      ],
      verify: [
        {
          text: answer(
            "Line 1 imports `timingSafeEqual`; it is not used anywhere in the file. Holds.",
            "Minor issues",
            [unusedImport.kimi],
          ),
        },
      ],
    },
    performance: {
      kind: "chat",
      review: [
        { tools: [read(HANDLER_FILE, 1, 45)] },
        {
          text: answer(
            "The handler keeps every processed event id in a module-level `Set` that is never pruned. Per-event work is otherwise constant.",
            "Minor issues",
            [unboundedSet.kimi],
          ),
        },
      ],
      verify: [
        {
          text: answer(
            "Line 17 declares the set, line 38 adds to it, nothing ever deletes. Holds.",
            "Minor issues",
            [unboundedSet.kimi],
          ),
        },
      ],
    },
    "error-handling": {
      kind: "chat",
      review: [
        { tools: [read(SERVER_FILE, 15, 42)] },
        {
          text: answer(
            "In the new route, the promise returned by `readBody(...).then(...)` is dropped. Errors thrown by the handler are not caught and nothing sends a response when they happen.",
            "Minor issues",
            [unhandledRejection.kimi],
          ),
        },
      ],
      verify: [
        {
          text: answer(
            "Verified at line 18: no `.catch`, no `try` in the callback. Holds.",
            "Minor issues",
            [unhandledRejection.kimi],
          ),
        },
      ],
    },
  },

  [GPT]: {
    security: {
      kind: "chat",
      review: [
        { tools: [read(VERIFY_FILE), read(HANDLER_FILE), read(SERVER_FILE, 17, 42)] },
        {
          text: answer(
            `**Scope.** The change adds an unauthenticated-by-network endpoint, \`POST /webhooks/payhook\`, whose only protection is \`verifySignature\`. I checked the verifier, the handler that calls it and the route.

**Authentication bypass.** A request with no \`x-payhook-signature\` header is accepted: the function returns \`true\` before computing anything. Since a verified event marks invoices paid, this is directly exploitable.

**Comparison.** The HMAC is compared with \`===\`, which is not constant-time; \`timingSafeEqual\` is imported for exactly this and left unused. The timestamp is covered by the signature, so the replay window itself is sound.`,
            "Significant issues",
            [unsignedBypass.gpt, timingCompare.gpt],
          ),
        },
      ],
      verify: [
        { tools: [read(VERIFY_FILE, 23, 36)] },
        {
          text: answer(
            "Both findings re-checked at lines 24–26 and 35 of the verifier; both hold as written.",
            "Significant issues",
            [unsignedBypass.gpt, timingCompare.gpt],
          ),
        },
      ],
    },
    correctness: {
      kind: "chat",
      review: [
        { tools: [read(HANDLER_FILE), read("src/invoices.ts")] },
        { tools: [read(SERVER_FILE, 30, 42)] },
        {
          text: answer(
            `**Idempotency.** The handler records the event id (line 38) before awaiting \`markInvoicePaid\` (line 40), which rejects for an unknown invoice or a wrong amount. PayHook's retry of that failed delivery is then acknowledged as a duplicate: the state change is lost for good.

**Raw body.** The signature must be computed over the exact bytes received, as the comment on \`readBody\` says, but \`body += chunk\` decodes every chunk separately.`,
            "Minor issues",
            [dedupeBeforeProcessing.gpt, chunkDecoding],
          ),
        },
      ],
      verify: [
        {
          text: answer(
            "Both hold: the ordering at lines 38–40 of the handler and the per-chunk decoding at lines 36–38 of `server.ts` are as described.",
            "Minor issues",
            [dedupeBeforeProcessing.gpt, chunkDecoding],
          ),
        },
      ],
    },
    maintainability: {
      kind: "chat",
      review: [
        { tools: [read(HANDLER_FILE)] },
        {
          text: answer(
            "The new modules are cohesive and named after what they do. One small point: the handler logs with a bare `console.log`.",
            "Minor issues",
            [consoleLog],
          ),
        },
      ],
      verify: [
        {
          text: answer("Line 42 is the `console.log`; the finding holds.", "Minor issues", [
            consoleLog,
          ]),
        },
      ],
    },
    performance: {
      // The failover: an empty answer, and an empty answer to the repair prompt. The second
      // empty answer fails the model for this lens, and the lens goes on on its fallback
      // (gpt-5.1's `fallbacks` in gadfly.config.yml; the session is in fallbackSessions).
      kind: "chat",
      review: [{ text: "" }],
      repair: "",
    },
    "error-handling": {
      kind: "chat",
      review: [
        { tools: [read(SERVER_FILE), read(HANDLER_FILE, 30, 44)] },
        {
          text: answer(
            "`handlePaymentWebhook` can reject (`JSON.parse`, `markInvoicePaid`), and the route in `server.ts` neither awaits nor catches the promise it starts. The process-level default for an unhandled rejection is to exit.",
            "Minor issues",
            [unhandledRejection.gpt],
          ),
        },
      ],
      verify: [
        {
          text: answer("Re-read `server.ts` lines 17–23: the finding holds.", "Minor issues", [
            unhandledRejection.gpt,
          ]),
        },
      ],
    },
  },

  // An agent CLI (`claude -p`): one run per phase, plain text out, so no transcript.
  [OPUS]: {
    security: {
      kind: "agent",
      review: answer(
        `I read \`src/webhooks/verify-signature.ts\`, \`src/webhooks/handle-payment-webhook.ts\` and the new route in \`src/server.ts\`, and grepped for other uses of the PayHook headers.

Three problems, in order of impact:

- **Unsigned requests are accepted.** \`verifySignature\` returns \`true\` when the signature header is missing (line 26). Anyone can forge a payment event.
- **Timing-unsafe comparison.** The digest is compared with \`===\` on line 35 although \`timingSafeEqual\` is imported.
- **No body size limit.** \`readBody\` buffers an arbitrarily large body before any authentication.`,
        "Significant issues",
        [unsignedBypass.opus, timingCompare.opus, unlimitedBody],
      ),
      verify: answer(
        "Re-opened each cited line: the early `return true` (line 26), the `===` comparison (line 35) and the unbounded `readBody` (lines 33–41). All three hold.",
        "Significant issues",
        [unsignedBypass.opus, timingCompare.opus, unlimitedBody],
      ),
    },
    correctness: {
      kind: "agent",
      review: answer(
        "I followed a `payment.succeeded` delivery from the route to `markInvoicePaid` in `src/invoices.ts`. The dedupe set is updated before the update that can fail, so a retried delivery of a failed event is swallowed.",
        "Minor issues",
        [dedupeBeforeProcessing.opus],
      ),
      verify: answer(
        "Confirmed in `handle-payment-webhook.ts` lines 35–41. Holds.",
        "Minor issues",
        [dedupeBeforeProcessing.opus],
      ),
    },
    maintainability: {
      kind: "agent",
      review: answer(
        "Read the three changed source files. The code is small, documented where it matters (raw body, tolerance) and consistent with the existing modules. Nothing to flag.",
        "No material issues found",
        [],
      ),
    },
    performance: {
      kind: "agent",
      review: answer(
        "The only state the change adds is `seenEvents`, which is never pruned.",
        "Minor issues",
        [unboundedSet.opus],
      ),
      verify: answer("Line 17, never pruned. Holds.", "Minor issues", [unboundedSet.opus]),
    },
    "error-handling": {
      kind: "agent",
      review: answer(
        "`handlePaymentWebhook` parses the body with `JSON.parse` and lets a `SyntaxError` escape. A malformed but signed event deserves a 400.",
        "Minor issues",
        [parseThrows],
      ),
      verify: answer("Line 34 confirmed. Holds.", "Minor issues", [parseThrows]),
    },
  },
};

// ---------------------------------------------------------------- failover

/** Lenses a planned model failed and a fallback answered, each a session of the fallback's. */
const fallbackSessions: { planned: string; fallback: string; lens: string; session: Session }[] =
  [
    {
      planned: GPT,
      fallback: GLM,
      lens: "performance",
      session: {
        kind: "chat",
        review: [
          { tools: [read(HANDLER_FILE)] },
          {
            text: answer(
              "Per event: one HMAC-SHA256 over a body of a few kilobytes, one `JSON.parse`, one `Set` lookup. No loops over data, no I/O beyond the existing invoice update. No performance concerns in this change.",
              "No material issues found",
              [],
            ),
          },
        ],
      },
    },
  ];

// ---------------------------------------------------------------- the cross-examination

/** A challenge answer as the challenge prompt asks: the evidence, then the block. */
function challengeAnswer(
  prose: string,
  verdict: "confirm" | "refute" | "unsure",
  reason: string,
  checked: string,
): string {
  return `${prose.trim()}\n\n\`\`\`gadfly-challenge\n${JSON.stringify({ verdict, reason, checked }, null, 2)}\n\`\`\``;
}

// Once every lens ended, each single-model finding of medium severity or more is put to the
// other three models: one confirmed by two of them becomes agreed, one refuted by two is
// disputed, and a lone wrong refutation or an unsure answer does not decide anything.
const challenges: { finding: Finding; answers: Record<string, Session> }[] = [
  {
    finding: emptySecretDefault,
    answers: {
      [GLM]: {
        kind: "chat",
        review: [
          { tools: [read(CONFIG_FILE)] },
          {
            text: challengeAnswer(
              "The fallback is there, but a deployment may check its environment before starting the service; nothing in this repository says either way.",
              "unsure",
              "The empty default exists; whether a deployment can start without the variable depends on tooling outside this repository.",
              `${CONFIG_FILE}:10`,
            ),
          },
        ],
      },
      [GPT]: {
        kind: "chat",
        review: [
          { tools: [read(CONFIG_FILE), grep("webhookSecret")] },
          {
            text: challengeAnswer(
              "`loadConfig` falls back to `\"\"` and `server.ts` hands `config.webhookSecret` to the handler as it is.",
              "confirm",
              'Line 10 defaults the secret to "" and nothing between loadConfig and verifySignature rejects an empty key.',
              `${CONFIG_FILE}:10`,
            ),
          },
        ],
      },
      [OPUS]: {
        kind: "agent",
        review: challengeAnswer(
          "Read `src/config.ts` and every use of `webhookSecret`.",
          "confirm",
          "An unset PAYHOOK_WEBHOOK_SECRET becomes an empty HMAC key; anyone can sign events with it.",
          `${CONFIG_FILE}:10`,
        ),
      },
    },
  },
  {
    finding: unlimitedBody,
    answers: {
      [GLM]: {
        kind: "chat",
        review: [
          { tools: [read(SERVER_FILE, 30, 45)] },
          {
            text: challengeAnswer(
              "`readBody` appends every chunk to one string and resolves on `end`.",
              "confirm",
              "readBody concatenates chunks with no cap, before the signature is checked.",
              `${SERVER_FILE}:36`,
            ),
          },
        ],
      },
      [KIMI]: {
        kind: "chat",
        review: [
          { tools: [grep("maxBodySize|content-length", "src")] },
          {
            text: challengeAnswer(
              "Node's HTTP server limits what a request may send.",
              "refute",
              "The HTTP server bounds request sizes, so the body cannot grow without limit.",
              `${SERVER_FILE}:33`,
            ),
          },
        ],
      },
      [GPT]: {
        kind: "chat",
        review: [
          { tools: [read(SERVER_FILE, 30, 45)] },
          {
            text: challengeAnswer(
              "The function buffers the body; a reverse proxy in front of the service may cap it, which this repository does not show.",
              "unsure",
              "No limit in readBody; a proxy limit, if any, is outside this repository.",
              `${SERVER_FILE}:33`,
            ),
          },
        ],
      },
    },
  },
  {
    finding: unitMismatch,
    answers: {
      [KIMI]: {
        kind: "chat",
        review: [
          { tools: [read(VERIFY_FILE, 20, 36)] },
          {
            text: challengeAnswer(
              "I read the check but could not find where `now` is set.",
              "unsure",
              "Whether `now` is in seconds or milliseconds depends on the caller, which I did not read.",
              `${VERIFY_FILE}:29`,
            ),
          },
        ],
      },
      [GPT]: {
        kind: "chat",
        review: [
          { tools: [read(VERIFY_FILE, 24, 31), grep("now:", "src/webhooks")] },
          {
            text: challengeAnswer(
              "Re-derived the units: `now` is `Date.now()` (milliseconds), line 29 divides it by 1000, and `sentAt` is seconds.",
              "refute",
              "Line 29 computes check.now / 1000 - sentAt: both sides are seconds, and 300 s is the documented window.",
              `${VERIFY_FILE}:29`,
            ),
          },
        ],
      },
      [OPUS]: {
        kind: "agent",
        review: challengeAnswer(
          "Read `verifySignature` and its caller.",
          "refute",
          "The clock is divided by 1000 on line 29 before the comparison; the units match.",
          `${VERIFY_FILE}:29`,
        ),
      },
    },
  },
];

// ---------------------------------------------------------------- turning sessions into recordings

type ChatTurnRecord = Extract<Recording, { kind: "chat" }>["turns"][number];

/**
 * Tokens a turn plausibly costs: a fixed prompt (a review's system text, change summary and
 * lens; a verification's smaller one: the same system text, the cited files, the findings),
 * then what the session has grown by.
 */
function usage(
  base: number,
  opening: number,
  requestMessageCount: number,
  text: string,
  toolCalls: number,
) {
  return {
    inputTokens: base + 420 * (requestMessageCount - opening),
    outputTokens: Math.ceil(text.length / 3.8) + 28 * toolCalls,
  };
}

/** A session opens with the system text and two user messages (build-review-prompt.ts, build-verify-prompt.ts). */
const SUMMARY_ANSWER = [
  "SUMMARY:",
  "- Adds a POST /webhooks/payhook endpoint that receives PayHook payment notifications.",
  "- Verifies each delivery's HMAC-SHA256 signature over the timestamp and raw body, and rejects old events.",
  "- Deduplicates retried deliveries by event id and marks the invoice paid on payment.succeeded.",
  "- Adds the PAYHOOK_WEBHOOK_SECRET setting.",
  "FILES:",
  `- Webhook handling: ${HANDLER_FILE}, ${VERIFY_FILE}`,
  `- Server wiring and settings: ${SERVER_FILE}, ${CONFIG_FILE}`,
  "- Documentation: README.md",
].join("\n");

const REVIEW_OPENING_MESSAGES = 3;
/** A cross-examination opens with its system prompt and the claim (challenge-finding.ts). */
const CHALLENGE_OPENING_MESSAGES = 2;
const REVIEW_PROMPT_TOKENS = 5200;
const VERIFY_PROMPT_TOKENS = 3400;

/** Ollama sends no ids (Gadfly names them call_<turn>_<index>); OpenAI sends opaque ones. */
function toolCallId(modelId: string, lens: string, assistantTurns: number, index: number): string {
  if (modelId !== GPT) return `call_${assistantTurns}_${index}`;
  const digest = createHash("sha256")
    .update(`${modelId}/${lens}/${assistantTurns}/${index}`)
    .digest("base64url");
  return `call_${digest.slice(0, 24)}`;
}

/** `opening`: the messages a session starts with (a cross-examination has two: system, claim). */
function chatTurns(
  modelId: string,
  lens: string,
  session: ChatSession,
  opening: number,
): ChatTurnRecord[] {
  const turns: ChatTurnRecord[] = [];
  // A review: system text, the change, the lens (src/agent/build-review-prompt.ts).
  let messages = opening;
  let base = REVIEW_PROMPT_TOKENS;
  let assistantTurns = 0;
  const take = (turn: Turn) => {
    const calls: ToolCall[] = (turn.tools ?? []).map((tool, index) => ({
      id: toolCallId(modelId, lens, assistantTurns, index),
      name: tool.name,
      arguments: JSON.stringify(tool.arguments),
    }));
    const text = turn.text ?? "";
    turns.push({
      requestMessageCount: messages,
      result: {
        text,
        toolCalls: calls,
        finishReason: calls.length > 0 ? "tool-calls" : "stop",
        usage: usage(base, opening, messages, text, calls.length),
      },
    });
    messages += 1 + calls.length; // the assistant turn, then one tool result per call
    assistantTurns += 1;
  };
  for (const turn of session.review) take(turn);
  if (session.repair !== undefined) {
    messages += 1; // the repair prompt
    take({ text: session.repair });
  }
  if (session.verify !== undefined) {
    // A session of its own: system text, the cited files, the request (build-verify-prompt.ts).
    messages = REVIEW_OPENING_MESSAGES;
    base = VERIFY_PROMPT_TOKENS;
    for (const turn of session.verify) take(turn);
  }
  return turns;
}

function agentRun(text: string) {
  return { result: { text, transcript: [], usage: { inputTokens: 0, outputTokens: 0 } } };
}

function toRecording(
  modelId: string,
  lens: string,
  session: Session,
  opening = REVIEW_OPENING_MESSAGES,
): Recording {
  const header = { format: RECORDING_FORMAT, version: RECORDING_VERSION, modelId, lens } as const;
  const recording: Recording =
    session.kind === "chat"
      ? { ...header, kind: "chat", turns: chatTurns(modelId, lens, session, opening) }
      : {
          ...header,
          kind: "agent",
          runs: [
            agentRun(session.review),
            ...(session.verify === undefined ? [] : [agentRun(session.verify)]),
          ],
        };
  return Recording.parse(recording);
}

const directory = join(dirname(fileURLToPath(import.meta.url)), "recordings");
await rm(directory, { recursive: true, force: true });
let written = 0;
for (const [modelId, lenses] of Object.entries(sessions)) {
  for (const [lens, session] of Object.entries(lenses)) {
    await writeRecording(
      recordingPath(directory, modelId, lens),
      toRecording(modelId, lens, session),
    );
    written += 1;
  }
}
for (const { planned, fallback, lens, session } of fallbackSessions) {
  const name = fallbackSessionLens(lens, planned);
  await writeRecording(
    recordingPath(directory, fallback, name),
    toRecording(fallback, name, session),
  );
  written += 1;
}
for (const { finding, answers } of challenges) {
  const lens = challengeSessionLens(fingerprint(finding.file, finding.title));
  for (const [modelId, session] of Object.entries(answers)) {
    await writeRecording(
      recordingPath(directory, modelId, lens),
      toRecording(modelId, lens, session, CHALLENGE_OPENING_MESSAGES),
    );
    written += 1;
  }
}
// The round's summary (src/agent/summarize-pull-request.ts): one tool-free answer by the first
// model that completed a lens, from a system text and one user message.
await writeRecording(
  recordingPath(directory, GLM, SUMMARY_LENS),
  toRecording(GLM, SUMMARY_LENS, { kind: "chat", review: [{ text: SUMMARY_ANSWER }] }, 2),
);
written += 1;
console.log(`wrote ${written} recordings to ${directory}`);
