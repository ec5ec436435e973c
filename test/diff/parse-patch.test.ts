import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DiffParseError } from "../../src/diff/diff-parse-error.js";
import { parsePatch } from "../../src/diff/parse-patch.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";

/** The `patch` field as GitHub sends it: hunks only, no trailing newline. */
function patchOf(diffText: string, path: string): string {
  const start = diffText.indexOf(`diff --git a/${path} `);
  const next = diffText.indexOf("\ndiff --git ", start + 1);
  const section = diffText.slice(start, next === -1 ? undefined : next + 1);
  return section.slice(section.indexOf("@@ ")).replace(/\n$/, "");
}

describe("parsePatch", () => {
  const diff = readFileSync(new URL("fixtures/github-pr.diff", import.meta.url), "utf8");
  const files = parseUnifiedDiff(diff);

  it.each(["src/server.ts", "src/one.ts", "src/no-eol.ts", "src/added.ts", "src/legacy.ts"])(
    "reads the same hunks as the full diff for %s",
    (path) => {
      const fromDiff = files.find((file) => file.path === path);
      const fromPatch = parsePatch(path, patchOf(diff, path));
      expect(fromPatch.hunks).toEqual(fromDiff?.hunks);
      expect([fromPatch.additions, fromPatch.deletions]).toEqual([
        fromDiff?.additions,
        fromDiff?.deletions,
      ]);
    },
  );

  it("infers added and deleted files from their single hunk when no status is given", () => {
    expect(parsePatch("src/added.ts", patchOf(diff, "src/added.ts"))).toMatchObject({
      status: "added",
      oldPath: null,
      newPath: "src/added.ts",
    });
    expect(parsePatch("src/legacy.ts", patchOf(diff, "src/legacy.ts"))).toMatchObject({
      status: "deleted",
      oldPath: "src/legacy.ts",
      newPath: null,
      path: "src/legacy.ts",
    });
    expect(parsePatch("src/server.ts", patchOf(diff, "src/server.ts")).status).toBe("modified");
  });

  it("takes GitHub's status and previous_filename when given", () => {
    const patch = "@@ -1 +1 @@\n-a\n+b";
    expect(parsePatch("gone.ts", "@@ -1 +0,0 @@\n-a", { status: "removed" })).toMatchObject({
      status: "deleted",
      newPath: null,
    });
    expect(parsePatch("x.ts", patch, { status: "changed" }).status).toBe("modified");
    expect(
      parsePatch("new/name.ts", patch, { status: "renamed", previousPath: "old/name.ts" }),
    ).toMatchObject({ status: "renamed", oldPath: "old/name.ts", newPath: "new/name.ts" });
    expect(parsePatch("new/name.ts", patch, { previousPath: "old/name.ts" }).status).toBe(
      "renamed",
    );
  });

  it("returns a file without hunks for an empty patch", () => {
    expect(parsePatch("empty.ts", "")).toMatchObject({
      hunks: [],
      additions: 0,
      status: "modified",
    });
  });

  it("rejects text between hunks and broken hunks", () => {
    expect(() => parsePatch("x.ts", "@@ -1 +1 @@\n-a\n+b\nstray")).toThrow(DiffParseError);
    expect(() => parsePatch("x.ts", "@@ -1,2 +1,2 @@\n a")).toThrow(DiffParseError);
  });
});
