import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RepoTools, repoTools } from "../../../src/agent/repo-tools.js";
import { Workspace } from "../../../src/agent/workspace.js";
import { callTool } from "../helpers/call-tool.js";
import {
  OUTSIDE_SECRET,
  type TemporaryWorkspace,
  temporaryWorkspace,
} from "../helpers/temporary-workspace.js";

describe("read_file", () => {
  let temporary: TemporaryWorkspace;
  let tools: RepoTools;
  let workspace: Workspace;

  beforeAll(async () => {
    temporary = await temporaryWorkspace();
    await temporary.link("leak.txt", `${temporary.outside}/secret.txt`);
    await temporary.link("docs/escape", temporary.outside);
    await temporary.write(
      "long.txt",
      Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n"),
    );
    await temporary.write("wide.txt", `${"x".repeat(5_000)}\nshort\n`);
    await temporary.write("empty.txt", "");
    workspace = await Workspace.open(temporary.root);
    tools = repoTools(workspace);
  });
  afterAll(() => temporary.remove());

  it("numbers the lines of a file, new-side numbering", async () => {
    const result = await callTool(tools, "read_file", { path: "src/db.js" });
    expect(result.isError).toBe(false);
    const lines = result.content.split("\n");
    expect(lines[0]).toBe("src/db.js — lines 1-15 of 15");
    expect(lines[1]).toBe('1\timport { Pool } from "./pool.js";');
    expect(lines).toContain(
      `7\t  const sql = "SELECT id, name, email FROM users WHERE name = '" + name + "'";`,
    );
    expect(lines).toHaveLength(16);
    expect(result.summary).toBe("src/db.js");
  });

  it("returns a range, and accepts line numbers sent as strings", async () => {
    const result = await callTool(tools, "read_file", {
      path: "src/db.js",
      start_line: "12",
      end_line: 13,
    });
    expect(result.content.split("\n")).toEqual([
      "src/db.js — lines 12-13 of 15",
      "12\texport async function listUsers(page, pageSize) {",
      "13\t  const offset = page * pageSize + 1;",
    ]);
    expect(result.summary).toBe("src/db.js:12-13");
  });

  it("caps the lines and says how to continue", async () => {
    const capped = repoTools(workspace, { readFileMaxLines: 10 });
    const result = await callTool(capped, "read_file", { path: "long.txt", start_line: 5 });
    const lines = result.content.split("\n");
    expect(lines[1]).toBe("5\tline 5");
    expect(lines[10]).toBe("14\tline 14");
    expect(lines.at(-1)).toBe("… truncated (36 more lines; continue with start_line=15)");
  });

  it("caps the bytes and cuts an overlong line", async () => {
    const capped = repoTools(workspace, { maxOutputBytes: 200, maxLineChars: 100 });
    const wide = await callTool(capped, "read_file", { path: "wide.txt" });
    expect(wide.content).toContain(`1\t${"x".repeat(100)}… (line cut, 5000 chars)`);
    const long = await callTool(capped, "read_file", { path: "long.txt" });
    expect(Buffer.byteLength(long.content)).toBeLessThan(320);
    expect(long.content).toMatch(/… truncated \(\d+ more lines; continue with start_line=\d+\)$/);
  });

  it("says a binary file is binary rather than dumping it", async () => {
    const result = await callTool(tools, "read_file", { path: "assets/logo.gif" });
    expect(result.content).toBe("assets/logo.gif is a binary file (29 bytes): not shown");
  });

  it.each([
    [{ path: "src" }, /src is a directory: use list_files/],
    [
      { path: "src/db.js", start_line: 99 },
      /start_line 99 is past the end of src\/db\.js \(15 lines\)/,
    ],
    [{ path: "src/db.js", start_line: 5, end_line: 2 }, /end_line 2 is before start_line 5/],
    [{ path: "src/missing.js" }, /not found: src\/missing\.js/],
    [{ path: "src/db.js", start_line: 0 }, /invalid arguments for read_file/],
    [
      { start_line: 1 },
      /invalid arguments for read_file \(path: .*\); expected \{path, start_line\?, end_line\?\}/,
    ],
  ])("answers %j with an error the model can act on", async (argumentsValue, message) => {
    const result = await callTool(tools, "read_file", argumentsValue);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^error: /);
    expect(result.content).toMatch(message);
  });

  it("reads an empty file", async () => {
    expect((await callTool(tools, "read_file", { path: "empty.txt" })).content).toBe(
      "empty.txt is empty",
    );
  });

  it.each([
    ["../outside/secret.txt"],
    [`${"/"}etc/passwd`],
    ["leak.txt"],
    ["docs/escape/secret.txt"],
  ])("never reads outside the workspace: %s", async (path) => {
    const result = await callTool(tools, "read_file", { path });
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain(OUTSIDE_SECRET);
    expect(result.content).not.toContain(temporary.outside);
  });
});
