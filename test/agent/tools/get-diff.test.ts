import { describe, expect, it } from "vitest";
import { repoTools } from "../../../src/agent/repo-tools.js";
import { Workspace } from "../../../src/agent/workspace.js";
import type { DiffFile } from "../../../src/diff/diff-file.js";
import { parseUnifiedDiff } from "../../../src/diff/parse-unified-diff.js";
import { callTool } from "../helpers/call-tool.js";
import { FIXTURE_REPO } from "../helpers/temporary-workspace.js";

const added = Array.from({ length: 30 }, (_, index) => `+line ${index}`).join("\n");
const files = parseUnifiedDiff(
  [
    "diff --git a/src/db.js b/src/db.js",
    "--- a/src/db.js",
    "+++ b/src/db.js",
    "@@ -1,1 +1,31 @@",
    " context",
    added,
    "diff --git a/old.js b/src/renamed.js",
    "similarity index 90%",
    "rename from old.js",
    "rename to src/renamed.js",
    "--- a/old.js",
    "+++ b/src/renamed.js",
    "@@ -1 +1 @@",
    "-before",
    "+after",
    "diff --git a/assets/logo.gif b/assets/logo.gif",
    "Binary files a/assets/logo.gif and b/assets/logo.gif differ",
    "",
  ].join("\n"),
);

async function tools(limits = {}, extra: DiffFile[] = []) {
  return repoTools(await Workspace.open(FIXTURE_REPO), limits, {
    files: [...files, ...extra],
    excluded: new Map([["docs/guide.md", "the repository's config ignores it"]]),
  });
}

describe("get_diff", () => {
  it("returns a changed file's whole patch when it fits, and says it is the end", async () => {
    const result = await callTool(await tools(), "get_diff", { path: "src/db.js" });
    const lines = result.content.split("\n");
    expect(lines[0]).toBe("diff --git a/src/db.js b/src/db.js");
    expect(lines).toContain("+line 29");
    expect(lines.at(-1)).toBe("(patch lines 0-34 of 35: the end)");
    expect(result.summary).toBe("src/db.js");
  });

  it("pages through a long patch and says where the next page starts", async () => {
    const paged = await tools({ getDiffMaxLines: 10 });
    const first = await callTool(paged, "get_diff", { path: "src/db.js" });
    expect(first.content.split("\n")).toHaveLength(11);
    expect(first.content).toContain("(patch lines 0-9 of 35; more: get_diff with offset 10)");
    const second = await callTool(paged, "get_diff", { path: "src/db.js", offset: "10", limit: 5 });
    expect(second.content.split("\n")[0]).toBe("+line 5");
    expect(second.content).toContain("(patch lines 10-14 of 35; more: get_diff with offset 15)");
    // A limit over the cap is held to it.
    const big = await callTool(paged, "get_diff", { path: "src/db.js", limit: 1_000 });
    expect(big.content.split("\n")).toHaveLength(11);
    const past = await callTool(paged, "get_diff", { path: "src/db.js", offset: 35 });
    expect(past).toMatchObject({ isError: true });
    expect(past.content).toContain("past the end of the patch (35 lines)");
  });

  it("finds a renamed file by either path, forgives a/ b/ ./ prefixes", async () => {
    const all = await tools();
    for (const path of ["src/renamed.js", "old.js", "b/src/renamed.js", "./src/renamed.js"]) {
      const result = await callTool(all, "get_diff", { path });
      expect(result.content).toContain("rename from old.js");
    }
  });

  it("says a binary file has no text diff, and refuses ignored and unchanged files", async () => {
    const all = await tools();
    expect((await callTool(all, "get_diff", { path: "assets/logo.gif" })).content).toBe(
      "assets/logo.gif is a binary file: there is no text diff to show",
    );
    const ignored = await callTool(all, "get_diff", { path: "docs/guide.md" });
    expect(ignored.isError).toBe(true);
    expect(ignored.content).toContain("is not reviewed: the repository's config ignores it");
    const unchanged = await callTool(all, "get_diff", { path: "src/pool.js" });
    expect(unchanged.isError).toBe(true);
    expect(unchanged.content).toContain("is not a file this pull request changes");
  });

  it("bounds its output on hostile input: huge lines, huge pages, a path flood", async () => {
    const [long] = parseUnifiedDiff(
      `diff --git a/min.js b/min.js\n--- a/min.js\n+++ b/min.js\n@@ -1 +1,200 @@\n-x\n${`+${"a".repeat(50_000)}\n`.repeat(200)}`,
    );
    const all = await tools({}, long === undefined ? [] : [long]);
    const result = await callTool(all, "get_diff", { path: "min.js" });
    expect(Buffer.byteLength(result.content)).toBeLessThan(40 * 1024);
    expect(result.content).toContain("(line cut, 50001 chars)");
    expect(result.content).toMatch(/more: get_diff with offset \d+\)$/);
    const flood = await callTool(all, "get_diff", { path: `${"x\n".repeat(100_000)}` });
    expect(flood.isError).toBe(true);
    expect(flood.content.length).toBeLessThan(500);
    for (const bad of [{ path: "src/db.js", offset: -1 }, { path: "src/db.js", limit: 0 }, {}]) {
      expect((await callTool(all, "get_diff", bad)).isError).toBe(true);
    }
  });

  it("is offered only when the session has a change", async () => {
    const without = repoTools(await Workspace.open(FIXTURE_REPO));
    expect(without.definitions.map((tool) => tool.name)).toEqual([
      "read_file",
      "grep",
      "list_files",
      "find_files",
    ]);
    const result = await callTool(without, "get_diff", { path: "src/db.js" });
    expect(result.isError).toBe(true);
    expect((await tools()).definitions.map((tool) => tool.name)).toContain("get_diff");
  });
});
