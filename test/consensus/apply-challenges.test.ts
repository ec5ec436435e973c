import { describe, expect, it } from "vitest";
import {
  agreementOf,
  applyChallenges,
  type ChallengeResult,
} from "../../src/consensus/apply-challenges.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { selectInline } from "../../src/consensus/select-inline.js";
import { lensFinding } from "../builders/finding.js";
import { lensReport } from "../builders/lens-report.js";

const answer = (
  model: string,
  verdict: ChallengeResult["verdict"],
  fingerprint: string,
): ChallengeResult => ({
  fingerprint,
  model,
  verdict,
  reason: `${model} says ${verdict}`,
  checked: "src/db.js:7",
});

function loneClusters() {
  const consensus = buildConsensus({
    reports: [
      lensReport({
        model: "alpha",
        lens: "security",
        findings: [
          lensFinding({
            file: "src/db.js",
            line: 7,
            severity: "medium",
            title: "SQL injection in findUser",
          }),
        ],
      }),
      lensReport({ model: "beta", lens: "security", findings: [] }),
      lensReport({ model: "gamma", lens: "security", findings: [] }),
    ],
    modelOrder: ["alpha", "beta", "gamma"],
    lensOrder: ["security"],
    providers: { alpha: "p", beta: "p", gamma: "p" },
  });
  return consensus.clusters;
}

describe("applyChallenges", () => {
  it("counts a confirmation as agreement, once per model, never the reporter's own", () => {
    const [cluster] = loneClusters();
    if (cluster === undefined) throw new Error("no cluster");
    const [applied] = applyChallenges(
      [cluster],
      [
        answer("beta", "confirm", cluster.fingerprint),
        answer("beta", "confirm", cluster.fingerprint),
        answer("alpha", "confirm", cluster.fingerprint),
      ],
    );
    expect(applied?.confirmedBy).toEqual(["beta"]);
    expect(applied && agreementOf(applied)).toBe(2);
    expect(applied?.disputed).toBe(false);
    // Agreed after cross-examination: the default policy puts it inline.
    const selection = selectInline(applied ? [applied] : [], {
      inline: "agreed",
      minSeverity: "nit",
      maxInline: 30,
    });
    expect(selection.selected).toHaveLength(1);
  });

  it("marks a finding refuted by a majority of its challengers disputed; unsure counts neither way", () => {
    const [cluster] = loneClusters();
    if (cluster === undefined) throw new Error("no cluster");
    const refuted = applyChallenges(
      [{ ...cluster, severity: "high" }],
      [
        answer("beta", "refute", cluster.fingerprint),
        answer("gamma", "refute", cluster.fingerprint),
      ],
    )[0];
    expect(refuted).toMatchObject({ disputed: true, confirmedBy: [] });
    const policy = { inline: "agreed", minSeverity: "nit", maxInline: 30 } as const;
    // A lone high that the others refuted does not speak inline.
    expect(selectInline(refuted ? [refuted] : [], policy).counts.disputed).toBe(1);

    const split = applyChallenges(
      [cluster],
      [
        answer("beta", "refute", cluster.fingerprint),
        answer("gamma", "unsure", cluster.fingerprint),
      ],
    )[0];
    expect(split?.disputed).toBe(false);
    expect(applyChallenges([cluster], [])[0]).toBe(cluster);
  });

  it("is applied by buildConsensus from the round's challenges", () => {
    const [cluster] = loneClusters();
    if (cluster === undefined) throw new Error("no cluster");
    const consensus = buildConsensus({
      reports: [
        lensReport({
          model: "alpha",
          lens: "security",
          findings: [
            lensFinding({
              file: "src/db.js",
              line: 7,
              severity: "medium",
              title: "SQL injection in findUser",
            }),
          ],
        }),
      ],
      modelOrder: ["alpha", "beta"],
      lensOrder: ["security"],
      providers: { alpha: "p", beta: "p" },
      challenges: [answer("beta", "confirm", cluster.fingerprint)],
    });
    expect(consensus.clusters[0]?.confirmedBy).toEqual(["beta"]);
  });

  it("ranks a finding confirmed on challenge with the agreed ones", () => {
    const lone = lensFinding({
      file: "src/a.js",
      line: 30,
      severity: "medium",
      title: "Unbounded retry loop",
    });
    const shared = lensFinding({
      file: "src/b.js",
      line: 5,
      severity: "low",
      title: "Magic number 86400",
    });
    const high = lensFinding({
      file: "src/c.js",
      line: 9,
      severity: "high",
      title: "Token logged in plain text",
    });
    const input = {
      reports: [
        lensReport({ model: "alpha", lens: "security", findings: [lone, shared] }),
        lensReport({ model: "beta", lens: "security", findings: [shared, high] }),
        lensReport({ model: "gamma", lens: "security", findings: [] }),
      ],
      modelOrder: ["alpha", "beta", "gamma"],
      lensOrder: ["security"],
      providers: { alpha: "p", beta: "p", gamma: "p" },
    };
    const before = buildConsensus(input).clusters;
    expect(before.map((cluster) => cluster.representative.title)).toEqual([
      "Magic number 86400",
      "Token logged in plain text",
      "Unbounded retry loop",
    ]);
    const loneFingerprint = before[2]?.fingerprint ?? "";
    const after = buildConsensus({
      ...input,
      challenges: [answer("gamma", "confirm", loneFingerprint)],
    }).clusters;
    expect(after.map((cluster) => cluster.representative.title)).toEqual([
      "Unbounded retry loop",
      "Magic number 86400",
      "Token logged in plain text",
    ]);
  });
});
