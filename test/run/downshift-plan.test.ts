import { describe, expect, it } from "vitest";
import type { ReviewPlan } from "../../src/config/resolve-review-plan.js";
import type { DownshiftConfig } from "../../src/config/schema.js";
import { parsePatch } from "../../src/diff/parse-patch.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import { downshiftPlan } from "../../src/run/downshift-plan.js";

/** A file of `added` new lines. */
function file(path: string, added: number) {
  const lines = Array.from({ length: added }, (_, index) => `+line ${index}`);
  return parsePatch(path, `@@ -0,0 +1,${added} @@\n${lines.join("\n")}`);
}

function change(files: ReturnType<typeof file>[], extra: Partial<ChangeSet> = {}): ChangeSet {
  return {
    title: "t",
    description: "",
    headSha: "abc1234",
    files,
    packedDiff: "",
    included: [],
    notReviewed: [],
    workspaceDir: "/nowhere",
    ...extra,
  };
}

function plan(downshift?: DownshiftConfig): ReviewPlan {
  return {
    models: [
      { id: "big", provider: "p" },
      { id: "small", provider: "p" },
    ],
    lenses: ["security", "correctness", "performance", "team-style"],
    customLenses: [{ id: "team-style", title: "Team style", emoji: "🎨", prompt: "x" }],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [],
    review: {
      lenses: ["security", "correctness", "performance"],
      concurrency: 8,
      verify: false,
      maxTurns: 4,
      timeoutSeconds: 60,
      diffBudgetChars: 10_000,
      debounceSeconds: 0,
    },
    ...(downshift === undefined ? {} : { budget: { downshift } }),
  };
}

describe("downshiftPlan", () => {
  const policy: DownshiftConfig = { aboveChangedLines: 1_000, lenses: ["security", "correctness"] };

  it("keeps the plan at or below the size, and without a downshift", () => {
    const small = change([file("a.ts", 600), file("b.ts", 400)]);
    expect(downshiftPlan(plan(policy), small)).toEqual({ plan: plan(policy), note: null, by: [] });
    const huge = change([file("a.ts", 5_000)]);
    expect(downshiftPlan(plan(), huge)).toEqual({ plan: plan(), note: null, by: [] });
  });

  it("above the lines, runs only the configured lenses, and says so", () => {
    const result = downshiftPlan(plan(policy), change([file("a.ts", 1_000), file("b.ts", 234)]));
    expect(result.plan.lenses).toEqual(["security", "correctness"]);
    expect(result.plan.customLenses).toEqual([]);
    expect(result.plan.models.map((model) => model.id)).toEqual(["big", "small"]);
    expect(result.note).toBe("large change (1,234 lines): security, correctness only");
  });

  it("above the files, runs only the configured models (and lenses), in the plan's order", () => {
    const files = Array.from({ length: 41 }, (_, index) => file(`f${index}.ts`, 1));
    const result = downshiftPlan(
      plan({ aboveFiles: 40, models: ["small"], lenses: ["correctness", "security"] }),
      change(files),
    );
    expect(result.plan.models.map((model) => model.id)).toEqual(["small"]);
    expect(result.plan.lenses).toEqual(["security", "correctness"]);
    expect(result.note).toBe("large change (41 files): security, correctness on small only");
  });

  it("measures what is under review: files left out do not count, an incremental round's step does", () => {
    const whole = [file("a.ts", 900), file("vendor.js", 5_000)];
    const leftOut = change(whole, { notReviewed: [{ path: "vendor.js", reason: "ignored" }] });
    expect(downshiftPlan(plan(policy), leftOut).note).toBeNull();
    const step = change(whole, {
      scope: { kind: "incremental", since: "def5678", files: [file("a.ts", 20)] },
    });
    expect(downshiftPlan(plan(policy), step).note).toBeNull();
  });

  it("says so when none of the plan's lenses is the downshift's", () => {
    const only = { ...plan({ aboveFiles: 1, lenses: ["performance"] }), lenses: ["security"] };
    const result = downshiftPlan(only, change([file("a.ts", 1), file("b.ts", 1)]));
    expect(result.plan.lenses).toEqual([]);
    expect(result.note).toBe(
      "large change (2 files): no lens of this round is among the downshift's, so none runs",
    );
  });

  it("applies the repository's size downshift after the operator's: it can only narrow more", () => {
    const repoOnly = { ...plan(), sizeDownshift: { aboveFiles: 2, models: ["small"] } };
    const three = change([file("a.ts", 1), file("b.ts", 1), file("c.ts", 1)]);
    const alone = downshiftPlan(repoOnly, three);
    expect(alone.by).toEqual(["filters.maxSize"]);
    expect(alone.plan.models.map((model) => model.id)).toEqual(["small"]);
    expect(alone.plan.lenses).toEqual(plan().lenses);
    expect(alone.note).toBe("large change (3 files): small only");

    const both = { ...plan(policy), sizeDownshift: { aboveFiles: 1, models: ["small"] } };
    const large = change([file("a.ts", 1_000), file("b.ts", 234)]);
    const narrowed = downshiftPlan(both, large);
    expect(narrowed.by).toEqual(["budget.downshift", "filters.maxSize"]);
    expect(narrowed.plan.lenses).toEqual(["security", "correctness"]);
    expect(narrowed.plan.models.map((model) => model.id)).toEqual(["small"]);
    expect(narrowed.note).toBe(
      "large change (1,234 lines): security, correctness only; then large change (2 files): small only",
    );
    // Under the repository's size, only the operator's applies.
    expect(
      downshiftPlan({ ...both, sizeDownshift: { aboveFiles: 5, models: ["small"] } }, large).by,
    ).toEqual(["budget.downshift"]);
  });
});
