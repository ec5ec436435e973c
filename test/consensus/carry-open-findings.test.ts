import { describe, expect, it } from "vitest";
import { agreementOf } from "../../src/consensus/apply-challenges.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import { compareRounds } from "../../src/consensus/compare-rounds.js";
import type { PreviousFinding } from "../../src/consensus/consensus.js";
import { makeFinding } from "../builders/finding.js";

const detail = {
  endLine: 12,
  models: ["opus", "kimi"],
  confirmedBy: ["glm"],
  lens: "security",
  confidence: "high" as const,
  body: "The token is compared with `===`.",
};
const token: PreviousFinding = {
  fingerprint: "tok00000000000aa",
  title: "Token compared without constant time",
  file: "src/auth.ts",
  line: 10,
  severity: "high",
  detail,
};
const loop: PreviousFinding = {
  fingerprint: "loop0000000000bb",
  title: "Quadratic loop over files",
  file: "src/scan.ts",
  line: 40,
  severity: "medium",
  detail: { ...detail, models: ["kimi"], confirmedBy: [], lens: "performance" },
};
const old: PreviousFinding = {
  fingerprint: "old00000000000cc",
  title: "Stale cache entry",
  file: "src/cache.ts",
  line: 5,
  severity: "low",
};

describe("carrying open findings into an incremental round", () => {
  it("keeps an unreported finding named in carry open, at its new lines, with its models", () => {
    const compared = compareRounds({
      round: 3,
      previousHeadSha: "abc1234",
      previous: [token, loop],
      clusters: [],
      carry: [{ fingerprint: token.fingerprint, line: 14, endLine: 16 }],
    });
    expect(compared.comparison.fixed).toEqual([loop]);
    expect(compared.comparison.stillOpen).toHaveLength(1);
    const [carried] = compared.clusters;
    expect(carried).toMatchObject({
      fingerprint: token.fingerprint,
      models: ["opus", "kimi"],
      confirmedBy: ["glm"],
      severity: "high",
      carried: { since: 2 },
      representative: {
        file: "src/auth.ts",
        line: 14,
        endLine: 16,
        title: token.title,
        body: detail.body,
        lens: "security",
        model: "opus",
      },
    });
    expect(carried?.findings.map((finding) => finding.model)).toEqual(["opus", "kimi"]);
  });

  it("says a carried finding was re-checked, and keeps the round it was first carried from", () => {
    const compared = compareRounds({
      round: 5,
      previousHeadSha: "abc1234",
      previous: [{ ...token, detail: { ...detail, since: 2 } }],
      clusters: [],
      carry: [{ fingerprint: token.fingerprint, line: 10, endLine: 12, recheck: "confirmed" }],
    });
    expect(compared.clusters[0]?.carried).toEqual({ since: 2, recheck: "confirmed" });
  });

  it("carries a weak merge nobody confirmed as one model's finding, not as agreement", () => {
    const weak: PreviousFinding = {
      ...token,
      detail: { ...detail, confirmedBy: [], unsure: true },
    };
    const compared = compareRounds({
      round: 3,
      previousHeadSha: "abc1234",
      previous: [weak],
      clusters: [],
      carry: [{ fingerprint: token.fingerprint, line: 10, endLine: 12 }],
    });
    const [carried] = compared.clusters;
    expect(carried?.unsure).toBe(true);
    expect(carried === undefined ? null : agreementOf(carried)).toBe(1);
  });

  it("does not carry a finding saved without detail, nor one this round reported again", () => {
    const again = clusterFindings(
      [
        makeFinding({
          file: "src/scan.ts",
          line: 44,
          model: "glm",
          title: "Quadratic loop over files",
        }),
      ],
      { modelOrder: ["glm"] },
    );
    const compared = compareRounds({
      round: 2,
      previousHeadSha: "abc1234",
      previous: [old, loop],
      clusters: again,
      carry: [
        { fingerprint: old.fingerprint, line: 5, endLine: 5 },
        { fingerprint: loop.fingerprint, line: 40, endLine: 40 },
      ],
    });
    expect(compared.comparison.fixed).toEqual([old]);
    expect(compared.clusters).toHaveLength(1);
    expect(compared.clusters[0]?.carried).toBeUndefined();
    expect(compared.comparison.stillOpen.map((cluster) => cluster.fingerprint)).toEqual([
      loop.fingerprint,
    ]);
  });

  it("counts a carried high in the round's verdict and ranks it with this round's findings", () => {
    const consensus = buildConsensus({
      reports: [],
      modelOrder: ["opus", "kimi"],
      lensOrder: ["security"],
      providers: {},
      previous: { headSha: "abc1234", round: 1, findings: [token] },
      carry: [{ fingerprint: token.fingerprint, line: 10, endLine: 12 }],
    });
    expect(consensus.verdict).toBe("Significant issues");
    expect(consensus.clusters.map((cluster) => cluster.fingerprint)).toEqual([token.fingerprint]);
    expect(consensus.comparison?.fixed).toEqual([]);
  });

  it("without carry, an unreported finding is fixed as before", () => {
    const compared = compareRounds({
      round: 2,
      previousHeadSha: "abc1234",
      previous: [token],
      clusters: [],
    });
    expect(compared.comparison.fixed).toEqual([token]);
    expect(compared.clusters).toEqual([]);
  });
});
