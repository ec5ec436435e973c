import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RepoTools, repoTools } from "../../../src/agent/repo-tools.js";
import { Workspace } from "../../../src/agent/workspace.js";
import { callTool } from "../helpers/call-tool.js";
import {
  OUTSIDE_SECRET,
  type TemporaryWorkspace,
  temporaryWorkspace,
} from "../helpers/temporary-workspace.js";

describe("grep", () => {
  let temporary: TemporaryWorkspace;
  let workspace: Workspace;
  let tools: RepoTools;

  beforeAll(async () => {
    temporary = await temporaryWorkspace();
    await temporary.link("leak.txt", `${temporary.outside}/secret.txt`);
    await temporary.link("src/escape", temporary.outside);
    await temporary.write("node_modules/dep/index.js", "export function findUserByName() {}\n");
    await temporary.write("generated/huge.js", `// findUserByName\n${"x".repeat(1024 * 1024)}\n`);
    await temporary.write("many.txt", Array.from({ length: 30 }, (_, i) => `hit ${i}`).join("\n"));
    await temporary.write("evil.txt", `${"a".repeat(40)}!\n`);
    workspace = await Workspace.open(temporary.root);
    tools = repoTools(workspace);
  });
  afterAll(() => temporary.remove());

  it("finds matching lines as path:line:text, skipping binary, huge and installed files", async () => {
    const result = await callTool(tools, "grep", { pattern: "findUserByName" });
    expect(result.isError).toBe(false);
    const lines = result.content.split("\n");
    expect(lines.filter((line) => /^[\w/.-]+:\d+:/.test(line))).toEqual([
      "src/db.js:5:export async function findUserByName(name) {",
      'src/server.js:2:import { findUserByName, listUsers } from "./db.js";',
      '      const user = await findUserByName(url.searchParams.get("name"));'.replace(
        /^/,
        "src/server.js:15:",
      ),
    ]);
    expect(lines.at(-1)).toMatch(/skipped 1 binary and 1 over 1 MB\)$/);
    expect(result.content).not.toContain("node_modules");
    expect(result.content).not.toContain(OUTSIDE_SECRET);
    expect(result.summary).toBe("/findUserByName/");
  });

  it("limits the search to a directory or a file", async () => {
    const inLib = await callTool(tools, "grep", { pattern: "user", path: "lib" });
    expect(
      inLib.content
        .split("\n")
        .slice(0, -1)
        .every((line) => line.startsWith("lib/format.js:")),
    ).toBe(true);
    expect(inLib.content).toContain("lib/format.js:1:export function formatUser(user) {");
    const inFile = await callTool(tools, "grep", { pattern: "OFFSET", path: "src/db.js" });
    expect(inFile.content.split("\n")[0]).toMatch(/^src\/db\.js:14:/);
    expect(inFile.summary).toBe("/OFFSET/ in src/db.js");
  });

  it("says when nothing matches, and honours a leading (?i)", async () => {
    const none = await callTool(tools, "grep", { pattern: "PAGINATION" });
    expect(none.content).toMatch(/^no matches for \/PAGINATION\/ in \. \(\d+ files searched/);
    const insensitive = await callTool(tools, "grep", { pattern: "(?i)PAGINATION", path: "docs" });
    expect(insensitive.content).toContain("docs/guide.md:5:Pagination starts at page 0");
  });

  it("stops after the match cap", async () => {
    const capped = repoTools(workspace, { grepMaxMatches: 5 });
    const result = await callTool(capped, "grep", { pattern: "^hit", path: "many.txt" });
    expect(result.content.split("\n").filter((line) => line.startsWith("many.txt:"))).toHaveLength(
      5,
    );
    expect(result.content).toContain("… stopped after 5 matches");
  });

  it("stops when the scanned-bytes budget is spent", async () => {
    const capped = repoTools(workspace, { grepMaxScannedBytes: 600 });
    const result = await callTool(capped, "grep", { pattern: "zzz-never" });
    expect(result.content).toContain("the search stopped early");
  });

  it.each([
    [
      "an invalid regex",
      { pattern: "(unclosed" },
      /Invalid regular expression.*pass a JavaScript regular expression/,
    ],
    [
      "a 501-character pattern",
      { pattern: "a".repeat(501) },
      /the pattern is too long \(501 characters; at most 500\)/,
    ],
    ["a ../ path", { pattern: "x", path: "../outside" }, /may not contain "\.\."/],
    [
      "a symlinked directory",
      { pattern: "x", path: "src/escape" },
      /resolves outside the repository/,
    ],
    ["an empty pattern", { pattern: "" }, /invalid arguments for grep/],
  ])("answers %s with an error the model can read", async (_label, argumentsValue, message) => {
    const result = await callTool(tools, "grep", argumentsValue);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(message);
  });

  it("stops a catastrophic pattern at its time budget without blocking the event loop", async () => {
    const quick = repoTools(workspace, { grepTimeoutMs: 300 });
    let ticks = 0;
    const interval = setInterval(() => ticks++, 20);
    const started = performance.now();
    const result = await callTool(quick, "grep", { pattern: "^(a+)+$", path: "evil.txt" });
    clearInterval(interval);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/grep stopped after 0\.3 s: the pattern is too expensive/);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(ticks).toBeGreaterThan(3);
  });
});
