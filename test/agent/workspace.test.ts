import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/agent/tools/repo-tool.js";
import { Workspace } from "../../src/agent/workspace.js";
import {
  FIXTURE_REPO,
  type TemporaryWorkspace,
  temporaryWorkspace,
} from "./helpers/temporary-workspace.js";

describe("Workspace.resolve", () => {
  let temporary: TemporaryWorkspace;
  let workspace: Workspace;

  beforeAll(async () => {
    temporary = await temporaryWorkspace();
    await temporary.link("leak.txt", `${temporary.outside}/secret.txt`);
    await temporary.link("escape", temporary.outside);
    await temporary.link("nested/deeper/escape", "../../../outside");
    await temporary.link("alias.js", "src/db.js");
    await temporary.write(
      ".git/config",
      "[remote] url = https://x-access-token:abc@github.com/o/r",
    );
    await temporary.link("git-config", ".git/config");
    workspace = await Workspace.open(temporary.root);
  });
  afterAll(() => temporary.remove());

  it("normalizes a relative path and reports what it is", async () => {
    const resolved = await workspace.resolve("./src//db.js");
    expect(resolved).toMatchObject({ relativePath: "src/db.js", kind: "file" });
    expect(resolved.realPath.startsWith(workspace.root)).toBe(true);
    expect((await workspace.resolve(undefined)).kind).toBe("directory");
    expect((await workspace.resolve("")).relativePath).toBe(".");
  });

  it.each([
    ["../outside/secret.txt", /may not contain "\.\."/],
    ["src/../../outside/secret.txt", /may not contain "\.\."/],
    ["..\\outside\\secret.txt", /may not contain "\.\."/],
    ["/etc/passwd", /absolute paths are not allowed/],
    ["C:\\Windows\\win.ini", /absolute paths are not allowed/],
    ["~/.ssh/id_rsa", /absolute paths are not allowed/],
    [".git/config", /\.git directory is not available/],
    ["src/.GIT/HEAD", /\.git directory is not available/],
  ])("refuses %s before touching the disk", async (path, message) => {
    await expect(workspace.resolve(path)).rejects.toThrow(message);
    await expect(workspace.resolve(path)).rejects.toBeInstanceOf(ToolError);
  });

  it.each([
    ["leak.txt"],
    ["escape/secret.txt"],
    ["escape"],
    ["nested/deeper/escape/secret.txt"],
    ["git-config"],
  ])("refuses %s, which a symbolic link takes outside", async (path) => {
    await expect(workspace.resolve(path)).rejects.toThrow(/resolves outside the repository/);
  });

  it("does not reveal whether a file exists behind an escaping link", async () => {
    await expect(workspace.resolve("escape/no-such-file")).rejects.toThrow(
      /outside the repository/,
    );
    await expect(workspace.resolve("src/no-such-file.js")).rejects.toThrow(
      /^not found: src\/no-such-file\.js$/,
    );
  });

  it("follows a link that stays inside", async () => {
    const resolved = await workspace.resolve("alias.js");
    expect(resolved.kind).toBe("file");
    expect(resolved.realPath).toBe((await workspace.resolve("src/db.js")).realPath);
  });

  it("opens the fixture repository itself", async () => {
    const fixture = await Workspace.open(FIXTURE_REPO);
    expect((await fixture.resolve("README.md")).kind).toBe("file");
  });
});
