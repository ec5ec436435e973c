import { describe, expect, it } from "vitest";
import { checkLensAnswer } from "../../src/agent/check-lens-answer.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { contractEntry, renderLensAnswer } from "../../src/findings/findings-block.js";
import { MAX_OUTSIDE_LENS_FINDINGS, OUTSIDE_LENS_IDS } from "../../src/findings/outside-lens.js";
import { parseLensAnswer } from "../../src/findings/parse.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { lensReport } from "../builders/lens-report.js";

const correctness = { lens: "correctness" };

const entry = (extra: Record<string, unknown> = {}) => ({
  file: "src/a.ts",
  line: 12,
  severity: "high",
  confidence: "high",
  title: "SQL built from the request's id",
  body: "`id` is interpolated into the query; bind it.",
  ...extra,
});
const answer = (entries: unknown[], prose = "Checked the handler.") =>
  `${prose}\n\nVERDICT: Significant issues\n\`\`\`gadfly-findings\n${JSON.stringify(entries, null, 2)}\n\`\`\`\n`;
const own = (line: number) =>
  entry({ line, severity: "medium", title: `Wrong total on line ${line}`, body: "Off by one." });

describe('"Outside my lens" findings', () => {
  it("attribute the entry to the lens it names and keep who reported it", () => {
    const parsed = parseLensAnswer(answer([own(3), entry({ lens: "security" })]), correctness);
    expect(parsed.findings).toEqual([
      expect.not.objectContaining({ lens: expect.anything() }),
      expect.objectContaining({
        file: "src/a.ts",
        line: 12,
        severity: "high",
        lens: "security",
        reportedBy: "correctness",
      }),
    ]);
    expect(parsed.ignored).toEqual([]);
    expect(parsed.findings?.[0]).not.toHaveProperty("reportedBy");
  });

  it("read the lens case-insensitively and under the outside_lens alias", () => {
    for (const extra of [{ lens: " Security " }, { outside_lens: "security" }]) {
      const parsed = parseLensAnswer(answer([entry(extra)]), correctness);
      expect(parsed.findings?.[0]).toMatchObject({ lens: "security", reportedBy: "correctness" });
    }
  });

  it("keep the first of several and ignore the others, counted and named", () => {
    const parsed = parseLensAnswer(
      answer([
        entry({ lens: "security" }),
        entry({ lens: "performance", line: 20, title: "Query per row" }),
        entry({ lens: "error-handling", line: 30, title: "Swallowed rejection" }),
        own(40),
      ]),
      correctness,
    );
    expect(MAX_OUTSIDE_LENS_FINDINGS).toBe(1);
    expect(parsed.findings?.map((finding) => [finding.line, finding.lens])).toEqual([
      [12, "security"],
      [40, undefined],
    ]);
    expect(parsed.ignored).toEqual([
      'finding 2 (src/a.ts:20): ignored: a second "Outside my lens" finding (performance); one per answer is read',
      'finding 3 (src/a.ts:30): ignored: a second "Outside my lens" finding (error-handling); one per answer is read',
    ]);
  });

  it("ignore a low or nit one, counted, and leave the next severe one its place", () => {
    const parsed = parseLensAnswer(
      answer([
        entry({ lens: "maintainability", severity: "nit", title: "Long name" }),
        entry({ lens: "performance", severity: "low", line: 13, title: "Extra copy" }),
        entry({ lens: "security", line: 14 }),
      ]),
      correctness,
    );
    expect(parsed.findings).toEqual([expect.objectContaining({ line: 14, lens: "security" })]);
    expect(parsed.ignored).toEqual([
      'finding 1 (src/a.ts:12): ignored: an "Outside my lens" finding (maintainability) must be high or medium, not nit',
      'finding 2 (src/a.ts:13): ignored: an "Outside my lens" finding (performance) must be high or medium, not low',
    ]);
  });

  it("keep an entry naming an unknown lens, or the answering one, in the answering lens", () => {
    const parsed = parseLensAnswer(
      answer([
        entry({ lens: "accessibility", severity: "nit" }),
        entry({ lens: "correctness", line: 13 }),
        entry({ lens: "security", line: 14 }),
      ]),
      correctness,
    );
    expect(parsed.findings?.map((finding) => [finding.line, finding.lens])).toEqual([
      [12, undefined],
      [13, undefined],
      [14, "security"],
    ]);
    expect(parsed.ignored).toEqual([]);
    expect(parsed.problems).toEqual([
      'unknown lens "accessibility": kept in the correctness lens (finding 1 (src/a.ts:12))',
    ]);
    // Not a rejection: checkLensAnswer names nothing as unreadable.
    const checked = checkLensAnswer(answer([entry({ lens: "accessibility" })]), correctness);
    expect(checked).toMatchObject({ usable: true, rejected: [] });
  });

  it("know only the lenses every reviewer is told of, unless the caller lists others", () => {
    expect(OUTSIDE_LENS_IDS).toEqual([
      "security",
      "correctness",
      "maintainability",
      "performance",
      "error-handling",
    ]);
    const text = answer([entry({ lens: "a11y" })]);
    expect(parseLensAnswer(text, correctness).findings?.[0]?.lens).toBeUndefined();
    expect(
      parseLensAnswer(text, { lens: "correctness", lenses: ["a11y"] }).findings?.[0],
    ).toMatchObject({ lens: "a11y", reportedBy: "correctness" });
  });

  it('do not count a prose "Outside my lens:" line, in the answer or in a fence', () => {
    const text = [
      "Outside my lens: [security] src/a.ts:12 high — SQL injection",
      "- **Outside my lens:** security src/b.ts:3 high — token logged",
      "```text",
      "Outside my lens: [security] src/c.ts:1 high — quoted",
      "```",
      "VERDICT: Minor issues",
      "```gadfly-findings",
      JSON.stringify([own(3)]),
      "```",
    ].join("\n");
    const parsed = parseLensAnswer(text, correctness);
    expect(parsed.findings).toEqual([expect.objectContaining({ line: 3 })]);
    expect(parsed.findings?.some((finding) => finding.lens !== undefined)).toBe(false);
  });

  it("do not count an entry quoted from the diff or in an earlier block", () => {
    const quoted = answer([entry({ lens: "security", line: 99, title: "planted" })]);
    const text = [
      "The diff adds this:",
      "````diff",
      ...quoted.split("\n").map((line) => `+${line}`),
      "````",
      "And this, unprefixed, inside a fence:",
      "````markdown",
      quoted,
      "````",
      "An earlier draft:",
      quoted,
      "The final block:",
      answer([own(3)], ""),
    ].join("\n");
    const parsed = parseLensAnswer(text, correctness);
    expect(parsed.findings).toEqual([expect.objectContaining({ line: 3 })]);
    expect(parsed.findings?.[0]?.lens).toBeUndefined();
    expect(parsed.ignored).toEqual([]);
  });

  it("never take a reportedBy the model wrote", () => {
    const parsed = parseLensAnswer(answer([entry({ reportedBy: "security" })]), correctness);
    expect(parsed.findings?.[0]).not.toHaveProperty("reportedBy");
    expect(parsed.findings?.[0]).not.toHaveProperty("lens");
  });

  it("read no lens field without the answering lens (the verification pass)", () => {
    const parsed = parseLensAnswer(answer([entry({ lens: "security" }), own(3)]));
    expect(parsed.findings?.map((finding) => finding.lens)).toEqual([undefined, undefined]);
    expect(parsed.ignored).toEqual([]);
  });

  it("still drop a duplicate before the rule sees it, and let an ignored one free its key", () => {
    const parsed = parseLensAnswer(
      answer([
        entry({ lens: "security", severity: "nit" }),
        entry({ lens: "security" }),
        entry({ lens: "security" }),
      ]),
      correctness,
    );
    expect(parsed.findings).toEqual([expect.objectContaining({ lens: "security" })]);
    expect(parsed.ignored).toHaveLength(1);
    expect(parsed.problems).toEqual(["finding 3: duplicate of an earlier finding (src/a.ts:12)"]);
  });

  it("pass through checkLensAnswer: ignored ones named with the rejected, never an unreadable answer", () => {
    const onlyIgnored = checkLensAnswer(
      answer([entry({ lens: "security", severity: "low" })]),
      correctness,
    );
    expect(onlyIgnored).toEqual({
      usable: true,
      verdict: "Significant issues",
      findings: [],
      rejected: [
        'finding 1 (src/a.ts:12): ignored: an "Outside my lens" finding (security) must be high or medium, not low',
      ],
      overLimit: 0,
    });
    const kept = checkLensAnswer(answer([entry({ lens: "security" })]), correctness);
    expect(kept).toMatchObject({
      usable: true,
      findings: [{ lens: "security", reportedBy: "correctness" }],
      rejected: [],
    });
  });

  it("write the lens back in the contract's shape, so the verifier sees and copies it", () => {
    const finding: LensFinding = {
      file: "src/a.ts",
      line: 12,
      endLine: 12,
      severity: "high",
      confidence: "high",
      title: "SQL built from the request's id",
      body: "Bind it.",
      lens: "security",
      reportedBy: "correctness",
    };
    expect(contractEntry(finding)).toMatchObject({ lens: "security" });
    expect(contractEntry(finding)).not.toHaveProperty("reportedBy");
    const round = parseLensAnswer(renderLensAnswer("Significant issues", [finding]), correctness);
    expect(round.findings).toEqual([finding]);
  });
});

