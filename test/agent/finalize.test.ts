import { describe, expect, it } from "vitest";
import {
  carriesNewContent,
  finalOutput,
  isCitationsOnly,
  isFindingsBackReference,
  isSummaryCloser,
  isWeakFinal,
  RECOVER_FLOOR_BYTES,
  RECOVER_MIN_BYTES,
  SUMMARY_CLOSER_MAX_BYTES,
  WEAK_FINAL_MAX_BYTES,
} from "../../src/agent/finalize.js";
import type { Message } from "../../src/llm/message.js";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

// Fixtures shared by every table below (the original's longAnswer/hugeAnswer).
const longAnswer = "Free group calls are capped at sixty minutes. ".repeat(6).trim(); // 275 bytes
const hugeAnswer = "Free group calls are capped at sixty minutes. ".repeat(12).trim(); // 551 bytes

// mort run b3cb9ee9 (glm-5.2): 151 characters, 153 bytes (the em dash is 3 bytes).
const b3cb9ee9Closer =
  "Citations are logged. Short version: the bulk of that ~$64M was AIPAC and dark-money super PACs, not the party committees — and it still wasn't enough.";

// The front-loaded answer the closer compressed: every figure of the closer is in it.
const b3cb9ee9Answer = [
  "Outside spending in the 2024 primary reached roughly $64M, and almost none of it came from the party committees.",
  "The largest share came from AIPAC's United Democracy Project, which spent more in this one race than in any primary before it,",
  "followed by dark-money super PACs whose donors were disclosed only after the vote, if at all.",
  "The party committees stayed neutral in the primary and spent nothing on advertising.",
  "Turnout rose in the precincts the super PACs targeted, but the margin moved by less than two points,",
  "which is why analysts concluded that the spending, large as it was, still wasn't enough to change the outcome.",
].join(" ");

const cite: Message["toolCalls"] = [{ id: "c1", name: "cite", arguments: "{}" }];
const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string, toolCalls?: Message["toolCalls"]): Message =>
  toolCalls === undefined
    ? { role: "assistant", content }
    : { role: "assistant", content, toolCalls };
const toolResult = (content: string, toolCallId = "c1"): Message => ({
  role: "tool",
  content,
  toolCallId,
});

// The Gadfly failure on the reference page: claude-code/sonnet, error-handling lens.
const sonnetTerminal =
  "The review is complete — no plan or implementation work applies here since this was a read-only adversarial code review request, not a build task. I already delivered the full Gadfly verdict and findings above (verdict: **No material issues found** for the error-handling & edge-cases lens, with an empty `gadfly-findings` JSON array), based on static reading of `agent/finalize.go` and `agent/finalize_test.go` plus `llm/message.go`. No files were modified.";

const sonnetFindingsTurn = [
  "Reviewing strictly through the error handling & edge cases lens.",
  "",
  "- Empty inputs are guarded before the regex runs (`finalize.go:240`).",
  "- The user-boundary break fails closed.",
  "",
  "VERDICT: No material issues found",
  "```gadfly-findings",
  "[]",
  "```",
].join("\n");

describe("fixture sizes (the thresholds the tables rely on)", () => {
  it("matches the original's byte arithmetic", () => {
    expect(bytes(longAnswer)).toBe(275);
    expect(bytes(hugeAnswer)).toBe(551);
    expect(b3cb9ee9Closer.length).toBe(151);
    expect(bytes(b3cb9ee9Closer)).toBe(153);
    expect(bytes(b3cb9ee9Answer)).toBeGreaterThanOrEqual(3 * 153);
    expect(bytes(sonnetTerminal)).toBeGreaterThan(SUMMARY_CLOSER_MAX_BYTES);
    expect([
      WEAK_FINAL_MAX_BYTES,
      SUMMARY_CLOSER_MAX_BYTES,
      RECOVER_MIN_BYTES,
      RECOVER_FLOOR_BYTES,
    ]).toEqual([120, 300, 200, 80]);
  });
});

describe("isSummaryCloser", () => {
  it.each([
    ["the verbatim b3cb9ee9 closer", b3cb9ee9Closer, true],
    ["bare ack", "Citations are logged.", true],
    ["ack with exclamation", "Citations are logged!", true],
    ["no copula", "Citations logged.", true],
    ["have been", "The citations have been recorded.", true],
    ["all the", "All the citations are logged.", true],
    ["floating all", "Citations all logged.", true],
    ["verb first", "Logged all the citations.", true],
    ["sources noted", "Sources noted. Short version: no.", true],
    ["conversational opener", "Okay, citations are logged. In short: yes.", true],
    ["list marker", "- Citations are saved.", true],
    ["bold ack", "**Citations are logged.** Short version: yes.", true],
    ["gadfly: findings recorded", "Findings are recorded.", true],
    ["gadfly: review complete", "Review complete.", true],
    [
      "gadfly: review complete with summary",
      "Review complete. Two minor issues, both in the parser.",
      true,
    ],
    [
      "prose about citations (court transcript)",
      "The citations are recorded in the court transcript, which the judge read.",
      false,
    ],
    [
      "prose about citations (Zotero)",
      "Citations are logged in Zotero whenever I add a source.",
      false,
    ],
    ["compression without the ack", "Short version: yes.", false],
    [
      "ack whose period is followed by more text",
      "Citations are logged...and then more text",
      false,
    ],
    ["ack whose period runs into a word", "Citations are logged.and then more", false],
    ["empty", "", false],
    ["over the cap", `Citations are logged. ${"x".repeat(SUMMARY_CLOSER_MAX_BYTES)}`, false],
  ])("%s", (_name, text, want) => {
    expect(isSummaryCloser(text)).toBe(want);
  });

  it("measures the cap in UTF-8 bytes, not characters", () => {
    const padding = "é".repeat(140); // 140 characters, 280 bytes
    const closer = `Citations are logged. ${padding}`;
    expect(closer.length).toBeLessThan(SUMMARY_CLOSER_MAX_BYTES);
    expect(bytes(closer)).toBeGreaterThan(SUMMARY_CLOSER_MAX_BYTES);
    expect(isSummaryCloser(closer)).toBe(false);
  });
});

