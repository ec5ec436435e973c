import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RepoTools, repoTools } from "../../../src/agent/repo-tools.js";
import { Workspace } from "../../../src/agent/workspace.js";
import { callTool } from "../helpers/call-tool.js";
import {
  OUTSIDE_SECRET,
  type TemporaryWorkspace,
  temporaryWorkspace,
} from "../helpers/temporary-workspace.js";

describe("list_files", () => {
  let temporary: TemporaryWorkspace;
  let workspace: Workspace;
  let tools: RepoTools;

  beforeAll(async () => {
    temporary = await temporaryWorkspace();
    await temporary.write(".git/HEAD", "ref: refs/heads/main\n");
    await temporary.write("node_modules/dep/index.js", "\n");
    await temporary.link("docs/escape", temporary.outside);
    await temporary.link("docs/loop", "..");
    workspace = await Workspace.open(temporary.root);
    tools = repoTools(workspace);
  });
  afterAll(() => temporary.remove());

  it("lists the tree, directories marked, .git and node_modules skipped, links not descended", async () => {
    const result = await callTool(tools, "list_files", {});
    expect(result.content.split("\n")).toEqual([
      "README.md",
      "assets/",
      "assets/logo.gif",
      "docs/",
      "docs/guide.md",
      "docs/loop/",
      "lib/",
      "lib/format.js",
      "src/",
      "src/db.js",
      "src/pool.js",
      "src/server.js",
    ]);
    expect(result.content).not.toContain(OUTSIDE_SECRET);
    expect(result.summary).toBe(".");
  });

  it("lists a subdirectory, and a file as itself", async () => {
    expect((await callTool(tools, "list_files", { path: "src" })).content).toBe(
      "src/db.js\nsrc/pool.js\nsrc/server.js",
    );
    expect((await callTool(tools, "list_files", { path: "lib/format.js" })).content).toBe(
      "lib/format.js",
    );
    expect((await callTool(tools, "list_files", { path: null })).isError).toBe(false);
  });

  it("caps the entries, shallow ones first, and says how many were left out", async () => {
    const capped = repoTools(workspace, { listFilesMaxEntries: 5 });
    const result = await callTool(capped, "list_files", {});
    expect(result.content.split("\n")).toEqual([
      "README.md",
      "assets/",
      "docs/",
      "lib/",
      "src/",
      "… truncated (7 more entries; list a subdirectory to see them)",
    ]);
  });

  it.each([["../outside"], ["docs/escape"], ["/tmp"], [".git"]])("refuses %s", async (path) => {
    const result = await callTool(tools, "list_files", { path });
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain(OUTSIDE_SECRET);
  });
});
