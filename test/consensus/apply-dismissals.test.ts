import { describe, expect, it } from "vitest";
import { applyDismissals } from "../../src/consensus/apply-dismissals.js";
import type { Consensus } from "../../src/consensus/index.js";
import { selectInline } from "../../src/consensus/select-inline.js";
import { renderConsensusComment } from "../../src/render/index.js";
import { cluster } from "../builders/consensus.js";
import { makeFinding } from "../builders/finding.js";

const timing = cluster("fp-timing", [
  makeFinding({ model: "a", file: "src/auth.ts", title: "Token compared with == leaks timing" }),
  makeFinding({ model: "b", file: "src/auth.ts", title: "Token compared with == leaks timing" }),
]);
const nan = cluster("fp-nan", [
  makeFinding({ model: "a", file: "src/retry.ts", title: "Retries parse to NaN when unset" }),
  makeFinding({ model: "b", file: "src/retry.ts", title: "Retries parse to NaN when unset" }),
]);
const consensus: Consensus = {
  models: [],
  modelCount: 2,
  verdict: "Significant issues",
  clusters: [timing, nan],
  comparison: null,
};

describe("applyDismissals", () => {
  it("marks a finding dismissed on the PR: kept in the consensus, never selected inline", () => {
    const applied = applyDismissals(consensus, {
      here: new Map([["fp-timing", { by: "maintainer", kind: "dismiss" as const }]]),
      elsewhere: [],
    });
    expect(applied.clusters.map((entry) => [entry.fingerprint, entry.dismissed])).toEqual([
      ["fp-timing", { by: "maintainer", kind: "dismiss" }],
      ["fp-nan", undefined],
    ]);
    const selection = selectInline(applied.clusters, {
      inline: "all",
      minSeverity: "nit",
      maxInline: 30,
    });
    expect(selection.selected.map((entry) => entry.fingerprint)).toEqual(["fp-nan"]);
    expect(selection.heldBack).toEqual([]);
    expect(applied.heldBackByDismissals).toBeUndefined();
  });

  it("holds back a finding like one dismissed elsewhere in the repository, and counts it", () => {
    const applied = applyDismissals(consensus, {
      here: new Map(),
      elsewhere: [{ file: "src/session.ts", title: "Token compared with `==` leaks timing" }],
    });
    expect(applied.clusters.map((entry) => entry.fingerprint)).toEqual(["fp-nan"]);
    expect(applied.heldBackByDismissals).toBe(1);
    // A dismissal on this PR wins: the finding is shown as dismissed, not held back.
    const both = applyDismissals(consensus, {
      here: new Map([["fp-timing", { by: "lead", kind: "false_positive" as const }]]),
      elsewhere: [{ file: "src/session.ts", title: "Token compared with `==` leaks timing" }],
    });
    expect(both.clusters.map((entry) => entry.fingerprint)).toEqual(["fp-timing", "fp-nan"]);
    expect(both.heldBackByDismissals).toBeUndefined();
  });

  it("is published: who dismissed it (mention defused) and how many were held back", () => {
    const applied = applyDismissals(consensus, {
      here: new Map([["fp-nan", { by: "maintainer", kind: "false_positive" as const }]]),
      elsewhere: [{ file: "src/session.ts", title: "Token compared with `==` leaks timing" }],
    });
    const body = renderConsensusComment(applied).body;
    expect(body).toContain("false positive per @\u200Dmaintainer");
    expect(body).toContain("1 finding held back by earlier dismissals");
    expect(body).not.toContain("leaks timing");
  });
});
