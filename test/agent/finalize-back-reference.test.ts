import { describe, expect, it } from "vitest";
import {
  BACK_REFERENCE_PATTERNS,
  finalOutput,
  isFindingsBackReference,
  isWeakFinal,
  RECOVER_MIN_BYTES,
  SUMMARY_CLOSER_MAX_BYTES,
  WEAK_FINAL_MAX_BYTES,
} from "../../src/agent/finalize.js";
import type { Message } from "../../src/llm/message.js";

/*
 * Back-references without a pronoun (impersonal or passive phrasing pointing at an
 * earlier turn), which turn finalize recovers when several qualify, and the bound
 * on the work the detection does on hostile text.
 */

const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });
const readCall = (id: string, path: string): Message => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name: "read_file", arguments: JSON.stringify({ path }) }],
});
const toolResult = (id: string, content: string): Message => ({
  role: "tool",
  content,
  toolCallId: id,
});

const review = (verdict: string, findings: string, prose: string) =>
  [prose, "", `VERDICT: ${verdict}`, "```gadfly-findings", findings, "```"].join("\n");

// A reviewer's real answer: prose, the VERDICT line, the findings block.
const realReview = review(
  "Minor issues",
  '[{"file":"src/queue/flush.ts","line":88,"severity":"minor","title":"flushAll drops the last batch","body":"The loop stops at length - 1."}]',
  "Reviewed through the error-handling lens. `flushAll` in src/queue/flush.ts stops one batch short when the queue length is a multiple of the batch size, so the last batch is never written.",
);

// The same review as prose only: what a chat model that answered without a block wrote.
const proseAnswer =
  "Reviewed through the error-handling lens. The flush loop in the queue module stops one batch short when the queue length is a multiple of the batch size, so the last batch is never written and the caller is told the flush succeeded.";

// The transcript of a chat review: a tool call, its result, then the real answer.
const transcript = (answer: string): Message[] => [
  user("Review this change through the error-handling lens."),
  readCall("t1", "src/queue/flush.ts"),
  toolResult("t1", "export function flushAll(queue) { … }"),
  assistant(answer),
];

describe("fixture sizes", () => {
  it("keeps the earlier answers substantive", () => {
    expect(bytes(realReview)).toBeGreaterThanOrEqual(RECOVER_MIN_BYTES);
    expect(bytes(proseAnswer)).toBeGreaterThanOrEqual(RECOVER_MIN_BYTES);
  });
});

/*
 * Each of these fails when the impersonal patterns are removed (break-checked):
 * none names its writer, so the first-person patterns miss them all.
 */
const IMPERSONAL: readonly [string, string][] = [
  ["passive, above", "The findings were provided above."],
  ["see the previous response", "See the previous response for the full review."],
  ["unchanged from the prior turn", "Verdict and findings unchanged from the prior turn."],
  ["as noted previously", "As noted previously, the review stands."],
  ["details in the preceding answer", "Review complete — details in the preceding answer."],
  ["listed earlier", "Findings listed earlier remain valid."],
  ["nothing to add beyond the above", "Nothing to add beyond the above."],
  ["qwen: bold, as above, emoji", "**Findings as above.** ✅"],
  ["kimi: see previous response, emoji", "See previous response 👆"],
  ["glm: same as before, emoji", "Same as before ✅"],
  ["refer to the prior reply", "Please refer to the prior reply."],
  ["in the previous message", "Results are in my previous message."],
  ["given in the previous turn", "Answer given in the previous turn. 🙂"],
  ["glm: bold verdict unchanged", "**Verdict unchanged.**"],
  ["everything covered earlier", "Everything was covered earlier — no further changes."],
  ["the above is the final review", "The above is the final review. ✅"],
  ["stands as previously submitted", "Review stands as previously submitted."],
  ["see the earlier analysis", "Kindly see the earlier analysis."],
  ["see preceding message", "Final answer: see preceding message."],
  ["bold split across a line break", "**See** the\nprevious response."],
  ["bold around each word", "**As noted** **previously** ✅"],
];

// Impersonal phrasings the first-person patterns already caught: kept as regressions.
const ALREADY_CAUGHT: readonly [string, string][] = [
  [
    "already delivered in the earlier message",
    "Full analysis already delivered in the earlier message; no changes.",
  ],
  ["refer to the analysis above", "Refer to the analysis above."],
  ["parenthesised see above", "(see above)"],
  ["as previously stated", "As previously stated, no blocking issues."],
];

