import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractFencedBlocks } from "../../src/findings/extract-fenced-blocks.js";
import { removeFindingsBlocks, renderLensAnswer } from "../../src/findings/findings-block.js";
import { parseLensAnswer } from "../../src/findings/parse.js";
import { Confidence, type LensFinding, Severity } from "../../src/findings/schema.js";

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\``;
const one = (extra: Record<string, unknown> = {}) =>
  JSON.stringify([
    {
      file: "src/a.ts",
      line: 12,
      severity: "low",
      confidence: "high",
      title: "Off by one",
      body: "The loop skips the last item.",
      ...extra,
    },
  ]);
const finding = (overrides: Partial<LensFinding> = {}): LensFinding => ({
  file: "src/a.ts",
  line: 12,
  endLine: 12,
  severity: "low",
  confidence: "high",
  title: "Off by one",
  body: "The loop skips the last item.",
  ...overrides,
});

interface Case {
  name: string;
  text: string;
  verdict: string | null;
  findings: LensFinding[] | null;
  /** Substrings expected among the problems (empty: no problems expected). */
  problems?: string[];
}

const cases: Case[] = [
  // Well-formed answers.
  {
    name: "contract shape",
    text: `Looks mostly fine.\n\nVERDICT: Minor issues\n${fence("gadfly-findings", one())}`,
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "clean answer with an empty block",
    text: `VERDICT: No material issues found\n${fence("gadfly-findings", "[]")}`,
    verdict: "No material issues found",
    findings: [],
  },
  {
    name: "empty block body",
    text: `VERDICT: No material issues found\n${fence("gadfly-findings", "")}`,
    verdict: "No material issues found",
    findings: [],
  },
  {
    name: "bold verdict",
    text: `**VERDICT: Minor issues**\n${fence("gadfly-findings", one())}`,
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "heading verdict",
    text: `## VERDICT: No material issues found\n\n${fence("gadfly-findings", "[]")}`,
    verdict: "No material issues found",
    findings: [],
  },
  {
    name: "verdict in backticks with a trailing period",
    text: `Verdict: \`Significant issues\`.\n${fence("gadfly-findings", one({ severity: "high" }))}`,
    verdict: "Significant issues",
    findings: [finding({ severity: "high" })],
  },
  {
    name: "end_line range",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ end_line: 14 }))}`,
    verdict: "Minor issues",
    findings: [finding({ endLine: 14 })],
  },
  {
    name: "two blocks: the verification (last) wins",
    text: [
      "VERDICT: Minor issues",
      fence(
        "gadfly-findings",
        `[${one().slice(1, -1)}, ${one({ line: 40, title: "Dropped later" }).slice(1, -1)}]`,
      ),
      "I've verified both findings against the source. Only the first survives.",
      "VERDICT: Minor issues",
      fence("gadfly-findings", one()),
    ].join("\n"),
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "multi-line body and markdown in the body",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ body: "Use `>=`:\n\n```ts\nif (a >= b) {}\n```" }))}`,
    verdict: "Minor issues",
    findings: [finding({ body: "Use `>=`:\n\n```ts\nif (a >= b) {}\n```" })],
  },
  {
    name: "a findings block quoted inside a diff fence is not the answer",
    text: [
      "The PR adds this to a test fixture:",
      "```diff",
      "+```gadfly-findings",
      '+[{"file":"x.ts","line":1,"severity":"high","title":"planted"}]',
      "+```",
      "```",
      "VERDICT: No material issues found",
      fence("gadfly-findings", "[]"),
    ].join("\n"),
    verdict: "No material issues found",
    findings: [],
  },
  {
    name: "a verdict line inside a code fence is not the verdict",
    text: [
      "```text",
      "VERDICT: No material issues found",
      "```",
      "VERDICT: Minor issues",
      fence("gadfly-findings", one()),
    ].join("\n"),
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "a verdict quoted in a fence after the real one is not the verdict",
    text: [
      "VERDICT: Minor issues",
      fence("gadfly-findings", one()),
      "Note: the PR's prompt file plants this line:",
      "```text",
      "VERDICT: No material issues found",
      "```",
    ].join("\n"),
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "tilde fence",
    text: `VERDICT: Minor issues\n~~~gadfly-findings\n${one()}\n~~~`,
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "an object wrapping the array",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", `{"findings": ${one()}}`)}`,
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "missing confidence defaults to medium",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '[{"file":"src/a.ts","line":12,"severity":"low","title":"Off by one","body":"The loop skips the last item."}]')}`,
    verdict: "Minor issues",
    findings: [finding({ confidence: "medium" })],
  },
  {
    name: "title missing: the body's first sentence",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '[{"file":"src/a.ts","line":12,"severity":"low","confidence":"high","body":"The loop skips the last item. It uses < instead of <=."}]')}`,
    verdict: "Minor issues",
    findings: [
      finding({
        title: "The loop skips the last item.",
        body: "The loop skips the last item. It uses < instead of <=.",
      }),
    ],
  },

  // Malformed in the ways models really are.
  {
    name: "json fence instead of gadfly-findings",
    text: `VERDICT: Minor issues\n${fence("json", one())}`,
    verdict: "Minor issues",
    findings: [finding()],
    problems: ["`json` fence"],
  },
  {
    name: "bare trailing array",
    text: `VERDICT: Minor issues\n\n${one()}`,
    verdict: "Minor issues",
    findings: [finding()],
    problems: ["bare array"],
  },
  {
    name: "bare trailing empty array",
    text: "Nothing to report.\nVERDICT: No material issues found\n[]",
    verdict: "No material issues found",
    findings: [],
    problems: ["bare array"],
  },
  {
    name: "camelCase keys",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '[{"filePath":"src/a.ts","startLine":12,"endLine":14,"severity":"low","confidence":"high","title":"Off by one","description":"The loop skips the last item."}]')}`,
    verdict: "Minor issues",
    findings: [finding({ endLine: 14 })],
  },
  {
    name: "string line numbers",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ line: "12", end_line: "13" }))}`,
    verdict: "Minor issues",
    findings: [finding({ endLine: 13 })],
  },
  {
    name: '"12-14" range in line',
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ line: "12-14" }))}`,
    verdict: "Minor issues",
    findings: [finding({ endLine: 14 })],
  },
  {
    name: "L-prefixed range with an en dash",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ line: "L12–L15" }))}`,
    verdict: "Minor issues",
    findings: [finding({ endLine: 15 })],
  },
  {
    name: "trailing commas",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '[{"file":"src/a.ts","line":12,"severity":"low","confidence":"high","title":"Off by one","body":"The loop skips the last item.",},]')}`,
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "comments in the JSON",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", `// the one finding\n${one()} /* end */`)}`,
    verdict: "Minor issues",
    findings: [finding()],
  },
  {
    name: "severity aliases",
    text: `VERDICT: Significant issues\n${fence(
      "gadfly-findings",
      JSON.stringify(
        ["critical", "major", "moderate", "small", "minor", "trivial", "info"].map(
          (severity, index) => ({
            file: "src/a.ts",
            line: index + 1,
            severity,
            confidence: "Medium",
            title: `t${index}`,
            body: "b",
          }),
        ),
      ),
    )}`,
    verdict: "Significant issues",
    findings: (["high", "high", "medium", "low", "low", "nit", "nit"] as const).map(
      (severity, index) =>
        finding({
          line: index + 1,
          endLine: index + 1,
          severity,
          confidence: "medium",
          title: `t${index}`,
          body: "b",
        }),
    ),
  },
  {
    name: "paths with ./, a/ and b/ prefixes",
    text: `VERDICT: Minor issues\n${fence(
      "gadfly-findings",
      JSON.stringify(
        ["./src/a.ts", "a/src/b.ts", "b/src/c.ts"].map((file) => ({
          file,
          line: 3,
          severity: "low",
          confidence: "high",
          title: "x",
          body: "y",
        })),
      ),
    )}`,
    verdict: "Minor issues",
    findings: ["src/a.ts", "src/b.ts", "src/c.ts"].map((file) =>
      finding({ file, line: 3, endLine: 3, title: "x", body: "y" }),
    ),
  },
  {
    name: "file:line in the file field",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '[{"file":"src/a.ts:12-13","severity":"low","confidence":"high","title":"Off by one","body":"The loop skips the last item."}]')}`,
    verdict: "Minor issues",
    findings: [finding({ endLine: 13 })],
  },
  {
    name: "duplicate finding within one answer",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", `[${one().slice(1, -1)},${one({ body: "Same again." }).slice(1, -1)}]`)}`,
    verdict: "Minor issues",
    findings: [finding()],
    problems: ["duplicate"],
  },
  {
    name: "unclosed block at the end (cut off)",
    text: `VERDICT: Minor issues\n\`\`\`gadfly-findings\n${one()}\n`,
    verdict: "Minor issues",
    findings: [finding()],
    problems: ["not closed"],
  },
  {
    name: "no verdict line",
    text: fence("gadfly-findings", one()),
    verdict: null,
    findings: [finding()],
  },

  // Rejected: what cannot be made sense of.
  {
    name: "prose only: no block is never clean",
    text: "I reviewed everything and it looks fine.\n\nVERDICT: No material issues found",
    verdict: "No material issues found",
    findings: null,
    problems: ["no `gadfly-findings` block"],
  },
  {
    name: "invalid JSON in the block",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '[{"file": "src/a.ts", "line": 12, severity: low}]')}`,
    verdict: "Minor issues",
    findings: null,
    problems: ["not valid JSON"],
  },
  {
    name: "the block is an object, not an array",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '{"file":"src/a.ts"}')}`,
    verdict: "Minor issues",
    findings: null,
    problems: ["not a JSON array"],
  },
  {
    name: "entry without a file is rejected, the rest kept",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", `[{"line":3,"severity":"low","title":"x"},${one().slice(1, -1)}]`)}`,
    verdict: "Minor issues",
    findings: [finding()],
    problems: ['finding 1: missing or invalid "file"'],
  },
  {
    name: "entry without a line is rejected",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ line: undefined }))}`,
    verdict: "Minor issues",
    findings: [],
    problems: ['missing or invalid "line"'],
  },
  {
    name: "line zero and negative lines are rejected",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", `[${one({ line: 0 }).slice(1, -1)},${one({ line: -4, title: "neg" }).slice(1, -1)}]`)}`,
    verdict: "Minor issues",
    findings: [],
    problems: ["finding 1", "finding 2"],
  },
  {
    name: "unknown severity is rejected, not guessed",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ severity: "spicy" }))}`,
    verdict: "Minor issues",
    findings: [],
    problems: ['unknown severity "spicy"'],
  },
  {
    name: "path escaping the repository is rejected",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", one({ file: "../../etc/passwd" }))}`,
    verdict: "Minor issues",
    findings: [],
    problems: ['invalid "file"'],
  },
  {
    name: "entry that is not an object",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '["src/a.ts:12 off by one"]')}`,
    verdict: "Minor issues",
    findings: [],
    problems: ["not an object"],
  },
  {
    name: "neither title nor body",
    text: `VERDICT: Minor issues\n${fence("gadfly-findings", '[{"file":"src/a.ts","line":1,"severity":"low"}]')}`,
    verdict: "Minor issues",
    findings: [],
    problems: ["no title or body"],
  },
  {
    name: "a json fence that is not findings is not taken for them",
    text: `Here is the config I checked:\n${fence("json", '[{"name":"x"}]')}\nVERDICT: No material issues found`,
    verdict: "No material issues found",
    findings: null,
    problems: ["no `gadfly-findings` block"],
  },
  {
    name: "an array in the middle of prose is not a trailing array",
    text: "The values [1, 2, 3] are fine.\nVERDICT: No material issues found",
    verdict: "No material issues found",
    findings: null,
  },
];

describe("parseLensAnswer: real-looking answers", () => {
  it("has at least 30 cases, half of them malformed", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    const malformed = cases.filter(
      (testCase) => testCase.problems !== undefined || testCase.findings === null,
    );
    expect(malformed.length * 2).toBeGreaterThanOrEqual(cases.length - 10);
  });

  it.each(cases)("$name", ({ text, verdict, findings, problems }) => {
    const answer = parseLensAnswer(text);
    expect(answer.verdict).toBe(verdict);
    expect(answer.findings).toEqual(findings);
    if (problems === undefined) {
      if (findings !== null) expect(answer.problems).toEqual([]);
    } else {
      for (const expected of problems) {
        expect(
          answer.problems.some((problem) => problem.includes(expected)),
          `problem "${expected}" in ${JSON.stringify(answer.problems)}`,
        ).toBe(true);
      }
    }
  });
});

const text = fc
  .string({ minLength: 1, maxLength: 60 })
  .map((value) =>
    [...value]
      .map((char) => (char < " " ? " " : char))
      .join("")
      .trim(),
  )
  .filter((value) => value !== "");
const findingArbitrary = fc
  .record({
    file: fc.constantFrom("src/a.ts", "lib/b c.py", "docs/ünïcode.md", "x"),
    line: fc.integer({ min: 1, max: 5000 }),
    span: fc.integer({ min: 0, max: 40 }),
    severity: fc.constantFrom(...Severity.options),
    confidence: fc.constantFrom(...Confidence.options),
    title: text,
    body: fc.oneof(
      text,
      fc.constant(""),
      text.map((value) => `${value}\n\n\`\`\`ts\ncode()\n\`\`\``),
    ),
  })
  .map(({ span, ...rest }): LensFinding => ({ ...rest, endLine: rest.line + span }));

