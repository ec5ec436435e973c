import { describe, expect, it } from "vitest";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import { ReviewConfig, type SmallStepConfig } from "../../src/config/schema.js";
import { parsePatch } from "../../src/diff/parse-patch.js";
import { assignReviewers } from "../../src/run/assign-reviewers.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import { emptyStepNote, smallStepPlan } from "../../src/run/small-step-plan.js";

const MODELS = ["m1", "m2", "m3", "m4"];
const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];
const SINCE = "abc1234def5678";

/** A file of `added` new lines. */
function file(path: string, added: number) {
  const lines = Array.from({ length: added }, (_, index) => `+line ${index}`);
  return parsePatch(path, `@@ -0,0 +1,${added} @@\n${lines.join("\n")}`);
}

function change(step: ReturnType<typeof file>[] | null, extra: Partial<ChangeSet> = {}): ChangeSet {
  const whole = [file("a.ts", 300), file("b.ts", 300), file("dist/out.js", 50)];
  return {
    title: "t",
    description: "",
    headSha: "fff0000",
    files: whole,
    packedDiff: "",
    included: [],
    notReviewed: [],
    workspaceDir: "/nowhere",
    scope:
      step === null
        ? { kind: "full", reason: "first-round" }
        : { kind: "incremental", since: SINCE, files: step },
    ...extra,
  };
}

function plan(smallStep?: SmallStepConfig): ReviewPlan {
  return {
    models: MODELS.map((id) => ({ id, provider: "p" })),
    lenses: LENSES,
    customLenses: [],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [],
    review: {
      ...ReviewConfig.parse({}),
      ...(smallStep === undefined ? {} : { smallStep }),
    },
  };
}

/** How many lenses each model was given. */
function perModel(assignment: Map<string, string[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const models of assignment.values())
    for (const model of models) counts.set(model, (counts.get(model) ?? 0) + 1);
  return counts;
}

describe("assignReviewers", () => {
  it("is deterministic: the same round deals the same", () => {
    expect(assignReviewers(MODELS, LENSES, 1, 7)).toEqual(assignReviewers(MODELS, LENSES, 1, 7));
    expect(assignReviewers(MODELS, LENSES, 1, 2)).toEqual(
      new Map([
        ["security", ["m3"]],
        ["correctness", ["m4"]],
        ["maintainability", ["m1"]],
        ["performance", ["m2"]],
        ["error-handling", ["m3"]],
      ]),
    );
  });

  it("rotates with the round: over as many rounds as models, every model covers every lens", () => {
    for (const perLens of [1, 2, 3]) {
      const covered = new Map(LENSES.map((lens) => [lens, new Set<string>()]));
      for (let round = 2; round < 2 + MODELS.length; round++) {
        for (const [lens, models] of assignReviewers(MODELS, LENSES, perLens, round))
          for (const model of models) covered.get(lens)?.add(model);
      }
      for (const models of covered.values()) expect([...models].sort()).toEqual(MODELS);
    }
    // Consecutive rounds differ.
    expect(assignReviewers(MODELS, LENSES, 1, 3)).not.toEqual(
      assignReviewers(MODELS, LENSES, 1, 4),
    );
  });

  it("gives each lens distinct models and each model the same number of lenses, give or take one", () => {
    for (const models of [MODELS, ["x", "y"], ["a", "b", "c"], ["solo"]]) {
      for (const perLens of [1, 2, 3]) {
        for (let round = 1; round < 9; round++) {
          const assignment = assignReviewers(models, LENSES, perLens, round);
          const each = Math.min(perLens, models.length);
          for (const assigned of assignment.values()) {
            expect(assigned).toHaveLength(each);
            expect(new Set(assigned).size).toBe(each);
          }
          const counts = [...perModel(assignment).values()];
          const total = LENSES.length * each;
          expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
          expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
          // Every model has work when there are enough slots for all of them.
          if (total >= models.length) expect(counts).toHaveLength(models.length);
        }
      }
    }
  });

  it("lists a lens's models in config order, and gives no one a lens when there are no models", () => {
    expect(assignReviewers(MODELS, ["security"], 2, 3).get("security")).toEqual(["m1", "m4"]);
    expect(assignReviewers([], LENSES, 1, 2).get("security")).toEqual([]);
  });
});

