import type { Log } from "sarif";
import { describe, expect, it } from "vitest";
import { formatJson } from "../../src/cli/format-json.js";
import { formatSarif } from "../../src/cli/format-sarif.js";
import { formatText } from "../../src/cli/format-text.js";
import type { ReportMeta } from "../../src/cli/report-meta.js";
import { JsonReport } from "../../src/cli/schema.js";
import { suggestionsMarkdown } from "../../src/cli/suggestions-markdown.js";
import type { SuggestionOutcome } from "../../src/suggestions/index.js";
import { sampleConsensus } from "../builders/consensus.js";
import { sarifValidator } from "../cli-e2e/sarif-validator.js";

// The sample's clusters: fp-sql (src/db.ts:12, two models), fp-odd, fp-hostile.
const PASSED: SuggestionOutcome = {
  kind: "passed",
  file: "src/db.ts",
  line: 12,
  endLine: 13,
  lines: ["  const row = db.get(sql, [id]);", "\treturn row;"],
  original: ["  const row = db.get('SELECT ' + id);", "\treturn row;"],
  supporters: ["a/model", "b/model"],
  grammar: "typescript",
};
const FAILED: SuggestionOutcome = {
  kind: "failed",
  file: "./dir with space/a#b?.ts",
  line: 3,
  endLine: 3,
  // Model text: an escape sequence, and a fence that must not close the report's own.
  lines: ["    fixed(\x1b[31m);", "```", "@octocat <img src=x>"],
  original: ["    broken();"],
  supporters: ["a/model"],
  reason: "its indentation does not match the line it replaces (2 spaces, not 4).",
};
const DELETION: SuggestionOutcome = {
  kind: "passed",
  file: "lib/x.ts",
  line: 7,
  endLine: 7,
  lines: [],
  original: ["debugger;"],
  supporters: ["b/model"],
  grammar: "typescript",
};

const SUGGESTIONS = new Map<string, SuggestionOutcome>([
  ["fp-sql", PASSED],
  ["fp-odd", FAILED],
  ["fp-hostile", DELETION],
]);

const META: ReportMeta = {
  toolVersion: "0.1.0",
  headSha: "0123456789abcdef0123456789abcdef01234567",
  baseSha: null,
  notReviewed: [],
  suggestions: SUGGESTIONS,
};