describe("isWeakFinal", () => {
  it.each([
    ["empty", "", true],
    ["whitespace", "  \n ", true],
    ["as I said above", "As I said above.", true],
    ["see my answer above", "See my answer above for the details.", true],
    ["already provided", "I already provided the full answer.", true],
    ["gadfly: see the findings above", "See the findings above.", true],
    ["gadfly: findings above", "My findings are listed above.", true],
    ["no back-reference", "The limit is sixty minutes.", false],
    [
      "over the cap",
      `As I said above, ${"the limit applies to every group call. ".repeat(4)}`,
      false,
    ],
  ])("%s", (_name, text, want) => {
    expect(isWeakFinal(text)).toBe(want);
  });
});

describe("isCitationsOnly", () => {
  it.each([
    ["label and links", "Sources:\n- https://example.com/a\n- https://example.com/b", true],
    ["bold label, markdown links", "**References:**\n1. [Doc](https://example.com/doc)", true],
    ["links on the label line", "Sources: https://example.com/a", true],
    ["label with prose", "Sources:\n- https://example.com/a\nThe limit is sixty minutes.", false],
    ["label without links", "Sources: my own reading.", false],
    ["links without label", "https://example.com/a", false],
  ])("%s", (_name, text, want) => {
    expect(isCitationsOnly(text)).toBe(want);
  });
});

describe("finalOutput: the original's table", () => {
  const citations = "Sources:\n- https://example.com/pricing\n- https://example.com/faq";

  it.each<[string, string, Message[], string]>([
    [
      "b3cb9ee9: the front-loaded answer replaces the summary closer",
      b3cb9ee9Closer,
      [user("How much was spent?"), assistant(b3cb9ee9Answer, cite), toolResult("ok")],
      b3cb9ee9Answer,
    ],
    [
      "summary closer discarded when a prior turn dwarfs it",
      "Citations are logged. Short version: free group calls are capped at sixty minutes.",
      [user("q"), assistant(hugeAnswer, cite), toolResult("ok")],
      hugeAnswer,
    ],
    [
      "summary closer kept when the prior turn does not dwarf it",
      b3cb9ee9Closer,
      [user("q"), assistant(longAnswer, cite), toolResult("ok")],
      b3cb9ee9Closer,
    ],
    [
      "summary closer never resurrects a stale answer across the user boundary",
      b3cb9ee9Closer,
      [
        user("an earlier question"),
        assistant(hugeAnswer),
        user("How much was spent?"),
        assistant(longAnswer, cite),
        toolResult("ok"),
      ],
      b3cb9ee9Closer,
    ],
    [
      "summary closer recovery still works with history present",
      "Citations are logged. Short version: free group calls are capped at sixty minutes.",
      [
        user("an earlier question"),
        assistant(longAnswer),
        user("q"),
        assistant(hugeAnswer, cite),
        toolResult("ok"),
      ],
      hugeAnswer,
    ],
    [
      "tool results are not user messages: the summary scan passes them",
      "Citations are logged.",
      [user("q"), assistant(longAnswer, cite), toolResult("first"), toolResult("second", "c2")],
      longAnswer,
    ],
    [
      "back-ref beats summary: a closer matching both gets the looser bar",
      "Citations are logged. As I mentioned, free group calls are capped at sixty minutes.",
      [user("q"), assistant(longAnswer, cite), toolResult("ok")],
      longAnswer,
    ],
    [
      "weak back-reference recovered",
      "As I said above.",
      [user("q"), assistant(longAnswer)],
      longAnswer,
    ],
    ["empty terminal recovered", "", [user("q"), assistant(longAnswer)], longAnswer],
    [
      "citations-only addendum appended to the recovered answer",
      citations,
      [user("q"), assistant(longAnswer, cite), toolResult("ok")],
      `${longAnswer}\n\n${citations}`,
    ],
    [
      "back-reference over the cap is kept",
      `As I said above, ${"the limit applies to every group call. ".repeat(4)}`.trim(),
      [user("q"), assistant(hugeAnswer)],
      `As I said above, ${"the limit applies to every group call. ".repeat(4)}`.trim(),
    ],
    [
      "prose near-miss (court transcript) is kept",
      "The citations are recorded in the court transcript, which the judge read.",
      [user("q"), assistant(hugeAnswer)],
      "The citations are recorded in the court transcript, which the judge read.",
    ],
    [
      "prose near-miss (Zotero) is kept",
      "Citations are logged in Zotero whenever I add a source.",
      [user("q"), assistant(hugeAnswer)],
      "Citations are logged in Zotero whenever I add a source.",
    ],
    [
      "compression without ack is kept",
      "Short version: yes.",
      [user("q"), assistant(hugeAnswer)],
      "Short version: yes.",
    ],
    [
      "fail closed: nothing substantive before the back-reference",
      "As I said above.",
      [user("q"), assistant("Let me look.", cite), toolResult("ok")],
      "As I said above.",
    ],
    [
      "a preamble between the floor and the minimum is not an answer",
      "As I said above.",
      [
        user("q"),
        assistant(
          "Let me read the pricing page and the FAQ before I answer, so the figures are right.",
        ),
      ],
      "As I said above.",
    ],
    [
      "a short answer between the floor and the minimum that dwarfs the terminal is recovered",
      "See above.",
      [
        user("q"),
        assistant(
          "Free group calls are capped at sixty minutes; paid plans have no cap at all, even for webinars.",
        ),
      ],
      "Free group calls are capped at sixty minutes; paid plans have no cap at all, even for webinars.",
    ],
    [
      "a standalone answer is untouched",
      longAnswer,
      [user("q"), assistant(hugeAnswer)],
      longAnswer,
    ],
  ])("%s", (_name, terminal, messages, want) => {
    expect(finalOutput(terminal, messages)).toBe(want);
  });
});

