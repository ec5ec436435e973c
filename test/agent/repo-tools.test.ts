import { describe, expect, it } from "vitest";
import { repoTools } from "../../src/agent/repo-tools.js";
import { Workspace } from "../../src/agent/workspace.js";
import { callTool } from "./helpers/call-tool.js";
import { FIXTURE_REPO } from "./helpers/temporary-workspace.js";

describe("repoTools", async () => {
  const tools = repoTools(await Workspace.open(FIXTURE_REPO));

  it("defines the read-only tools with JSON-Schema parameters (get_diff needs a change)", () => {
    expect(tools.definitions.map((definition) => definition.name)).toEqual([
      "read_file",
      "grep",
      "list_files",
      "find_files",
    ]);
    for (const definition of tools.definitions) {
      expect(definition.parameters).toMatchObject({
        type: "object",
        properties: expect.any(Object),
      });
      expect(definition.description.length).toBeGreaterThan(20);
    }
  });

  it("answers an unknown tool with the list of real ones", async () => {
    const result = await callTool(tools, "write_file", { path: "x" });
    expect(result).toEqual({
      content:
        'error: unknown tool "write_file"; the available tools are read_file, grep, list_files, find_files',
      isError: true,
      summary: "(unknown tool)",
    });
  });

  it.each([['{"path": "src/db.js"'], ["not json"], ["[1, 2]"], ['"src/db.js"']])(
    "answers malformed arguments %s with an error, not a throw",
    async (text) => {
      const result = await callTool(tools, "read_file", text);
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(
        /^error: the arguments of read_file (are not valid JSON|must be a JSON object)/,
      );
    },
  );

  it("treats empty arguments as an empty object", async () => {
    const result = await callTool(tools, "list_files", "");
    expect(result.isError).toBe(false);
    expect(result.content).toContain("src/db.js");
  });

  it("keeps the board summary to one short line", async () => {
    const result = await callTool(tools, "grep", { pattern: `a\nb${"c".repeat(200)}` });
    expect(result.summary).not.toContain("\n");
    expect(result.summary.length).toBeLessThanOrEqual(80);
    expect(result.summary.endsWith("…")).toBe(true);
  });
});
