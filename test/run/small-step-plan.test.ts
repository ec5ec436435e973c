import { describe, expect, it } from "vitest";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import { ReviewConfig, type SmallStepConfig } from "../../src/config/schema.js";
import { parsePatch } from "../../src/diff/parse-patch.js";
import { assignReviewers } from "../../src/run/assign-reviewers.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import { emptyStepNote, type SmallStepGate, smallStepPlan } from "../../src/run/small-step-plan.js";
import { smallStepSeed } from "../../src/run/small-step-seed.js";

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

const seed = (head: string, secret = "the app's secret") =>
  smallStepSeed(secret, "octo/widgets#7", head);
const HEADS = Array.from({ length: 40 }, (_, index) => `head${index}`);
const ALLOWED: SmallStepGate = { seed: seed("fff0000") };

describe("assignReviewers", () => {
  it("is deterministic for a seed: a resumed round (same secret, same head) deals the same", () => {
    expect(assignReviewers(MODELS, LENSES, 1, seed("a"))).toEqual(
      assignReviewers(MODELS, LENSES, 1, seed("a")),
    );
  });

  it("depends on the secret, not on anything the author controls alone", () => {
    // Another secret deals another way for most heads: knowing the head is not enough.
    const differs = HEADS.filter(
      (head) =>
        JSON.stringify([...assignReviewers(MODELS, LENSES, 1, seed(head))]) !==
        JSON.stringify([...assignReviewers(MODELS, LENSES, 1, seed(head, "another secret"))]),
    );
    expect(differs.length).toBeGreaterThan(HEADS.length / 2);
    // Over heads, the security lens falls to every model: none is its fixed reviewer.
    const security = new Set(
      HEADS.flatMap((head) => assignReviewers(MODELS, LENSES, 1, seed(head)).get("security")),
    );
    expect([...security].sort()).toEqual(MODELS);
  });

  it("gives each lens distinct models and each model the same number of lenses, give or take one", () => {
    for (const models of [MODELS, ["x", "y"], ["a", "b", "c"], ["solo"]]) {
      for (const perLens of [1, 2, 3]) {
        for (const head of HEADS.slice(0, 8)) {
          const assignment = assignReviewers(models, LENSES, perLens, seed(head));
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

  it("gives a lens at least what `atLeast` asks, in config order, and no one a lens without models", () => {
    const wider = new Map([["security", 2]]);
    for (const head of HEADS.slice(0, 8)) {
      const assignment = assignReviewers(MODELS, LENSES, 1, seed(head), wider);
      const security = assignment.get("security") ?? [];
      expect(security).toHaveLength(2);
      expect(security).toEqual(MODELS.filter((model) => security.includes(model)));
      expect(assignment.get("correctness")).toHaveLength(1);
    }
    expect(assignReviewers(["solo"], ["security"], 1, seed("a"), wider).get("security")).toEqual([
      "solo",
    ]);
    expect(assignReviewers([], LENSES, 1, seed("a")).get("security")).toEqual([]);
  });
});

describe("smallStepPlan", () => {
  it("gives a small incremental step one model per lens by default, and says so", () => {
    const step = smallStepPlan(plan(), change([file("a.ts", 10)]), ALLOWED);
    expect(step.kind).toBe("small");
    if (step.kind !== "small") return;
    expect(step.lines).toBe(10);
    expect(step.note).toBe(
      "small step (10 lines since abc1234): one model per lens, 2 on security",
    );
    // The security lens is never left to one model; every other lens gets one.
    expect(step.assignment.get("security")).toHaveLength(2);
    for (const lens of LENSES.slice(1)) expect(step.assignment.get(lens)).toHaveLength(1);
    expect(step.assignment).toEqual(
      assignReviewers(MODELS, LENSES, 1, seed("fff0000"), new Map([["security", 2]])),
    );
  });

  it("is never small without a gate that allows it: a fork, an author who cannot write", () => {
    const small = change([file("a.ts", 10)]);
    expect(smallStepPlan(plan(), small, undefined).kind).toBe("whole");
    expect(
      smallStepPlan(plan(), small, { refused: "the pull request comes from a fork" }).kind,
    ).toBe("whole");
    // Nothing reviewable is still nothing to review.
    expect(smallStepPlan(plan(), change([]), { refused: "fork" }).kind).toBe("empty");
  });

  it("counts only the step's reviewable lines against maxChangedLines (at it: small; above: whole)", () => {
    expect(smallStepPlan(plan(), change([file("a.ts", 200)]), ALLOWED).kind).toBe("small");
    expect(smallStepPlan(plan(), change([file("a.ts", 150), file("b.ts", 51)]), ALLOWED).kind).toBe(
      "whole",
    );
    const ignored = change([file("a.ts", 150), file("dist/out.js", 51)], {
      notReviewed: [{ path: "dist/out.js", reason: "ignored" }],
    });
    expect(smallStepPlan(plan(), ignored, ALLOWED).kind).toBe("small");
    const custom = plan({ maxChangedLines: 20, reviewersPerLens: 2 });
    expect(smallStepPlan(custom, change([file("a.ts", 21)]), ALLOWED).kind).toBe("whole");
    const two = smallStepPlan(custom, change([file("a.ts", 1)]), ALLOWED);
    expect(two.kind === "small" && two.note).toBe(
      "small step (1 line since abc1234): 2 models per lens",
    );
  });

  it("is off with maxChangedLines 0, for full rounds, and when every model is asked per lens", () => {
    expect(
      smallStepPlan(
        plan({ maxChangedLines: 0, reviewersPerLens: 1 }),
        change([file("a.ts", 1)]),
        ALLOWED,
      ).kind,
    ).toBe("whole");
    expect(smallStepPlan(plan(), change(null), ALLOWED).kind).toBe("whole");
    expect(
      smallStepPlan(
        plan({ maxChangedLines: 200, reviewersPerLens: 4 }),
        change([file("a.ts", 1)]),
        ALLOWED,
      ).kind,
    ).toBe("whole");
  });

  it("deals no lens to a model the round keeps from the change", () => {
    const skip = new Map([["m2", "not on forks"]]);
    const step = smallStepPlan(plan(), change([file("a.ts", 3)]), ALLOWED, skip);
    expect(step.kind === "small" && [...step.assignment.values()].flat()).not.toContain("m2");
    const alone = new Map(["m1", "m2", "m3"].map((id) => [id, "kept out"]));
    expect(smallStepPlan(plan(), change([file("a.ts", 3)]), ALLOWED, alone).kind).toBe("whole");
  });

  it("an incremental step with nothing reviewable is empty, whatever maxChangedLines says", () => {
    expect(smallStepPlan(plan(), change([]), ALLOWED)).toEqual({ kind: "empty", since: SINCE });
    const onlyIgnored = change([file("dist/out.js", 5)], {
      notReviewed: [{ path: "dist/out.js", reason: "ignored" }],
    });
    expect(
      smallStepPlan(plan({ maxChangedLines: 0, reviewersPerLens: 1 }), onlyIgnored, ALLOWED),
    ).toEqual({ kind: "empty", since: SINCE });
    expect(emptyStepNote(SINCE, 3)).toBe(
      "nothing to review since abc1234: 3 open findings carried",
    );
    expect(emptyStepNote(SINCE, 1)).toBe("nothing to review since abc1234: 1 open finding carried");
  });
});
