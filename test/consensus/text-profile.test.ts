import { describe, expect, it } from "vitest";
import { syntheticFindings } from "../../bench/synthetic-findings.js";
import {
  type ChunkMemo,
  type TextTokens,
  textProfile,
  textTokens,
} from "../../src/consensus/text-profile.js";
import { corpus } from "./corpus/index.js";

const tokens = (title: string, body = "") => [...textProfile({ title, body }).weights.keys()];

describe("textProfile", () => {
  it("reads backticked and camelCase/snake_case names as identifiers", () => {
    const found = tokens("`summaryLead` duplicates citationLabelRe and max_turns");
    expect(found).toEqual(
      expect.arrayContaining(["id:summarylead", "id:citationlabelre", "id:max_turns"]),
    );
  });

  it("gives identifiers more weight than plain words, and title tokens more than body tokens", () => {
    const { weights } = textProfile({ title: "retryCount overflows", body: "connection pool" });
    expect(weights.get("w:connection")).toBeGreaterThan(0);
    expect(weights.get("id:retrycount")).toBeGreaterThan(weights.get("w:connection") ?? 0);
    expect(weights.get("w:overflow")).toBeGreaterThan(weights.get("w:connection") ?? 0);
  });

  it("lets a code identifier meet the same word in prose", () => {
    const code = textProfile({ title: "`marked` output is trusted", body: "" }).weights;
    const prose = textProfile({ title: "output of marked() is trusted", body: "" }).weights;
    expect(code.has("w:mark")).toBe(true);
    expect(prose.has("id:marked")).toBe(true);
  });

  it("keeps code literals whole", () => {
    expect(tokens("class '[\\s>#*_+-]*' is duplicated")).toContain("lit:[\\s>#*_+-]");
  });

  it("keeps status codes and limits, folding thousands separators", () => {
    expect(tokens("Hard-coded 65,536 limit")).toContain("w:65536");
    expect(tokens("Magic number 65536")).toContain("w:65536");
    expect(tokens("Magic number 30")).not.toContain("w:30");
  });

  it("takes file paths and line references out of the text and returns them", () => {
    const profile = textProfile({
      title: "Duplicated class",
      body: "`agent/finalize.go:131` / `:156`, also finalize.go:134,136 and lines 54-55.",
    });
    expect([...profile.weights.keys()].some((token) => token.includes("finalize"))).toBe(false);
    expect(profile.references).toEqual([
      { file: "agent/finalize.go", line: 131, endLine: 131 },
      { file: null, line: 156, endLine: 156 },
      { file: "finalize.go", line: 134, endLine: 134 },
      { file: "finalize.go", line: 136, endLine: 136 },
      { file: null, line: 54, endLine: 55 },
    ]);
  });

  it("reads a sentence caught between unbalanced backticks as prose", () => {
    const found = tokens("t", "`summaryLead = `[x]`` is a byte-for-byte copy of the class in `x`");
    expect(found).not.toContain("id:byte");
    expect(found).toContain("w:byte");
  });

  it("stays fast on pathological input", () => {
    const started = performance.now();
    textProfile({
      title: "a".repeat(100_000),
      body: `${"!".repeat(5_000)}a ${"a/".repeat(5_000)}`,
    });
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("textTokens with a chunk memo", () => {
  const read = (tokens: TextTokens) => ({
    weights: [...tokens.weights],
    references: tokens.references,
  });
  const texts = [
    ...corpus.flatMap((scenario) =>
      scenario.findings.flatMap((finding) => [finding.title, finding.body]),
    ),
    ...syntheticFindings(400, 5, 20, 50).flatMap((finding) => [finding.title, finding.body]),
    // One word read as prose, in a span of several and alone in backticks: three readings.
    "all of the handlers retry forever",
    "`all of the handlers` retry",
    "`all`",
    "retries `cacheKey` and cacheKey() at src/cache.ts:12 and lines 4-9",
  ];

  it("reads every text exactly as without one, weights in the same order, whatever was read before", () => {
    const memo: ChunkMemo = new Map();
    for (const pass of [1, 2]) {
      for (const part of ["title", "body"] as const) {
        for (const text of pass === 1 ? texts : [...texts].reverse()) {
          expect(read(textTokens(text, part, memo))).toEqual(read(textTokens(text, part)));
        }
      }
    }
    // Words repeat across the texts: far fewer chunks were read than the texts hold.
    const chunks = texts.reduce((sum, text) => sum + text.split(/\s+/).length, 0);
    expect(memo.size).toBeLessThan(chunks / 3);
  });

  it("keeps a word read as prose apart from the same word alone in backticks", () => {
    const memo: ChunkMemo = new Map();
    expect(textTokens("all of them", "title", memo).weights.has("id:all")).toBe(false);
    expect(textTokens("`all`", "title", memo).weights.get("id:all")).toBeGreaterThan(0);
  });
});
