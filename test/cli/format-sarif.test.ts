import type { Log, Result } from "sarif";
import { describe, expect, it } from "vitest";
import { formatSarif } from "../../src/cli/format-sarif.js";
import type { ReportMeta } from "../../src/cli/report-meta.js";
import { sampleConsensus } from "../builders/consensus.js";
import { sarifValidator } from "../cli-e2e/sarif-validator.js";
import { crossExaminedConsensus } from "../render/cross-examined-page.js";

/** The official SARIF 2.1.0 schema; throws with the errors when the value does not conform. */
function validateSarif(): (value: unknown) => boolean {
  const validate = sarifValidator();
  return (value) => {
    const { valid, errors } = validate(value);
    if (!valid) throw new Error(JSON.stringify(errors, null, 2));
    return valid;
  };
}

const META: ReportMeta = {
  toolVersion: "0.1.0",
  headSha: "0123456789abcdef0123456789abcdef01234567",
  baseSha: "fedcba9876543210fedcba9876543210fedcba98",
  notReviewed: [{ path: "package-lock.json", reason: "generated" }],
};

function parse(text: string): Log {
  return JSON.parse(text) as Log;
}

function results(log: Log): Result[] {
  return log.runs[0]?.results ?? [];
}

describe("formatSarif", () => {
  const validate = validateSarif();

  it("validates against the official SARIF 2.1.0 schema", () => {
    expect(validate(parse(formatSarif(sampleConsensus(), META)))).toBe(true);
    expect(
      validate(parse(formatSarif(sampleConsensus(), { ...META, sourceRoot: "/home/me/repo" }))),
    ).toBe(true);
    const empty = {
      ...sampleConsensus(),
      clusters: [],
      verdict: "No material issues found" as const,
    };
    expect(validate(parse(formatSarif(empty, META)))).toBe(true);
  });

  it("rejects what the schema forbids (the validator is not a no-op)", () => {
    const log = parse(formatSarif(sampleConsensus(), META)) as unknown as {
      runs: { results: { level: string }[] }[];
    };
    const first = log.runs[0]?.results[0];
    if (first !== undefined) first.level = "critical";
    expect(() => validate(log)).toThrow(/level/);
  });

  it("has one rule per lens, configured lenses first, and results pointing at them", () => {
    const log = parse(formatSarif(sampleConsensus(), META));
    const driver = log.runs[0]?.tool.driver;
    expect(driver?.name).toBe("Gadfly");
    expect(driver?.version).toBe("0.1.0");
    expect(driver?.rules?.map((rule) => [rule.id, rule.shortDescription?.text])).toEqual([
      ["security", "Security"],
      ["correctness", "Correctness"],
      ["naming", "Naming"],
    ]);
    for (const result of results(log)) {
      expect(driver?.rules?.[result.ruleIndex ?? -1]?.id).toBe(result.ruleId);
    }
  });

  it("maps severity to level and carries agreement, models and the fingerprint", () => {
    const [sql, odd, hostile] = results(parse(formatSarif(sampleConsensus(), META)));
    expect([sql?.level, odd?.level, hostile?.level]).toEqual(["error", "warning", "note"]);
    expect(sql?.ruleId).toBe("security");
    expect(sql?.message.text).toBe("SQL built from user input (flagged by 2/2 models)");
    expect(sql?.partialFingerprints).toEqual({ "gadflyFingerprint/v1": "fp-sql" });
    expect(sql?.properties).toMatchObject({ agreement: "2/2", models: ["a/model", "b/model"] });
    expect(odd?.message.text).toContain("1/2");
  });

  it("counts confirmations on cross-examination and lowers a disputed finding to a note", () => {
    const log = parse(formatSarif(crossExaminedConsensus(), META));
    expect(validateSarif()(log)).toBe(true);
    const byFingerprint = new Map(
      results(log).map((result) => [result.partialFingerprints?.["gadflyFingerprint/v1"], result]),
    );
    const confirmed = byFingerprint.get("fp-closer-regex");
    expect(confirmed?.message.text).toMatch(
      /\(flagged by 1\/\d models, confirmed by claude-code\/opus\)$/,
    );
    expect(confirmed?.properties).toMatchObject({
      confirmedBy: ["claude-code/opus"],
      disputed: false,
    });
    expect(String(confirmed?.properties?.agreement)).toMatch(/^2\//);
    const disputed = byFingerprint.get("fp-closer-discarded");
    expect(disputed?.level).toBe("note");
    expect(disputed?.message.text).toMatch(/disputed on cross-examination\)$/);
    expect(disputed?.properties).toMatchObject({ disputed: true });
  });

  it("locates every result relative to %SRCROOT% with lines from 1 and end ≥ start", () => {
    const log = parse(formatSarif(sampleConsensus(), META));
    const locations = results(log).map((result) => result.locations?.[0]?.physicalLocation);
    expect(locations.map((location) => location?.artifactLocation?.uri)).toEqual([
      "src/db.ts",
      "dir%20with%20space/a%23b%3F.ts",
      "lib/x.ts",
    ]);
    for (const location of locations) {
      const uri = location?.artifactLocation?.uri ?? "";
      expect(uri).not.toMatch(/^[a-z][a-z0-9+.-]*:|^\/|^\.\//i);
      expect(location?.artifactLocation?.uriBaseId).toBe("%SRCROOT%");
      const region = location?.region;
      expect(region?.startLine).toBeGreaterThanOrEqual(1);
      expect(region?.endLine).toBeGreaterThanOrEqual(region?.startLine ?? 1);
    }
    expect(locations[0]?.region).toEqual({ startLine: 12, endLine: 14 });
    // The hostile finding claims lines 7-5: the region is clamped to 7-7.
    expect(locations[2]?.region).toEqual({ startLine: 7, endLine: 7 });
  });

  it("reports failed lenses as notifications and %SRCROOT% when the root is known", () => {
    const run = parse(formatSarif(sampleConsensus(), { ...META, sourceRoot: "/home/me/repo" }))
      .runs[0];
    expect(run?.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: "file:///home/me/repo/" } });
    const notes = run?.invocations?.[0]?.toolExecutionNotifications?.map((n) => n.message.text);
    expect(notes).toEqual([
      "b/model · correctness: failed (timed out after 900 s)",
      "c/model · security: failed (HTTP 401 from the provider)",
      "c/model · correctness: cancelled",
    ]);
    expect(run?.properties?.notReviewed).toEqual([
      { path: "package-lock.json", reason: "generated" },
    ]);
    expect(parse(formatSarif(sampleConsensus(), META)).runs[0]?.originalUriBaseIds).toBeUndefined();
  });

  it("prints the same bytes for the same consensus", () => {
    expect(formatSarif(sampleConsensus(), META)).toBe(formatSarif(sampleConsensus(), META));
  });
});