describe("impersonal and passive back-references", () => {
  it("has at least twelve new phrasings, each short enough to be a back-reference", () => {
    expect(IMPERSONAL.length).toBeGreaterThanOrEqual(12);
    for (const [, text] of [...IMPERSONAL, ...ALREADY_CAUGHT]) {
      expect(bytes(text)).toBeLessThanOrEqual(WEAK_FINAL_MAX_BYTES);
    }
  });

  it.each([...IMPERSONAL, ...ALREADY_CAUGHT])("%s: a back-reference", (_name, terminal) => {
    expect(isWeakFinal(terminal)).toBe(true);
    expect(isFindingsBackReference(terminal)).toBe(true);
  });

  it.each([...IMPERSONAL, ...ALREADY_CAUGHT])(
    "%s: the review with its findings block is recovered",
    (_name, terminal) => {
      expect(finalOutput(terminal, transcript(realReview))).toBe(realReview);
    },
  );

  it.each([...IMPERSONAL, ...ALREADY_CAUGHT])(
    "%s: a prose answer is recovered",
    (_name, terminal) => {
      expect(finalOutput(terminal, transcript(proseAnswer))).toBe(proseAnswer);
    },
  );

  it("reads a curly apostrophe as a straight one", () => {
    expect(isWeakFinal("As we\u2019ve already said.")).toBe(true);
  });

  it("recovers the block for a closer longer than a back-reference (findings shape)", () => {
    const terminal =
      "The full review, with the verdict and every finding, was provided in the previous response; this pass changed nothing in the analysis.";
    expect(bytes(terminal)).toBeGreaterThan(WEAK_FINAL_MAX_BYTES);
    expect(finalOutput(terminal, transcript(realReview))).toBe(realReview);
  });
});

/*
 * Near-misses: real answers that share words with the back-references. Each is the
 * model's own answer and is kept, though an earlier review with a block is in reach.
 */
const REAL_ANSWERS: readonly [string, string][] = [
  [
    "'findings above the fold' in a short answer with its own block",
    review("Minor issues", "[]", "The findings above the fold are the ones that matter."),
  ],
  [
    "'see above' inside a finding body",
    review(
      "Minor issues",
      '[{"file":"src/io/open.ts","line":12,"severity":"minor","title":"handle leaked on error","body":"Same leak as the `open()` path (see above): the handle is not closed when `stat` throws."}]',
      "Two paths leak the file handle; see above for the first, the second is below.",
    ),
  ],
  [
    "a long answer with a block that mentions 'previously' and 'earlier'",
    review(
      "Minor issues",
      "[]",
      "The handler previously returned null and now throws; as described in the earlier commit message, callers were meant to be updated, and the two in src/api/routes.ts were, so the behaviour change is safe. The previously reported retry issue is fixed by this change.",
    ),
  ],
  [
    "a long prose answer that mentions 'previously' (no block, no back-reference)",
    "The handler previously returned null; it now throws `NotFoundError`, and neither caller in src/api/routes.ts catches it, so a missing record becomes a 500 instead of a 404. The earlier version of the test covered the null case only, which is why the suite still passes.",
  ],
  [
    "'the earlier version' in a short answer",
    "The earlier version checked `len`; this one does not, so an empty list panics.",
  ],
  [
    "'as noted in' a document",
    "As noted in the RFC, retries must be idempotent; `retry()` is not.",
  ],
  ["'the previous reviewer'", "The previous reviewer missed the race in `flush`."],
  ["'same as before' followed by what", "Same as before the refactor: `close()` leaks the handle."],
  [
    "'nothing to add to' a type",
    "Nothing to add to `Config`; the new field is unused at src/config.ts:12.",
  ],
];

describe("real answers that look like back-references", () => {
  it("has at least six", () => {
    expect(REAL_ANSWERS.length).toBeGreaterThanOrEqual(6);
  });

  it.each(REAL_ANSWERS)("%s: kept", (_name, terminal) => {
    expect(finalOutput(terminal, transcript(realReview))).toBe(terminal);
    expect(finalOutput(terminal, transcript(proseAnswer))).toBe(terminal);
  });

  it("keeps a short back-reference that carries its own findings block", () => {
    const terminal = review("No material issues found", "[]", "As noted previously.");
    expect(bytes(terminal)).toBeLessThanOrEqual(WEAK_FINAL_MAX_BYTES);
    expect(isWeakFinal(terminal)).toBe(false);
    expect(finalOutput(terminal, transcript(realReview))).toBe(terminal);
  });

  it("keeps an ack that carries its own findings block", () => {
    const terminal = review("No material issues found", "[]", "Review complete.");
    expect(finalOutput(terminal, transcript(realReview))).toBe(terminal);
  });
});

