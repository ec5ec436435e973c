import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatJson } from "../../src/cli/format-json.js";
import type { ReportMeta } from "../../src/cli/report-meta.js";
import { JsonReport } from "../../src/cli/schema.js";
import type { Consensus } from "../../src/consensus/consensus.js";
import { sampleConsensus } from "../builders/consensus.js";
import { lensFinding } from "../builders/finding.js";
import { crossExaminedConsensus } from "../render/cross-examined-page.js";

const META: ReportMeta = {
  toolVersion: "0.1.0",
  headSha: "WORKTREE-0123456789abcdef0123456789abcdef01234567",
  baseSha: "fedcba9876543210fedcba9876543210fedcba98",
  notReviewed: [
    { path: "package-lock.json", reason: "generated" },
    { path: "logo.png", reason: "binary" },
  ],
};

function withComparison(): Consensus {
  const consensus = sampleConsensus();
  const [first, second] = consensus.clusters;
  if (first === undefined || second === undefined) throw new Error("sample changed");
  return {
    ...consensus,
    comparison: {
      round: 2,
      previousHeadSha: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
      fresh: [second],
      stillOpen: [first],
      fixed: [
        { fingerprint: "fp-gone", title: "Gone", file: "src/b.ts", line: 4, severity: "low" },
      ],
    },
  };
}

describe("formatJson", () => {
  it("validates against the zod schema and its JSON Schema", () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormatsModule.default(ajv);
    const validate = ajv.compile(z.toJSONSchema(JsonReport, { target: "draft-7" }));
    for (const consensus of [sampleConsensus(), withComparison(), crossExaminedConsensus()]) {
      const report = JSON.parse(formatJson(consensus, META)) as unknown;
      expect(JsonReport.safeParse(report).error).toBeUndefined();
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it("carries the verdict, the ranked findings with agreement, the models and what was not reviewed", () => {
    const report = JsonReport.parse(JSON.parse(formatJson(sampleConsensus(), META)));
    expect(report).toMatchObject({
      schemaVersion: 1,
      tool: { name: "gadfly", version: "0.1.0" },
      headSha: META.headSha,
      baseSha: META.baseSha,
      verdict: "Significant issues",
      modelCount: 2,
      notReviewed: META.notReviewed,
      comparison: null,
    });
    expect(
      report.findings.map((finding) => [finding.rank, finding.fingerprint, finding.agreement]),
    ).toEqual([
      [1, "fp-sql", "2/2"],
      [2, "fp-odd", "1/2"],
      [3, "fp-hostile", "1/2"],
    ]);
    const [sql] = report.findings;
    expect(sql).toMatchObject({
      file: "src/db.ts",
      line: 12,
      endLine: 14,
      severity: "high",
      confidence: "high",
      lens: "security",
      lenses: ["security"],
      models: ["a/model", "b/model"],
      title: "SQL built from user input",
    });
    expect(sql?.members.map((member) => [member.model, member.line])).toEqual([
      ["a/model", 12],
      ["b/model", 13],
    ]);
    expect(report.models.map((model) => [model.id, model.verdict, model.lenses.length])).toEqual([
      ["a/model", "Significant issues", 2],
      ["b/model", "Significant issues", 2],
      ["c/model", null, 2],
    ]);
    expect(report.models[1]?.lenses[1]).toMatchObject({
      lens: "correctness",
      outcome: "failed",
      verdict: null,
      failure: "timed out after 900 s",
    });
    expect(report.models[0]?.lenses[0]?.dropped).toEqual([
      lensFinding({ title: "Dropped by verify" }),
    ]);
  });

  it("counts a confirmation on cross-examination as agreement and says who refuted a disputed finding", () => {
    const report = JsonReport.parse(JSON.parse(formatJson(crossExaminedConsensus(), META)));
    const byFingerprint = new Map(report.findings.map((finding) => [finding.fingerprint, finding]));
    const confirmed = byFingerprint.get("fp-closer-regex");
    expect(confirmed).toMatchObject({
      models: ["kimi-k2.6:cloud"],
      confirmedBy: ["claude-code/opus"],
      agreement: `2/${report.modelCount}`,
      disputed: false,
    });
    expect(confirmed?.challenges).toEqual([
      {
        model: "claude-code/opus",
        verdict: "confirm",
        reason: "MatchString accepts any prefix: `Citations are logged.and more` matches.",
        checked: "agent/finalize.go:139",
      },
    ]);
    const disputed = byFingerprint.get("fp-closer-discarded");
    expect(disputed).toMatchObject({ confirmedBy: [], disputed: true });
    expect(disputed?.agreement).toBe(`1/${report.modelCount}`);
    expect(disputed?.challenges.map((answer) => [answer.model, answer.verdict])).toEqual([
      ["claude-code/sonnet", "refute"],
      ["kimi-k2.6:cloud", "refute"],
      ["glm-5.2:cloud", "unsure"],
    ]);
    const unchallenged = report.findings.find((finding) => finding.models.length > 1);
    expect(unchallenged).toMatchObject({ confirmedBy: [], disputed: false, challenges: [] });
  });

  it("lists a comparison by fingerprint", () => {
    const report = JsonReport.parse(JSON.parse(formatJson(withComparison(), META)));
    expect(report.comparison).toEqual({
      round: 2,
      previousHeadSha: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
      fresh: ["fp-odd"],
      stillOpen: ["fp-sql"],
      fixed: [
        {
          fingerprint: "fp-gone",
          title: "Gone",
          file: "src/b.ts",
          line: 4,
          severity: "low",
          url: null,
        },
      ],
    });
  });

  it("never passes through fields the schema does not define", () => {
    const consensus = sampleConsensus();
    const model = consensus.models[0];
    const report = model?.lenses[0];
    if (report === undefined) throw new Error("sample changed");
    Object.assign(report, { apiKey: "sk-secret" });
    Object.assign(report.findings[0] ?? {}, { internal: true });
    const text = formatJson(consensus, META);
    expect(text).not.toContain("sk-secret");
    expect(JsonReport.safeParse(JSON.parse(text)).success).toBe(true);
  });

  it("is stable: two-space JSON, a final newline, the same bytes for the same input", () => {
    const text = formatJson(sampleConsensus(), META);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.split("\n")[1]).toBe('  "schemaVersion": 1,');
    expect(formatJson(sampleConsensus(), META)).toBe(text);
  });

  it("is documented: json-report.md names every field of the schema", () => {
    const documentation = readFileSync(
      new URL("../../src/cli/json-report.md", import.meta.url),
      "utf8",
    );
    const names = new Set<string>();
    collectPropertyNames(z.toJSONSchema(JsonReport), names);
    const missing = [...names].filter((name) => !documentation.includes(`\`${name}\``));
    expect(missing).toEqual([]);
    expect(names.size).toBeGreaterThan(30);
  });
});

function collectPropertyNames(schema: unknown, names: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const item of schema) collectPropertyNames(item, names);
    return;
  }
  if (schema === null || typeof schema !== "object") return;
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  if (properties !== undefined) for (const name of Object.keys(properties)) names.add(name);
  for (const value of Object.values(schema)) collectPropertyNames(value, names);
}
