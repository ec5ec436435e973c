import { describe, expect, it } from "vitest";
import type { Cluster } from "../../src/consensus/cluster.js";
import { type InlinePolicy, selectInline } from "../../src/consensus/select-inline.js";
import type { Severity } from "../../src/findings/index.js";
import { cluster } from "../builders/consensus.js";
import { makeFinding } from "../builders/finding.js";

const DEFAULT: InlinePolicy = { inline: "agreed", minSeverity: "nit", maxInline: 30 };

/** A cluster of `severity` reported by `models` (one finding each). */
function found(id: string, severity: Severity, models: string[]): Cluster {
  return cluster(
    id,
    models.map((model) => makeFinding({ model, severity, title: id })),
  );
}

const ids = (clusters: readonly Cluster[]) => clusters.map((entry) => entry.fingerprint);

const agreedNit = found("agreed-nit", "nit", ["a", "b"]);
const agreedMedium = found("agreed-medium", "medium", ["a", "b", "c"]);
const loneHigh = found("lone-high", "high", ["a"]);
const loneMedium = found("lone-medium", "medium", ["b"]);
const loneLow = found("lone-low", "low", ["c"]);
const loneNit = found("lone-nit", "nit", ["a"]);
const ranked = [agreedMedium, loneHigh, agreedNit, loneMedium, loneLow, loneNit];

describe("selectInline", () => {
  it("by default: what two models agree on at any severity, and a lone high", () => {
    const selection = selectInline(ranked, DEFAULT);
    expect(ids(selection.selected)).toEqual(["agreed-medium", "lone-high", "agreed-nit"]);
    expect(
      selection.heldBack.map(({ cluster: held, reason }) => [held.fingerprint, reason]),
    ).toEqual([
      ["lone-medium", "lone"],
      ["lone-low", "lone"],
      ["lone-nit", "lone"],
    ]);
    expect(selection.counts).toEqual({
      off: 0,
      belowSeverity: 0,
      lone: 3,
      disputed: 0,
      overCap: 0,
    });
  });

  it("`all` selects every cluster, as before the policy", () => {
    const selection = selectInline(ranked, { ...DEFAULT, inline: "all" });
    expect(ids(selection.selected)).toEqual(ids(ranked));
    expect(selection.heldBack).toEqual([]);
    expect(selection.counts).toEqual({
      off: 0,
      belowSeverity: 0,
      lone: 0,
      disputed: 0,
      overCap: 0,
    });
  });

  it("`off` selects none and counts every cluster as off", () => {
    const selection = selectInline(ranked, { ...DEFAULT, inline: "off" });
    expect(selection.selected).toEqual([]);
    expect(selection.counts).toEqual({
      off: 6,
      belowSeverity: 0,
      lone: 0,
      disputed: 0,
      overCap: 0,
    });
  });

  it("minSeverity holds back what is below it, agreed or not, before the agreement rule", () => {
    const selection = selectInline(ranked, { ...DEFAULT, minSeverity: "medium" });
    expect(ids(selection.selected)).toEqual(["agreed-medium", "lone-high"]);
    expect(selection.counts).toEqual({
      off: 0,
      belowSeverity: 3,
      lone: 1,
      disputed: 0,
      overCap: 0,
    });
    const high = selectInline(ranked, { ...DEFAULT, inline: "all", minSeverity: "high" });
    expect(ids(high.selected)).toEqual(["lone-high"]);
    expect(high.counts.belowSeverity).toBe(5);
  });

  it("maxInline takes the best ranked first and counts the rest as over the cap", () => {
    const selection = selectInline(ranked, { ...DEFAULT, maxInline: 2 });
    expect(ids(selection.selected)).toEqual(["agreed-medium", "lone-high"]);
    expect(selection.counts).toEqual({
      off: 0,
      belowSeverity: 0,
      lone: 3,
      disputed: 0,
      overCap: 1,
    });
    expect(selectInline(ranked, { ...DEFAULT, inline: "all", maxInline: 0 }).counts).toEqual({
      off: 0,
      belowSeverity: 0,
      lone: 0,
      disputed: 0,
      overCap: 6,
    });
  });

  it("a cluster that cannot be placed is selected, to be listed, but takes no slot", () => {
    const selection = selectInline(ranked, DEFAULT, {
      placeable: (entry) => entry !== agreedMedium,
    });
    expect(ids(selection.selected)).toEqual(["agreed-medium", "lone-high", "agreed-nit"]);
    const capped = selectInline(
      ranked,
      { ...DEFAULT, maxInline: 1 },
      { placeable: (entry) => entry !== agreedMedium },
    );
    expect(ids(capped.selected)).toEqual(["agreed-medium", "lone-high"]);
    expect(capped.counts.overCap).toBe(1);
  });

  it("agreement is pluggable: a confirmation counted elsewhere makes a lone finding agreed", () => {
    const confirmed = new Set(["lone-nit"]);
    const selection = selectInline(ranked, DEFAULT, {
      agreement: (entry) => entry.models.length + (confirmed.has(entry.fingerprint) ? 1 : 0),
    });
    expect(ids(selection.selected)).toEqual([
      "agreed-medium",
      "lone-high",
      "agreed-nit",
      "lone-nit",
    ]);
    expect(selection.counts.lone).toBe(2);
  });

  it("one model reporting a problem through two lenses is still one model", () => {
    const twoLenses = cluster("two-lenses", [
      makeFinding({ model: "a", lens: "security", severity: "medium" }),
      makeFinding({ model: "a", lens: "correctness", severity: "medium" }),
    ]);
    expect(selectInline([twoLenses], DEFAULT).counts.lone).toBe(1);
  });

  it("never selects and holds back the same cluster; every cluster is accounted for", () => {
    for (const policy of [
      DEFAULT,
      { ...DEFAULT, inline: "all" as const, maxInline: 3 },
      { inline: "agreed" as const, minSeverity: "low" as const, maxInline: 1 },
    ]) {
      const selection = selectInline(ranked, policy);
      const counted = Object.values(selection.counts).reduce((sum, count) => sum + count, 0);
      expect(selection.selected.length + counted).toBe(ranked.length);
      expect(selection.heldBack).toHaveLength(counted);
    }
  });
});