describe("a back-reference that also says something new is not dropped", () => {
  const closer =
    "See the previous response; also `drainQueue` skips the retry path at src/queue/drain.ts:41.";

  it("is short enough to be a back-reference", () => {
    expect(isWeakFinal(closer)).toBe(true);
  });

  it("is appended to the recovered review (findings shape)", () => {
    expect(finalOutput(closer, transcript(realReview))).toBe(`${realReview}\n\n${closer}`);
  });

  it("is appended to the recovered prose answer (back-reference shape)", () => {
    expect(finalOutput(closer, transcript(proseAnswer))).toBe(`${proseAnswer}\n\n${closer}`);
  });

  it("is appended when it is longer than a back-reference but closer-sized", () => {
    const longer =
      "The findings were provided above and still hold. One addition: `drainQueue` skips the retry path at src/queue/drain.ts:41 when the batch is empty.";
    expect(bytes(longer)).toBeGreaterThan(WEAK_FINAL_MAX_BYTES);
    expect(bytes(longer)).toBeLessThanOrEqual(SUMMARY_CLOSER_MAX_BYTES);
    expect(finalOutput(longer, transcript(realReview))).toBe(`${realReview}\n\n${longer}`);
  });

  it("is discarded when everything it names is already in the answer", () => {
    const restating = "As noted previously: `flushAll` in src/queue/flush.ts.";
    expect(finalOutput(restating, transcript(realReview))).toBe(realReview);
  });
});

describe("several earlier turns qualify: the newest wins", () => {
  const older = review(
    "Minor issues",
    '[{"file":"src/a.ts","line":1,"severity":"minor","title":"older draft","body":"First pass."}]',
    `A first pass over the change, before reading the tests. ${"It lists one candidate issue. ".repeat(6)}`,
  );
  const middle = review(
    "Minor issues",
    '[{"file":"src/a.ts","line":2,"severity":"minor","title":"middle draft","body":"Second pass."}]',
    `A second pass, after reading the tests. ${"It keeps the candidate issue. ".repeat(6)}`,
  );
  const newest = review(
    "Minor issues",
    '[{"file":"src/a.ts","line":3,"severity":"minor","title":"final","body":"Third pass."}]',
    `The final pass, after reading the callers. ${"It confirms the issue. ".repeat(6)}`,
  );
  // An earlier turn that is itself an impersonal back-reference, long enough (and
  // dwarfing the terminal enough) that a bare length test would take it.
  const pointer =
    "Full analysis already delivered in the earlier message; the verdict and both findings are unchanged.";
  const proseOlder = `An early answer. ${"Free group calls are capped at sixty minutes. ".repeat(5)}`;
  const proseMiddle = `A later answer. ${"Paid plans have no cap on group calls at all. ".repeat(5)}`;
  const proseNewest = `The final answer. ${"Webinars are capped at four hours on every plan. ".repeat(5)}`;
  const terminal = "(see above)";

  it("the pointer turn is a back-reference that would pass the length test", () => {
    expect(isWeakFinal(pointer)).toBe(true);
    expect(bytes(pointer)).toBeGreaterThanOrEqual(3 * bytes(terminal));
    expect(bytes(pointer)).toBeGreaterThanOrEqual(80);
  });

  it("findings shape: of three block turns, the newest", () => {
    const messages = [user("review"), assistant(older), assistant(middle), assistant(newest)];
    expect(finalOutput("Findings listed earlier remain valid.", messages)).toBe(newest);
  });

  it("findings shape: the newest is a back-reference, so the middle", () => {
    const messages = [user("review"), assistant(older), assistant(middle), assistant(pointer)];
    expect(finalOutput("Findings listed earlier remain valid.", messages)).toBe(middle);
  });

  it("back-reference shape: of three prose turns, the newest", () => {
    const messages = [
      user("q"),
      assistant(proseOlder),
      assistant(proseMiddle),
      assistant(proseNewest),
    ];
    expect(finalOutput(terminal, messages)).toBe(proseNewest.trim());
  });

  it("back-reference shape: the newest is a back-reference, so the middle", () => {
    const messages = [
      user("q"),
      assistant(proseOlder),
      readCall("t1", "pricing.md"),
      toolResult("t1", "…"),
      assistant(proseMiddle),
      assistant(pointer),
    ];
    expect(finalOutput(terminal, messages)).toBe(proseMiddle.trim());
  });

  it("back-reference shape: every earlier turn a back-reference, so the terminal is kept", () => {
    const messages = [user("q"), assistant(pointer), assistant("See the previous response.")];
    expect(finalOutput(terminal, messages)).toBe(terminal);
  });
});

