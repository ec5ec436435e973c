import { describe, expect, it } from "vitest";
import { parsePatch } from "../../src/diff/parse-patch.js";
import { applyReviewScope } from "../../src/run/apply-review-scope.js";
import type { ChangeSet } from "../../src/run/change-set.js";

const whole = [
  parsePatch("src/a.js", "@@ -1 +1,2 @@\n a\n+whole-pr-a", { status: "modified" }),
  parsePatch("src/b.js", "@@ -1 +1,2 @@\n b\n+whole-pr-b", { status: "modified" }),
  parsePatch("docs/x.md", "@@ -1 +1 @@\n-x\n+y", { status: "modified" }),
];
const change: ChangeSet = {
  title: "t",
  description: "d",
  headSha: "head",
  files: whole,
  packedDiff: "the whole PR",
  included: ["src/a.js", "src/b.js"],
  notReviewed: [{ path: "docs/x.md", reason: "ignored" }],
  workspaceDir: "/tmp/none",
};
const step = parsePatch("src/b.js", "@@ -2 +2,2 @@\n whole-pr-b\n+step-b", { status: "modified" });
const ignoredStep = parsePatch("docs/x.md", "@@ -1 +1 @@\n-y\n+z", { status: "modified" });

describe("applyReviewScope", () => {
  it("shows only the step as the change under review, says so, and keeps the whole PR's files", () => {
    const scoped = applyReviewScope(
      change,
      { kind: "incremental", since: "abc1234def", files: [step, ignoredStep] },
      10_000,
    );
    expect(scoped.packedDiff).toContain("+step-b");
    expect(scoped.packedDiff).not.toContain("whole-pr-a");
    expect(scoped.packedDiff).not.toContain("+z");
    expect(scoped.included).toEqual(["src/b.js"]);
    expect(scoped.files).toBe(whole);
    expect(scoped.diffNote).toContain("since `abc1234`");
    expect(scoped.diffNote).toContain("(1 file)");
    expect(scoped.diffNote).toContain("the change under review");
    expect(scoped.scope?.kind).toBe("incremental");
  });

  it("lists the whole PR: the step's files saying whether they are shown, then the unchanged ones under one heading", () => {
    const scoped = applyReviewScope(
      change,
      { kind: "incremental", since: "abc1234def", files: [step] },
      10_000,
    );
    expect(scoped.listing).toEqual([
      "modified src/b.js (+1 -0) — shown below",
      "modified docs/x.md (+1 -1) — not reviewed",
      "unchanged since `abc1234` (get_diff shows the pull request's patch):",
      "modified src/a.js (+1 -0)",
    ]);
    // A step file over the budget stays reviewed: listed, not shown, read with get_diff.
    const tight = applyReviewScope(change, { kind: "incremental", since: "abc", files: [step] }, 5);
    expect(tight.packedDiff).toBe("");
    expect(tight.notReviewed.map((entry) => entry.path)).toEqual(["docs/x.md"]);
    expect(tight.listing?.[0]).toBe("modified src/b.js (+1 -0) — not shown (1 hunk)");
  });

  it("keeps the note of a capped listing last, after the unchanged files", () => {
    const many = Array.from({ length: 502 }, (_, index) =>
      parsePatch(`src/f${index}.js`, "@@ -1 +1,2 @@\n a\n+b", { status: "modified" }),
    );
    const big = { ...change, files: many, notReviewed: [] };
    const touched = parsePatch("src/f1.js", "@@ -2 +2,2 @@\n b\n+c", { status: "modified" });
    const scoped = applyReviewScope(
      big,
      { kind: "incremental", since: "abc", files: [touched] },
      10_000,
    );
    expect(scoped.listing?.[0]).toBe("modified src/f1.js (+1 -0) — shown below");
    expect(scoped.listing?.[1]).toBe(
      "unchanged since `abc` (get_diff shows the pull request's patch):",
    );
    expect(scoped.listing?.[2]).toBe("modified src/f0.js (+1 -0)");
    expect(scoped.listing?.at(-1)).toMatch(/^… and 2 more changed files, not listed/);
    expect(scoped.listing).toHaveLength(1 + 1 + 499 + 1);
  });

  it("lists a step file over the budget as not reviewed in the full-diff style, and says when nothing reviewable changed", () => {
    // The baseline packs into its own, old budget (FULL_DIFF_BUDGET_CHARS), whatever the config says.
    const full = { ...change, promptStyle: "full-diff" as const };
    const huge = parsePatch(
      "src/b.js",
      `@@ -2 +2,3001 @@\n whole-pr-b\n${`+${"y".repeat(60)}\n`.repeat(3000)}`,
      { status: "modified" },
    );
    expect(
      applyReviewScope(full, { kind: "incremental", since: "abc", files: [step] }, 5).included,
    ).toEqual(["src/b.js"]);
    const tight = applyReviewScope(full, { kind: "incremental", since: "abc", files: [huge] }, 5);
    expect(tight.notReviewed.map((entry) => entry.path)).toEqual(["docs/x.md", "src/b.js"]);
    expect(tight.listing).toBeUndefined();
    const empty = applyReviewScope(
      change,
      { kind: "incremental", since: "abc", files: [ignoredStep] },
      10_000,
    );
    expect(empty.diffNote).toContain("nothing the repository reviews changed since");
  });

  it("leaves a full review as prepared, with its reason", () => {
    const full = applyReviewScope(change, { kind: "full", reason: "not-ancestor" }, 10_000);
    expect(full).toEqual({ ...change, scope: { kind: "full", reason: "not-ancestor" } });
  });
});
