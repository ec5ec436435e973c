import { describe, expect, it } from "vitest";
import {
  agreementOf,
  applyChallenges,
  type ChallengeResult,
} from "../../src/consensus/apply-challenges.js";
import { claimsOf } from "../../src/consensus/claims-of.js";
import type { Cluster } from "../../src/consensus/cluster.js";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import type { Finding } from "../../src/consensus/finding.js";
import { selectInline } from "../../src/consensus/select-inline.js";
import { overallVerdict } from "../../src/consensus/verdict.js";
import { planChallenges } from "../../src/run/cross-examine.js";
import { makeFinding } from "../builders/finding.js";
import { corpus } from "./corpus/index.js";

/*
 * Agreement is evidence, not proximity: the linkage rules of link-findings.ts (every member
 * compatible with every other, a model's own findings only as one claim, weak merges unsure)
 * and what an unsure cluster counts for (agreementOf, applyChallenges, planChallenges).
 */

const MODELS = ["opus", "kimi", "glm"];
const POLICY = { inline: "agreed", minSeverity: "low", maxInline: 10 } as const;

const at = (model: string, line: number, title: string, body: string): Finding =>
  makeFinding({ model, line, endLine: line, severity: "medium", title, body });

const together = (clusters: ReturnType<typeof clusterFindings>, a: Finding, b: Finding) =>
  clusters.some((cluster) => cluster.findings.includes(a) && cluster.findings.includes(b));

const scenario = (name: string) => {
  const found = corpus.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`no scenario ${name}`);
  return found;
};

describe("linkage", () => {
  it("never puts two findings that share nothing in one cluster through a bridge resembling both", () => {
    const bound = at(
      "opus",
      10,
      "`retryCount` from the request has no upper bound",
      "A client can send `retryCount=1000000` and the handler loops that many times.",
    );
    const bridge = at(
      "kimi",
      11,
      "`retryCount` has no upper bound and `scheduleRetry` is not awaited",
      "The retry loop trusts `retryCount` from the request, and each `scheduleRetry(delay)` promise is dropped.",
    );
    const awaited = at(
      "glm",
      12,
      "`scheduleRetry` promise is dropped",
      "`scheduleRetry(delay)` is called without await; its rejection is unhandled.",
    );
    const clusters = clusterFindings([bound, bridge, awaited], { modelOrder: MODELS });
    expect(together(clusters, bound, awaited)).toBe(false);
    // The bridge itself joins one side at most.
    expect(together(clusters, bound, bridge) && together(clusters, bridge, awaited)).toBe(false);
  });

  it("merges a model's own two findings only when they are the same claim", () => {
    const cap = scenario("adjacent-lone-neighbours").findings;
    const clusters = clusterFindings(cap, {
      modelOrder: ["claude-code/opus", "kimi-k2.6:cloud", "glm-5.2:cloud"],
    });
    const own = cap.filter((finding) => finding.model === "claude-code/opus");
    // Opus's rounding, clamp and quadratic-lookup findings share `total` and `coupons`, a
    // line or two apart: three claims, three clusters.
    for (const [i, a] of own.entries()) {
      for (const b of own.slice(i + 1)) expect(together(clusters, a, b)).toBe(false);
    }
    // The same claim under two lenses does merge (one model, counted once).
    const token = scenario("held-out-ts-token");
    const timing = clusterFindings(token.findings, { modelOrder: token.modelOrder }).find(
      (cluster) => cluster.findings.some((finding) => finding.title.includes("constant-time")),
    );
    expect(timing?.findings.filter((finding) => finding.model === "claude-code/opus")).toHaveLength(
      2,
    );
  });

  it("marks a weak merge unsure: one row, no agreement, and the lone high beside it is not agreed", () => {
    const lone = scenario("adjacent-lone-neighbours");
    const clusters = clusterFindings(lone.findings, { modelOrder: lone.modelOrder });
    const falseHigh = lone.findings.find((finding) => finding.cluster === "lone-high");
    const high = clusters.find(
      (cluster) => falseHigh !== undefined && cluster.findings.includes(falseHigh),
    );
    expect(high).toBeDefined();
    if (high === undefined) return;
    // Either alone or in an unsure cluster: never agreement before a confirmation.
    expect(high.models.length === 1 || high.unsure === true).toBe(true);
    expect(agreementOf(high)).toBe(1);
  });
});

/** Two models' findings at one line that share a few words: one cluster, marked unsure. */
function weakMerge(): Cluster {
  const [weak, ...rest] = clusterFindings(
    [
      at("opus", 10, "Alpha beta gamma", "Alpha beta gamma delta."),
      at("kimi", 10, "Alpha beta", "Alpha beta epsilon zeta eta theta iota kappa lambda."),
    ],
    { modelOrder: MODELS },
  );
  if (weak === undefined || rest.length > 0) throw new Error("expected one cluster");
  return { ...weak, unsure: true };
}