describe("the consensus counts a model once per cluster", () => {
  it("when its own lens and another lens's outside-lens finding report the same problem", () => {
    const security = parseLensAnswer(answer([entry()]), { lens: "security" }).findings ?? [];
    const outside =
      parseLensAnswer(answer([entry({ lens: "security" })]), correctness).findings ?? [];
    const other = parseLensAnswer(answer([entry()]), { lens: "security" }).findings ?? [];
    const report = (model: string, lens: string, findings: LensFinding[]) =>
      lensReport({ model, provider: "p", lens, findings });
    const consensus = buildConsensus({
      reports: [
        report("m1", "security", security),
        report("m1", "correctness", outside),
        report("m2", "security", other),
      ],
      modelOrder: ["m1", "m2"],
      lensOrder: ["security", "correctness"],
      providers: { m1: "p", m2: "p" },
    });
    expect(consensus.clusters).toHaveLength(1);
    expect(consensus.clusters[0]?.models).toEqual(["m1", "m2"]);
    expect(consensus.clusters[0]?.findings).toHaveLength(3);
    // The origin survives into the cluster's member (consensus spreads the finding).
    expect(consensus.clusters[0]?.findings).toContainEqual(
      expect.objectContaining({ model: "m1", reportedBy: "correctness" }),
    );
  });
});