/*
 * The bound. Every back-reference pattern is built from literals, classes, groups,
 * alternations and `?` only (no `*`, `+` or `{n,}`), so one match attempt reads at
 * most a fixed number of characters and a scan of n characters does at most
 * n × that many steps. `maxReach` proves the bound from the pattern's source.
 */

/** The most characters one match attempt of `source` can read, or throws on an unbounded quantifier. */
function maxReach(source: string): number {
  let at = 0;
  const alternation = (): number => {
    let best = sequence();
    while (source[at] === "|") {
      at++;
      best = Math.max(best, sequence());
    }
    return best;
  };
  const sequence = (): number => {
    let total = 0;
    while (at < source.length && source[at] !== "|" && source[at] !== ")") {
      total += atom();
      const next = source[at];
      if (next === "*" || next === "+" || next === "{") {
        throw new Error(`unbounded quantifier at ${at} in ${source}`);
      }
      if (next === "?") at++;
    }
    return total;
  };
  const atom = (): number => {
    const char = source[at];
    if (char === "(") {
      at++;
      if (
        source.startsWith("?:", at) ||
        source.startsWith("?!", at) ||
        source.startsWith("?=", at)
      ) {
        at += 2;
      }
      const reach = alternation();
      if (source[at] !== ")") throw new Error(`unclosed group in ${source}`);
      at++;
      // A lookahead consumes nothing but reads ahead: what it reads is counted too.
      return reach;
    }
    if (char === "[") {
      at = source.indexOf("]", at + 1) + 1;
      if (at === 0) throw new Error(`unclosed class in ${source}`);
      return 1;
    }
    if (char === "\\") {
      const escaped = source[at + 1];
      at += 2;
      return escaped === "b" || escaped === "B" ? 0 : 1;
    }
    at++;
    return 1;
  };
  const reach = alternation();
  if (at !== source.length) throw new Error(`unparsed tail at ${at} in ${source}`);
  return reach;
}

describe("linear time on hostile input", () => {
  it("measures a pattern's reach, and refuses an unbounded one", () => {
    expect(maxReach(String.raw`\bsee (?:the )?above\b`)).toBe("see the above".length);
    expect(maxReach(String.raw`a(?! ?\w)`)).toBe(3);
    expect(() => maxReach(String.raw`\bas\s+above`)).toThrow(/unbounded/);
    expect(() => maxReach("(?:a|b)*")).toThrow(/unbounded/);
    expect(() => maxReach("a{2,}")).toThrow(/unbounded/);
  });

  it("bounds every back-reference pattern: one attempt reads at most 120 characters", () => {
    const reaches = BACK_REFERENCE_PATTERNS.map(maxReach);
    expect(reaches.length).toBeGreaterThan(10);
    expect(Math.max(...reaches)).toBeLessThanOrEqual(120);
  });

  const size = 200 * 1024;
  const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  // Near-misses repeated: every position starts a partial match that then fails.
  const hostile: readonly [string, string][] = [
    ["whitespace runs", fill("x  \n\t\t  \n")],
    ["emphasis markers", fill("*_~")],
    ["as noted, never located", fill("as noted ")],
    ["passive, never located", fill("the findings were provided ")],
    ["see the previous, never a turn", fill("see the previous ")],
    ["same as before, always followed", fill("same as before x ")],
    ["the abovementioned", fill("per the abovementioned ")],
    ["copulas without an end", fill("review is was were has been ")],
    ["brackets", fill("[[[(")],
  ];

  it.each(hostile)("%s: 200 KB scanned, the terminal kept", (_name, terminal) => {
    expect(bytes(terminal)).toBeGreaterThanOrEqual(size);
    expect(isWeakFinal(terminal)).toBe(false);
    expect(isFindingsBackReference(terminal)).toBe(false);
    expect(finalOutput(terminal, transcript(realReview))).toBe(terminal);
  });

  it("finds a back-reference at the very end of 200 KB of near-misses", () => {
    const terminal = `${fill("as noted ")} See the previous response.`;
    expect(isFindingsBackReference(terminal)).toBe(true);
    expect(finalOutput(terminal, transcript(realReview))).toBe(realReview);
  });

  it("reads a 200 KB hostile earlier turn as an answer, not a back-reference", () => {
    const earlier = fill("as noted ");
    const messages = [user("q"), assistant(proseAnswer), assistant(earlier)];
    expect(finalOutput("(see above)", messages)).toBe(earlier.trim());
  });
});