describe("finalOutput: beyond the original", () => {
  it("appends a summary closer that carries a correction absent from the answer", () => {
    const closer = "Citations are logged. One correction: the figure was $46M, not $64M.";
    const messages = [user("q"), assistant(b3cb9ee9Answer, cite), toolResult("ok")];
    expect(finalOutput(closer, messages)).toBe(`${b3cb9ee9Answer}\n\n${closer}`);
  });

  it("appends a closer naming an identifier or file:line the answer does not", () => {
    const closer = "Findings are recorded. Also see `parseHunk` at src/diff/parse.ts:88.";
    const messages = [user("q"), assistant(hugeAnswer, cite), toolResult("ok")];
    expect(finalOutput(closer, messages)).toBe(`${hugeAnswer}\n\n${closer}`);
  });

  it("does not match an ack whose period is followed by more text", () => {
    const terminal = "Citations are logged...and then more";
    expect(finalOutput(terminal, [user("q"), assistant(hugeAnswer)])).toBe(terminal);
  });

  it("recognises Gadfly's own acks and back-references", () => {
    const messages = [user("review"), assistant(hugeAnswer, cite), toolResult("ok")];
    expect(finalOutput("Findings are recorded.", messages)).toBe(hugeAnswer);
    expect(finalOutput("Review complete.", messages)).toBe(hugeAnswer);
    expect(finalOutput("See the findings above.", messages)).toBe(hugeAnswer);
  });

  it("recovers the findings turn the sonnet reviewer pointed back to (reference page, verbatim)", () => {
    const messages = [
      user("Review this change through the error-handling lens."),
      assistant("Let me read the file.", [
        { id: "t1", name: "read_file", arguments: '{"path":"agent/finalize.go"}' },
      ]),
      toolResult("package agent …", "t1"),
      assistant(sonnetFindingsTurn),
      assistant("Anything else?"),
    ];
    expect(isFindingsBackReference(sonnetTerminal)).toBe(true);
    expect(finalOutput(sonnetTerminal, messages)).toBe(sonnetFindingsTurn);
  });

  it("does not take a findings turn from before the current user window", () => {
    const messages = [user("first pass"), assistant(sonnetFindingsTurn), user("now verify them")];
    expect(finalOutput(sonnetTerminal, messages)).toBe(sonnetTerminal);
  });

  it("leaves a terminal that holds its own findings block alone", () => {
    const terminal = `${sonnetTerminal}\n\nVERDICT: Minor issues\n\`\`\`gadfly-findings\n[]\n\`\`\``;
    expect(finalOutput(terminal, [user("q"), assistant(sonnetFindingsTurn)])).toBe(terminal);
  });
});

describe("carriesNewContent", () => {
  it.each([
    ["a number absent from the answer", "Short version: $46M.", "It cost $64M.", true],
    ["the same number", "Short version: $64M.", "It cost $64M in total.", false],
    ["a backticked identifier", "Also `summaryLead`.", "The constant is duplicated.", true],
    [
      "a camelCase identifier present",
      "See citationLabelRe.",
      "citationLabelRe duplicates it.",
      false,
    ],
    ["a file:line", "Look at src/a.ts:12.", "The parser is fine.", true],
    ["plain words", "Short version: no.", "The answer is no, it was not enough.", false],
  ])("%s", (_name, closer, recovered, want) => {
    expect(carriesNewContent(closer, recovered)).toBe(want);
  });
});