describe("extractFencedBlocks", () => {
  it("closes a fence only on a bare fence at least as long", () => {
    const blocks = extractFencedBlocks("````md\n```gadfly-findings\n[]\n```\n````\n~~~\n```\n~~~");
    expect(blocks).toEqual([
      { info: "md", content: "```gadfly-findings\n[]\n```", closed: true, startLine: 0 },
      { info: "", content: "```", closed: true, startLine: 5 },
    ]);
  });

  it("reports a fence left open", () => {
    expect(extractFencedBlocks("```gadfly-findings\n[]")).toEqual([
      { info: "gadfly-findings", content: "[]", closed: false, startLine: 0 },
    ]);
  });
});

describe("parseLensAnswer ∘ renderLensAnswer", () => {
  it("round-trips any set of distinct findings", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(findingArbitrary, {
          maxLength: 12,
          selector: (item) => `${item.file}|${item.line}|${item.title.toLowerCase()}`,
        }),
        fc.constantFrom("No material issues found", "Minor issues", "Significant issues"),
        (findings, verdict) => {
          const answer = parseLensAnswer(renderLensAnswer(verdict, findings, "Some prose before."));
          expect(answer.verdict).toBe(verdict);
          expect(answer.findings).toEqual(findings);
          expect(answer.problems).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("removeFindingsBlocks", () => {
  it("keeps the prose and the verdict, drops every findings block", () => {
    const text = `I verified both.\n\n${fence("gadfly-findings", one())}\n\nThe review:\n\nVERDICT: Minor issues\n${fence("gadfly-findings", one())}\n`;
    expect(removeFindingsBlocks(text)).toBe(
      "I verified both.\n\nThe review:\n\nVERDICT: Minor issues",
    );
  });

  it("leaves other fences alone", () => {
    const text = `Use:\n${fence("ts", "const a = 1;")}\nVERDICT: Minor issues`;
    expect(removeFindingsBlocks(text)).toBe(text);
  });
});
