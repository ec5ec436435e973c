import { describe, expect, it } from "vitest";
import { MAX_CATEGORY_CHARS } from "../../src/eval/format-eval.js";
import { formatEval, type GoldComment, summarizeResults } from "../../src/eval/index.js";
import { scoreCategories } from "../../src/eval/score-categories.js";
import type { EntryResult, ScopeScore } from "../../src/eval/score-entry.js";

const gold = (line: number, category: string | null, side: "left" | "right" = "right") =>
  ({ path: "src/a.ts", side, fromLine: line, toLine: line, category }) satisfies GoldComment;
const at = (line: number) => ({ path: "src/a.ts", line });

function entry(id: string, scores: ScopeScore[]): EntryResult {
  const spend = { inputTokens: 0, outputTokens: 0, costUsd: 0, durationMs: 0 };
  return {
    format: "gadfly-eval-result",
    id,
    url: null,
    status: "reviewed",
    window: 0,
    models: ["m"],
    lenses: ["l"],
    gold: 0,
    scores,
    failedLenses: {},
    spend: { total: spend, models: {} },
  };
}

describe("scoreCategories", () => {
  it("scores each category against its own comments, a hit elsewhere set aside (hand count)", () => {
    // Gold: defect at 10 and 30, security at 20, none at 40. Findings at 10, 20, 50, 60 (window 0).
    // Matching: 10-defect, 20-security; 50 and 60 match nothing.
    // defect: 1 of its 2 comments; found 4 - 1 (the security hit) = 3: P 1/3, R 1/2.
    // security: 1 of 1; found 4 - 1 (the defect hit) = 3.
    // uncategorized (40): 0 of 1; found 4 - 2 = 2.
    const counts = scoreCategories(
      [at(10), at(20), at(50), at(60)],
      [gold(10, "defect"), gold(30, "defect"), gold(20, "security"), gold(40, null)],
      0,
    );
    expect(counts).toEqual([
      { category: "defect", matched: 1, found: 3, gold: 2 },
      { category: "security", matched: 1, found: 3, gold: 1 },
      { category: "uncategorized", matched: 0, found: 2, gold: 1 },
    ]);
  });

  it("uses the one-to-one matching: two findings on one comment are one hit and one false positive", () => {
    expect(scoreCategories([at(10), at(11)], [gold(10, "defect")], 3)).toEqual([
      { category: "defect", matched: 1, found: 2, gold: 1 },
    ]);
  });

  it("has nothing to score without gold comments", () => {
    expect(scoreCategories([at(10)], [], 3)).toEqual([]);
  });

  it("adds categories up over entries, and shows none for a dataset without categories", () => {
    const row = (name: string, matched: number, found: number, count: number): ScopeScore => ({
      kind: "category",
      name,
      matched,
      found,
      gold: count,
    });
    const summary = summarizeResults(
      [
        entry("one", [row("defect", 1, 3, 2), row("uncategorized", 0, 2, 1)]),
        entry("two", [row("defect", 2, 2, 2)]),
      ],
      0,
      null,
    );
    expect(summary.scopes.find((s) => s.name === "defect")).toMatchObject({
      matched: 3,
      found: 5,
      gold: 4,
      precision: 0.6,
      recall: 0.75,
    });
    const plain = summarizeResults([entry("one", [row("uncategorized", 1, 2, 2)])], 0, null);
    expect(plain.scopes.filter((s) => s.kind === "category")).toEqual([]);
  });

  it("prints a hostile category as one bounded cell of text and markdown", () => {
    const hostile = `Defect\n| injected | row |\r\n\u0007\u202e${"x".repeat(500)}`;
    const summary = summarizeResults(
      [entry("one", [{ kind: "category", name: hostile, matched: 1, found: 2, gold: 1 }])],
      0,
      null,
    );
    for (const format of ["text", "markdown"] as const) {
      const out = formatEval(summary, format);
      const rows = out.split("\n").filter((line) => line.includes("consensus · Defect"));
      expect(rows, format).toHaveLength(1);
      expect(out).not.toContain("\u0007");
      expect(out).not.toContain("\u202e");
      expect(out).not.toContain("x".repeat(MAX_CATEGORY_CHARS));
      if (format === "markdown") {
        // Exactly the table's 11 cell borders: the category's pipes are escaped.
        expect(rows[0]?.replaceAll("\\|", "").split("|")).toHaveLength(12);
      }
    }
    // JSON keeps the dataset's text as data.
    expect(JSON.parse(formatEval(summary, "json")).scopes[0].name).toBe(hostile);
  });
});
