import { describe, expect, it } from "vitest";
import type { Cluster } from "../../src/consensus/index.js";
import { unplacedToList } from "../../src/github/unplaced-to-list.js";
import type { UnplacedFinding } from "../../src/render/index.js";

function unplaced(fingerprint: string, reason: UnplacedFinding["reason"]): UnplacedFinding {
  const finding = {
    model: "model-a",
    lens: "security",
    title: `Finding ${fingerprint}`,
    file: "src/a.ts",
    line: 1,
    severity: "high",
    body: "…",
  };
  return {
    cluster: {
      fingerprint,
      findings: [finding],
      models: ["model-a"],
      representative: finding,
      severity: "high",
    } as unknown as Cluster,
    reason,
  };
}

describe("unplacedToList", () => {
  it("lists only the unplaceable findings no earlier review listed, in order, each once", () => {
    const outside = unplaced("aaaa", "outside-diff");
    const listedBefore = unplaced("bbbb", "outside-diff");
    const overLimit = unplaced("cccc", "over-limit");

    expect(
      unplacedToList([outside, listedBefore, overLimit, outside], new Set(["bbbb"])).map(
        (entry) => [entry.cluster.fingerprint, entry.reason],
      ),
    ).toEqual([
      ["aaaa", "outside-diff"],
      ["cccc", "over-limit"],
    ]);
  });

  it("lists nothing when every unplaceable finding was listed before, so no review need be posted for them", () => {
    expect(unplacedToList([unplaced("aaaa", "outside-diff")], new Set(["aaaa"]))).toEqual([]);
    expect(unplacedToList([], new Set())).toEqual([]);
  });
});
