import { describe, expect, it } from "vitest";
import { applyDismissals, type RepositoryDismissal } from "../../src/consensus/apply-dismissals.js";
import type { Cluster, Consensus } from "../../src/consensus/index.js";
import { selectInline } from "../../src/consensus/select-inline.js";
import { renderConsensusComment } from "../../src/render/index.js";
import { cluster } from "../builders/consensus.js";
import { makeFinding } from "../builders/finding.js";

const TIMING = "Token compared with == leaks timing";
const single = (fingerprint: string, overrides: Parameters<typeof makeFinding>[0]): Cluster =>
  cluster(fingerprint, [makeFinding({ model: "a", title: TIMING, ...overrides })]);

const timing = single("fp-timing", { file: "src/auth.ts", line: 10 });
const nan = cluster("fp-nan", [
  makeFinding({ model: "a", file: "src/retry.ts", title: "Retries parse to NaN when unset" }),
  makeFinding({ model: "b", file: "src/retry.ts", title: "Retries parse to NaN when unset" }),
]);
const consensusOf = (clusters: Cluster[]): Consensus => ({
  models: [],
  modelCount: 2,
  verdict: "Minor issues",
  clusters,
  comparison: null,
});
const dismissal = (overrides: Partial<RepositoryDismissal> = {}): RepositoryDismissal => ({
  pullNumber: 7,
  actor: "maintainer",
  kind: "false_positive",
  file: "src/auth.ts",
  line: 9,
  endLine: 11,
  title: "Token compared with `==` leaks timing",
  ...overrides,
});

describe("applyDismissals", () => {
  it("marks a finding dismissed on the PR: kept in the consensus, never selected inline", () => {
    const applied = applyDismissals(consensusOf([timing, nan]), {
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
    expect(applied.heldBackByDismissals).toBeUndefined();
  });

  it("holds back a like finding at the same place, listing the dismissal it matched", () => {
    const applied = applyDismissals(consensusOf([timing, nan]), {
      here: new Map(),
      elsewhere: [dismissal()],
    });
    expect(applied.clusters.map((entry) => entry.fingerprint)).toEqual(["fp-nan"]);
    expect(applied.heldBackByDismissals).toBe(1);
    expect(applied.heldBack).toEqual([
      {
        fingerprint: "fp-timing",
        title: TIMING,
        file: "src/auth.ts",
        line: 10,
        severity: "medium",
        model: "a",
        dismissal: {
          pullNumber: 7,
          actor: "maintainer",
          kind: "false_positive",
          title: "Token compared with `==` leaks timing",
          file: "src/auth.ts",
          line: 9,
        },
      },
    ]);
    // A dismissal on this PR wins: the finding is shown as dismissed, not held back.
    const both = applyDismissals(consensusOf([timing, nan]), {
      here: new Map([["fp-timing", { by: "lead", kind: "false_positive" as const }]]),
      elsewhere: [dismissal()],
    });
    expect(both.clusters.map((entry) => entry.fingerprint)).toEqual(["fp-timing", "fp-nan"]);
    expect(both.heldBackByDismissals).toBeUndefined();
  });

  it("cannot be baited: a sibling file, another place, a high or a multi-model finding stay", () => {
    const sibling = single("fp-sibling", { file: "src/session.ts", line: 10 });
    const elsewhereInFile = single("fp-far", { file: "src/auth.ts", line: 40 });
    const high = single("fp-high", { file: "src/auth.ts", line: 10, severity: "high" });
    const agreed = cluster("fp-agreed", [
      makeFinding({ model: "a", file: "src/auth.ts", line: 10, title: TIMING }),
      makeFinding({ model: "b", file: "src/auth.ts", line: 10, title: TIMING }),
    ]);
    const confirmed: Cluster = {
      ...single("fp-confirmed", { file: "src/auth.ts" }),
      confirmedBy: ["b"],
    };
    const clusters = [sibling, elsewhereInFile, high, agreed, confirmed];
    const applied = applyDismissals(consensusOf(clusters), {
      here: new Map(),
      elsewhere: [dismissal()],
    });
    expect(applied.clusters.map((entry) => entry.fingerprint)).toEqual(
      clusters.map((entry) => entry.fingerprint),
    );
    expect(applied.heldBack).toBeUndefined();
  });

  it("holds back the same normalized code in another file, never a blank context", () => {
    const moved: Cluster = {
      ...single("fp-moved", { file: "lib/other.ts", line: 3 }),
      context: "c1",
    };
    const blank: Cluster = {
      ...single("fp-blank", { file: "lib/blank.ts", line: 3 }),
      context: "",
    };
    const applied = applyDismissals(consensusOf([moved, blank]), {
      here: new Map(),
      elsewhere: [dismissal({ context: "c1" }), dismissal({ file: "x.ts", context: "" })],
    });
    expect(applied.clusters.map((entry) => entry.fingerprint)).toEqual(["fp-blank"]);
  });

  it("is published: who dismissed it (mention defused) and each finding held back, collapsed", () => {
    const applied = applyDismissals(consensusOf([timing, nan]), {
      here: new Map([["fp-nan", { by: "maintainer", kind: "false_positive" as const }]]),
      elsewhere: [dismissal()],
    });
    const body = renderConsensusComment(applied).body;
    expect(body).toContain("false positive per @\u200Dmaintainer");
    expect(body).toContain(
      "<details><summary>🙈 1 finding held back by earlier dismissals in this repository (`learn: repo`)</summary>",
    );
    expect(body).toContain("leaks timing");
    expect(body).toContain("#7");
  });
});
