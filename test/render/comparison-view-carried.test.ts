import { describe, expect, it } from "vitest";
import type { Cluster } from "../../src/consensus/cluster.js";
import { comparisonView } from "../../src/render/comparison-view.js";
import { makeFinding } from "../builders/finding.js";

const cluster = (carried?: Cluster["carried"]): Cluster => {
  const finding = makeFinding({ file: "src/a.js", line: 4, model: "m", title: "Injection" });
  return {
    fingerprint: "fp",
    findings: [finding],
    models: ["m"],
    representative: finding,
    severity: finding.severity,
    ...(carried === undefined ? {} : { carried }),
  };
};

const notes = (clusters: Cluster[]) =>
  comparisonView(
    { round: 3, previousHeadSha: "abc1234", fresh: [], stillOpen: clusters, fixed: [] },
    1,
    10,
  ).stillOpen.map((row) => row.carried);

describe("still-open rows of an incremental round", () => {
  it("say why a finding nobody reported again is still open", () => {
    expect(
      notes([
        cluster(),
        cluster({ since: 1 }),
        cluster({ since: 2, recheck: "confirmed" }),
        cluster({ since: 2, recheck: "unsure" }),
      ]),
    ).toEqual([
      null,
      "carried from round 1: the push left its lines alone",
      "the push changed its lines; re-checked: still there",
      "the push changed its lines; not confirmed fixed, so kept open",
    ]);
  });
});