describe("an unsure cluster", () => {
  const unsure = weakMerge();
  const asked = (
    model: string,
    verdict: ChallengeResult["verdict"],
    fingerprint = unsure.fingerprint,
  ): ChallengeResult => ({
    fingerprint,
    model,
    verdict,
    reason: `${model}: ${verdict}`,
    checked: null,
  });

  it("counts its representative's model only, and is held back like a lone finding", () => {
    expect(unsure.models).toEqual(["opus", "kimi"]);
    expect(agreementOf(unsure)).toBe(1);
    const { unsure: _unsure, ...sure } = unsure;
    expect(agreementOf(sure)).toBe(2);
    expect(selectInline([unsure], POLICY).counts.lone).toBe(1);
  });

  it("puts each model's claim to the others, its other member included, within the same cap", () => {
    const planned = planChallenges([unsure], MODELS, { minSeverity: "low", maxChallenges: 5 });
    const [first, second] = claimsOf(unsure);
    expect(first?.fingerprint).toBe(unsure.fingerprint);
    expect(second?.fingerprint).toBe(`${unsure.fingerprint}~1`);
    expect(planned.map((entry) => `${entry.claim.title} → ${entry.challenger}`).sort()).toEqual([
      "Alpha beta gamma → glm",
      "Alpha beta gamma → kimi",
      "Alpha beta → glm",
      "Alpha beta → opus",
    ]);
    // One claim under a cap of one: the cost is bounded per claim, not per cluster.
    expect(
      new Set(
        planChallenges([unsure], MODELS, { minSeverity: "low", maxChallenges: 1 }).map(
          (entry) => entry.fingerprint,
        ),
      ).size,
    ).toBe(1);
    expect(planChallenges([unsure], MODELS, { minSeverity: "low", maxChallenges: 0 })).toEqual([]);
  });

  it("asks a member whether the other's claim is its own defect; another model only whether it exists", () => {
    const planned = planChallenges([unsure], MODELS, { minSeverity: "low", maxChallenges: 5 });
    expect(
      planned
        .map((entry) => `${entry.claim.title} → ${entry.challenger}: ${entry.own?.title ?? "-"}`)
        .sort(),
    ).toEqual([
      "Alpha beta gamma → glm: -",
      "Alpha beta gamma → kimi: Alpha beta",
      "Alpha beta → glm: -",
      "Alpha beta → opus: Alpha beta gamma",
    ]);
    // A lone finding's question is unchanged: no own claim.
    const { unsure: _unsure, ...sure } = unsure;
    const lone = { ...sure, models: ["opus"], findings: sure.findings.slice(0, 1) };
    const asked = planChallenges([lone], MODELS, { minSeverity: "low", maxChallenges: 5 });
    expect(asked.length).toBe(2);
    expect(asked.every((entry) => entry.own === undefined)).toBe(true);
  });

  it("stays one agreed cluster when each member confirms the other's claim", () => {
    const [opusClaim, kimiClaim] = claimsOf(unsure);
    const settled = applyChallenges(
      [unsure],
      [
        asked("kimi", "confirm", opusClaim?.fingerprint),
        asked("opus", "confirm", kimiClaim?.fingerprint),
        asked("glm", "confirm", opusClaim?.fingerprint),
      ],
    );
    expect(settled).toHaveLength(1);
    expect(settled[0]?.unsure).toBeUndefined();
    expect(settled[0]?.findings).toHaveLength(2);
    expect(settled[0] && agreementOf(settled[0])).toBe(3);
  });

  it("splits into its claims otherwise: a refuted one disputed, the other judged on its own", () => {
    const [opusClaim, kimiClaim] = claimsOf(unsure);
    const settled = applyChallenges(
      [unsure],
      [
        asked("kimi", "refute", opusClaim?.fingerprint),
        asked("glm", "refute", opusClaim?.fingerprint),
        asked("opus", "unsure", kimiClaim?.fingerprint),
        asked("glm", "confirm", kimiClaim?.fingerprint),
      ],
    );
    expect(
      settled.map((cluster) => [cluster.models, cluster.disputed, agreementOf(cluster)]),
    ).toEqual([
      [["opus"], true, 1],
      [["kimi"], false, 2],
    ]);
    expect(settled.map((cluster) => cluster.fingerprint)).toEqual([
      unsure.fingerprint,
      `${unsure.fingerprint}~1`,
    ]);
    const selection = selectInline(settled, POLICY);
    expect(selection.selected.map((cluster) => cluster.models)).toEqual([["kimi"]]);
    expect(selection.counts.disputed).toBe(1);
    // Unanswered, it stays as it was: one row, one model's agreement.
    expect(applyChallenges([unsure], [])).toEqual([unsure]);
  });
});

describe("the verdict counts what stands", () => {
  it("does not let a disputed high raise the verdict", () => {
    const [high] = clusterFindings([
      { ...at("opus", 3, "Token compared with ==", "x"), severity: "high" },
    ]);
    const [low] = clusterFindings([
      { ...at("kimi", 30, "Typo in a log line", "y"), severity: "low" },
    ]);
    if (high === undefined || low === undefined) throw new Error("no cluster");
    expect(overallVerdict([high, low])).toBe("Significant issues");
    expect(overallVerdict([{ ...high, disputed: true }, low])).toBe("Minor issues");
    expect(overallVerdict([{ ...high, disputed: true }])).toBe("No material issues found");
  });
});
