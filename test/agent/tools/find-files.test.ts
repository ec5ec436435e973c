import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RepoTools, repoTools } from "../../../src/agent/repo-tools.js";
import { Workspace } from "../../../src/agent/workspace.js";
import type { DiffFile } from "../../../src/diff/diff-file.js";
import { parseUnifiedDiff } from "../../../src/diff/parse-unified-diff.js";
import { callTool } from "../helpers/call-tool.js";
import {
  OUTSIDE_SECRET,
  type TemporaryWorkspace,
  temporaryWorkspace,
} from "../helpers/temporary-workspace.js";

describe("find_files", () => {
  let temporary: TemporaryWorkspace;
  let workspace: Workspace;
  let tools: RepoTools;

  beforeAll(async () => {
    temporary = await temporaryWorkspace();
    await temporary.write(".git/config.js", "\n");
    await temporary.write("node_modules/dep/index.js", "\n");
    await temporary.write("src/deep/a/b/query.js", "\n");
    await temporary.link("docs/escape", temporary.outside);
    await temporary.link("docs/loop", "..");
    workspace = await Workspace.open(temporary.root);
    tools = repoTools(workspace);
  });
  afterAll(() => temporary.remove());

  it("matches whole paths with '/', names anywhere without, shallow first", async () => {
    expect((await callTool(tools, "find_files", { pattern: "src/**/*.js" })).content).toBe(
      "src/db.js\nsrc/pool.js\nsrc/server.js\nsrc/deep/a/b/query.js",
    );
    const byName = await callTool(tools, "find_files", { pattern: "*.js" });
    expect(byName.content).toBe(
      "lib/format.js\nsrc/db.js\nsrc/pool.js\nsrc/server.js\nsrc/deep/a/b/query.js",
    );
    expect(byName.summary).toBe("*.js");
    expect((await callTool(tools, "find_files", { pattern: "{db,pool}.js" })).content).toBe(
      "src/db.js\nsrc/pool.js",
    );
  });

  it("never shows .git, node_modules or what a link outside points at", async () => {
    const all = await callTool(tools, "find_files", { pattern: "**" });
    expect(all.isError).toBe(false);
    expect(all.content).not.toMatch(/\.git|node_modules|secret\.txt/);
    expect(all.content).not.toContain(OUTSIDE_SECRET);
    expect(all.content).toContain("README.md");
  });

  it("says when nothing matches", async () => {
    expect((await callTool(tools, "find_files", { pattern: "*.sql" })).content).toBe(
      "no files match *.sql",
    );
  });

  it.each([
    ["/etc/*", "leading '/'"],
    ["!src/**", "negation"],
    ["src/@(a|b).js", ""],
    ["a".repeat(201), "too long"],
    ["", "invalid arguments"],
  ])("refuses the pattern %j with a reason", async (pattern, reason) => {
    const result = await callTool(tools, "find_files", { pattern });
    expect(result.isError).toBe(true);
    expect(result.content).toContain(reason);
  });

  it("caps the matches and the walk, and says so", async () => {
    const capped = repoTools(workspace, { listFilesMaxEntries: 2 });
    expect((await callTool(capped, "find_files", { pattern: "*.js" })).content).toBe(
      "lib/format.js\nsrc/db.js\n… truncated (3 more matches; narrow the pattern)",
    );
    const shortWalk = repoTools(workspace, { findFilesMaxVisited: 3 });
    const walked = await callTool(shortWalk, "find_files", { pattern: "*.js" });
    expect(walked.content).toContain("stopped after looking at 3 entries");
  });

  it("with changed: true, globs the change's files only, deleted ones included", async () => {
    const [deleted, modified] = parseUnifiedDiff(
      [
        "diff --git a/src/gone.js b/src/gone.js",
        "deleted file mode 100644",
        "--- a/src/gone.js",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
        "-x",
        "diff --git a/src/db.js b/src/db.js",
        "--- a/src/db.js",
        "+++ b/src/db.js",
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "",
      ].join("\n"),
    );
    const changes = { files: [deleted, modified] as DiffFile[], excluded: new Map() };
    const withChange = repoTools(workspace, {}, changes);
    const result = await callTool(withChange, "find_files", { pattern: "*.js", changed: true });
    expect(result.content).toBe("src/gone.js\nsrc/db.js");
    expect(result.summary).toBe("*.js (changed)");
    const none = await callTool(tools, "find_files", { pattern: "**", changed: true });
    expect(none.isError).toBe(true);
  });

  it("stays fast on a hostile pattern (linear-time matching, no RegExp)", async () => {
    const pattern = `${"*a".repeat(40)}{b,c}`;
    const started = Date.now();
    const result = await callTool(tools, "find_files", { pattern });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.content).toBe(`no files match ${pattern}`);
  });
});