describe("smallStepPlan", () => {
  it("gives a small incremental step one model per lens by default, and says so", () => {
    const step = smallStepPlan(plan(), change([file("a.ts", 10)]), 2);
    expect(step.kind).toBe("small");
    if (step.kind !== "small") return;
    expect(step.lines).toBe(10);
    expect(step.note).toBe("small step (10 lines since abc1234): one model per lens");
    expect([...step.assignment.values()].every((models) => models.length === 1)).toBe(true);
    expect(step.assignment).toEqual(assignReviewers(MODELS, LENSES, 1, 2));
  });

  it("counts only the step's reviewable lines against maxChangedLines (at it: small; above: whole)", () => {
    expect(smallStepPlan(plan(), change([file("a.ts", 200)]), 2).kind).toBe("small");
    expect(smallStepPlan(plan(), change([file("a.ts", 150), file("b.ts", 51)]), 2).kind).toBe(
      "whole",
    );
    const ignored = change([file("a.ts", 150), file("dist/out.js", 51)], {
      notReviewed: [{ path: "dist/out.js", reason: "ignored" }],
    });
    expect(smallStepPlan(plan(), ignored, 2).kind).toBe("small");
    const custom = plan({ maxChangedLines: 20, reviewersPerLens: 2 });
    expect(smallStepPlan(custom, change([file("a.ts", 21)]), 2).kind).toBe("whole");
    const two = smallStepPlan(custom, change([file("a.ts", 1)]), 2);
    expect(two.kind === "small" && two.note).toBe(
      "small step (1 line since abc1234): 2 models per lens",
    );
  });

  it("is off with maxChangedLines 0, for full rounds, and when every model is asked per lens", () => {
    expect(
      smallStepPlan(plan({ maxChangedLines: 0, reviewersPerLens: 1 }), change([file("a.ts", 1)]), 2)
        .kind,
    ).toBe("whole");
    expect(smallStepPlan(plan(), change(null), 2).kind).toBe("whole");
    expect(
      smallStepPlan(
        plan({ maxChangedLines: 200, reviewersPerLens: 4 }),
        change([file("a.ts", 1)]),
        2,
      ).kind,
    ).toBe("whole");
  });

  it("deals no lens to a model the round keeps from the change", () => {
    const skip = new Map([["m2", "not on forks"]]);
    const step = smallStepPlan(plan(), change([file("a.ts", 3)]), 5, skip);
    expect(step.kind === "small" && [...step.assignment.values()].flat()).not.toContain("m2");
    const alone = new Map(["m1", "m2", "m3"].map((id) => [id, "kept out"]));
    expect(smallStepPlan(plan(), change([file("a.ts", 3)]), 5, alone).kind).toBe("whole");
  });

  it("an incremental step with nothing reviewable is empty, whatever maxChangedLines says", () => {
    expect(smallStepPlan(plan(), change([]), 2)).toEqual({ kind: "empty", since: SINCE });
    const onlyIgnored = change([file("dist/out.js", 5)], {
      notReviewed: [{ path: "dist/out.js", reason: "ignored" }],
    });
    expect(
      smallStepPlan(plan({ maxChangedLines: 0, reviewersPerLens: 1 }), onlyIgnored, 2),
    ).toEqual({ kind: "empty", since: SINCE });
    expect(emptyStepNote(SINCE, 3)).toBe(
      "nothing to review since abc1234: 3 open findings carried",
    );
    expect(emptyStepNote(SINCE, 1)).toBe("nothing to review since abc1234: 1 open finding carried");
  });
});
