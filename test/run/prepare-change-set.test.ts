import { describe, expect, it } from "vitest";
import { IGNORE_MATCH_STEPS } from "../../src/config/ignore-matcher.js";
import type { DiffFile } from "../../src/diff/diff-file.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { type ChangeSetSource, prepareChangeSet } from "../../src/run/prepare-change-set.js";

/** An added one-line text file at `path`. */
function addedFile(path: string): DiffFile {
  const [file] = parseUnifiedDiff(
    `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+line\n`,
  );
  if (file === undefined) throw new Error("fixture did not parse");
  return file;
}

function source(files: DiffFile[], ignore: string[]): ChangeSetSource {
  return {
    title: "t",
    description: "",
    headSha: "abc1234",
    files,
    workspaceDir: "/nonexistent",
    ignore,
    diffBudgetChars: 10_000_000,
  };
}

describe("prepareChangeSet", () => {
  it("compact: lists every file, shows hunks within the budget, and keeps the rest reviewed", () => {
    const files = [
      addedFile("vendor/lib.js"),
      addedFile("src/app.ts"),
      addedFile("src/other.ts"),
      addedFile("package-lock.json"),
    ];
    // Room for one small file's diff: the other is listed, not shown, and still reviewed.
    const change = prepareChangeSet({ ...source(files, ["vendor/**"]), diffBudgetChars: 200 });
    expect(change.promptStyle).toBe("compact");
    expect(change.packedDiff.length).toBeLessThanOrEqual(200);
    expect(change.included).toEqual(["src/app.ts"]);
    expect(change.listing).toEqual([
      "added vendor/lib.js (+1 -0) — ignored by the repository's config, not reviewed",
      "added src/app.ts (+1 -0) — shown below",
      "added src/other.ts (+1 -0) — not shown (1 hunk)",
      "added package-lock.json (+1 -0) — lockfile, not reviewed (its hosts and install scripts are checked apart)",
    ]);
    expect(change.notReviewed).toEqual([
      { path: "vendor/lib.js", reason: "ignored" },
      { path: "package-lock.json", reason: "lockfile" },
    ]);
    // The full-diff baseline packs whole files into the old budget and lists no statuses.
    const full = prepareChangeSet({ ...source(files, ["vendor/**"]), promptStyle: "full-diff" });
    expect(full.listing).toBeUndefined();
    expect(full.included).toEqual(["src/app.ts", "src/other.ts"]);
  });

  it("matches the path a file has at the head: a rename out of an ignored path is reviewed", () => {
    const renamedOut: DiffFile = {
      ...addedFile("src/admin.ts"),
      status: "renamed",
      oldPath: "vendor/admin.ts",
    };
    const renamedIn: DiffFile = {
      ...addedFile("vendor/moved.ts"),
      status: "renamed",
      oldPath: "src/moved.ts",
    };
    const change = prepareChangeSet(
      source(
        [addedFile("vendor/lib.js"), addedFile("src/app.ts"), renamedOut, renamedIn],
        ["vendor/**"],
      ),
    );
    expect(change.included).toEqual(["src/app.ts", "src/admin.ts"]);
    expect(change.notReviewed).toEqual([
      { path: "vendor/lib.js", reason: "ignored" },
      { path: "vendor/moved.ts", reason: "ignored" },
    ]);
  });

  it("lists the files the ignore globs' budget ran out on as not reviewed, with that reason", () => {
    // The heaviest glob list a repository's config allows, and long paths that keep all of
    // its states alive: the change set's matching budget runs out part-way through.
    const heavyGlobs = Array.from({ length: 20 }, (_, index) => `**/${"*a".repeat(45)}*${index}*`);
    const longPath = Array.from({ length: 20 }, () => "a".repeat(30)).join("/");
    const hostile = Array.from({ length: 3_000 }, (_, index) => addedFile(`${longPath}/${index}`));
    const files = [
      addedFile("vendor/lib.js"),
      addedFile("src/early.ts"),
      ...hostile,
      addedFile("src/late.ts"),
      addedFile("vendor/late.js"),
    ];
    const change = prepareChangeSet(source(files, ["vendor/**", ...heavyGlobs]));

    const reasons = new Map(change.notReviewed.map((entry) => [entry.path, entry.reason]));
    expect(reasons.get("vendor/lib.js")).toBe("ignored");
    expect(change.included).toContain("src/early.ts");
    // Past the budget nothing is matched: neither reviewed as if no glob matched, nor
    // called ignored as if one did, but listed with the reason, for the board to show.
    expect(reasons.get("src/late.ts")).toBe("ignore-unchecked");
    expect(reasons.get("vendor/late.js")).toBe("ignore-unchecked");
    expect(change.included).not.toContain("src/late.ts");
    expect(change.packedDiff).not.toContain("src/late.ts");
    const unchecked = change.notReviewed.filter((entry) => entry.reason === "ignore-unchecked");
    expect(unchecked.length).toBeGreaterThan(2);
    expect(unchecked.length).toBeLessThan(files.length);
    // Every file is reviewed or listed: none dropped.
    expect(change.included.length + change.notReviewed.length).toBe(files.length);
    console.log(
      `${files.length} files against ${heavyGlobs.length + 1} globs: budget of ${IGNORE_MATCH_STEPS} steps ran out, ${unchecked.length} files listed unchecked, ${change.included.length} reviewed`,
    );
  });
});