describe("checked suggestions in the CLI's reports", () => {
  it("text: under the explanation, what was checked, the lines out and in with their indentation", () => {
    const text = formatText(sampleConsensus(), {
      color: false,
      notReviewed: [],
      suggestions: SUGGESTIONS,
    });
    const lines = text.split("\n");
    const head = lines.findIndex((line) => line.includes("Suggested change to src/db.ts:12-13"));
    expect(head).toBeGreaterThan(0);
    expect(lines[head]).toContain(
      "(proposed by 2 of 2 models) — checked: it applies to these lines of the head with their indentation, and the file still parses (typescript).",
    );
    // Indented under the finding, each line keeping its own indentation (a tab shown as 2 spaces).
    expect(lines.slice(head + 1, head + 5).map((line) => line.trimStart())).toEqual([
      "-   const row = db.get('SELECT ' + id);",
      "-   return row;",
      "+   const row = db.get(sql, [id]);",
      "+   return row;",
    ]);
    expect(lines[head + 3]).toMatch(/^ {5}\+ {3}const row/);
    const failed = lines.find((line) =>
      line.includes("Proposed change to ./dir with space/a#b?.ts:3"),
    );
    expect(failed).toContain(
      "not offered as a suggestion: its indentation does not match the line it replaces",
    );
    // The model's escape sequence never reaches the terminal.
    expect(text).not.toContain("\x1b");
    expect(text).toContain("+     fixed();");
    expect(lines.some((line) => line.trim() === "(the lines are deleted)")).toBe(true);
  });

  it("text: nothing when no finding proposed one", () => {
    const text = formatText(sampleConsensus(), { color: false, notReviewed: [] });
    expect(text).not.toMatch(/Suggested change|Proposed change/);
  });

  it("json: each finding's suggestion as checked, valid against the schema; null without one", () => {
    const report = JsonReport.parse(JSON.parse(formatJson(sampleConsensus(), META)));
    const byFingerprint = new Map(report.findings.map((finding) => [finding.fingerprint, finding]));
    expect(byFingerprint.get("fp-sql")?.suggestion).toEqual({
      status: "passed",
      file: "src/db.ts",
      line: 12,
      endLine: 13,
      lines: PASSED.lines,
      original: PASSED.original,
      supporters: ["a/model", "b/model"],
      grammar: "typescript",
      note: null,
    });
    expect(byFingerprint.get("fp-odd")?.suggestion).toMatchObject({
      status: "failed",
      grammar: null,
      note: FAILED.kind === "failed" ? FAILED.reason : "",
    });
    const without = JsonReport.parse(
      JSON.parse(formatJson(sampleConsensus(), { ...META, suggestions: new Map() })),
    );
    expect(without.findings.map((finding) => finding.suggestion)).toEqual([null, null, null]);
    expect(without.summary).toBeNull();
  });

  it("json: the summary as written, or why it is unavailable", () => {
    const written = JsonReport.parse(
      JSON.parse(
        formatJson(
          {
            ...sampleConsensus(),
            summary: {
              state: "written",
              model: "a/model",
              lines: ["Adds a lookup."],
              groups: [{ label: "Data access", files: ["src/db.ts"] }],
              verdictLinesDropped: 1,
            },
          },
          META,
        ),
      ),
    );
    expect(written.summary).toEqual({
      state: "written",
      model: "a/model",
      lines: ["Adds a lookup."],
      groups: [{ label: "Data access", files: ["src/db.ts"] }],
      verdictLinesDropped: 1,
    });
    const unavailable = JsonReport.parse(
      JSON.parse(
        formatJson(
          {
            ...sampleConsensus(),
            summary: { state: "unavailable", model: null, reason: "the budget was reached" },
          },
          META,
        ),
      ),
    );
    expect(unavailable.summary).toEqual({
      state: "unavailable",
      model: null,
      reason: "the budget was reached",
    });
  });

  it("sarif: a passed replacement is the result's fix; a failed one and a deletion are none", () => {
    const log = JSON.parse(formatSarif(sampleConsensus(), META)) as Log;
    const validation = sarifValidator()(log);
    expect(validation.errors).toEqual([]);
    const results = log.runs[0]?.results ?? [];
    const fixed = results.find(
      (result) => result.partialFingerprints?.["gadflyFingerprint/v1"] === "fp-sql",
    );
    expect(fixed?.fixes).toEqual([
      {
        description: {
          text: "Suggested change, proposed by 2 models and checked against the head",
        },
        artifactChanges: [
          {
            artifactLocation: { uri: "src/db.ts", uriBaseId: "%SRCROOT%" },
            replacements: [
              {
                deletedRegion: { startLine: 12, endLine: 13 },
                insertedContent: { text: "  const row = db.get(sql, [id]);\n\treturn row;" },
              },
            ],
          },
        ],
      },
    ]);
    const others = results.filter(
      (result) => result.partialFingerprints?.["gadflyFingerprint/v1"] !== "fp-sql",
    );
    expect(others).toHaveLength(2);
    expect(others.map((result) => result.fixes)).toEqual([undefined, undefined]);
  });

  it("markdown: a section of diffs after the consensus, model text escaped and fenced", () => {
    const markdown = suggestionsMarkdown(sampleConsensus().clusters, SUGGESTIONS);
    expect(markdown.startsWith("### Checked suggestions\n\n**1. ")).toBe(true);
    expect(markdown).toContain(
      "src/db.ts:12-13, proposed by 2 of 2 models. ✅ checked: it applies to these lines",
    );
    expect(markdown).toContain("⚠️ not offered as a suggestion: its indentation does not match");
    // The model's ``` line sits inside a longer fence, so it cannot close the block.
    expect(markdown).toContain("````diff\n-    broken();\n+    fixed(");
    expect(markdown).toContain("+```\n+@octocat <img src=x>\n````");
    expect(suggestionsMarkdown(sampleConsensus().clusters, new Map())).toBe("");
  });
});
