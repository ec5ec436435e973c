import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyScrubbedWorkspace, DEFAULT_REMOVED_PATHS } from "../../src/sandbox/index.js";

let scratch: string;
let source: string;
let target: string;

beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "gadfly-copy-")));
  source = join(scratch, "snapshot");
  target = join(scratch, "copy");
  await mkdir(source);
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function put(relative: string, content = relative): Promise<void> {
  await mkdir(dirname(join(source, relative)), { recursive: true });
  await writeFile(join(source, relative), content);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

describe("copyScrubbedWorkspace", () => {
  it("copies the tree and leaves out agent configuration at any depth, keeping instruction documents", async () => {
    await put("src/a.ts", "export const a = 1;\n");
    await put("CLAUDE.md");
    await put("AGENTS.md");
    await put(".claude/settings.json");
    await put(".claude/hooks/run.sh");
    await put("packages/app/.claude/settings.local.json");
    await put("packages/app/.mcp.json");
    await put("packages/app/src/b.ts");
    await put(".github/hooks/probe.json");
    await put(".github/workflows/ci.yml");
    await put(".vscode/mcp.json");
    await put(".vscode/settings.json");
    await put(".env");
    const copy = await copyScrubbedWorkspace({
      source,
      target,
      removePaths: DEFAULT_REMOVED_PATHS,
    });
    expect(await readFile(join(target, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    for (const kept of [
      "CLAUDE.md",
      "AGENTS.md",
      "packages/app/src/b.ts",
      ".github/workflows/ci.yml",
      ".vscode/settings.json",
    ]) {
      expect(await exists(join(target, kept)), kept).toBe(true);
    }
    for (const gone of [
      ".claude",
      "packages/app/.claude",
      "packages/app/.mcp.json",
      ".github/hooks",
      ".vscode/mcp.json",
      ".env",
    ]) {
      expect(await exists(join(target, gone)), gone).toBe(false);
    }
    expect(copy.removed.sort()).toEqual(
      [
        ".claude",
        ".env",
        ".github/hooks",
        ".vscode/mcp.json",
        "packages/app/.claude",
        "packages/app/.mcp.json",
      ].sort(),
    );
    // The snapshot itself is untouched.
    expect(await exists(join(source, ".claude/settings.json"))).toBe(true);
  });

  it("removes a provider's extra paths; a leading / anchors one at the root", async () => {
    await put(".aiconfig/x.json");
    await put("deep/.aiconfig/y.json");
    await put("tools.yml");
    await put("lib/tools.yml");
    const copy = await copyScrubbedWorkspace({
      source,
      target,
      removePaths: [".aiconfig/", "/tools.yml"],
    });
    expect(copy.removed.sort()).toEqual([".aiconfig", "deep/.aiconfig", "tools.yml"]);
    expect(await exists(join(target, "lib/tools.yml"))).toBe(true);
  });

  it("removes a link carrying a configuration name, whatever it points at", async () => {
    await put("docs/claude-settings/settings.json");
    await symlink("docs/claude-settings", join(source, ".claude"));
    await copyScrubbedWorkspace({ source, target, removePaths: DEFAULT_REMOVED_PATHS });
    expect(await exists(join(target, ".claude"))).toBe(false);
  });

  it("drops a link standing for a removed path's leading directory, which would show it under the removed name", async () => {
    // `.github -> gh` would show gh/hooks as .github/hooks, the hooks Copilot CLI loads.
    await put("gh/hooks/hooks.json", '{"run": "curl attacker"}');
    await symlink("gh", join(source, ".github"));
    await put("pkg/tools/hooks/x.json");
    await symlink("tools", join(source, "pkg/.github"));
    await put("ide/mcp.json");
    await symlink("ide", join(source, ".vscode"));
    await put("anchored/x.yml");
    await symlink("anchored", join(source, "cfg"));
    await symlink("anchored", join(source, "lib-cfg"));
    const copy = await copyScrubbedWorkspace({
      source,
      target,
      removePaths: [...DEFAULT_REMOVED_PATHS, "/cfg/x.yml"],
    });
    for (const path of [".github", "pkg/.github", ".vscode", "cfg"]) {
      expect(await exists(join(target, path)), path).toBe(false);
      expect(copy.removed).toContain(path);
    }
    expect(await exists(join(target, ".github/hooks/hooks.json"))).toBe(false);
    // The directories themselves, under their own names, and an unrelated link stay.
    expect(await exists(join(target, "gh/hooks/hooks.json"))).toBe(true);
    expect(await readlink(join(target, "lib-cfg"))).toBe("anchored");
  });

  it("keeps links that stay inside (as relative links into the copy) and drops the others", async () => {
    await put("docs/README.md", "inside");
    await put("secret-outside", "outside");
    await mkdir(join(source, "nested/deeper"), { recursive: true });
    await symlink("docs/README.md", join(source, "README.md"));
    await symlink(join(source, "docs/README.md"), join(source, "absolute-inside.md"));
    await symlink("/etc/passwd", join(source, "passwd"));
    await symlink("../../..", join(source, "nested/deeper/up"));
    await symlink("missing", join(source, "dangling"));
    // Lexically inside, really outside: `top` resolves to the root, so `top/..` leaves it.
    await symlink("../..", join(source, "nested/deeper/top"));
    await symlink("nested/deeper/top/../secret-outside", join(source, "sneaky"));
    const outside = join(scratch, "secret-outside");
    await writeFile(outside, "outside the snapshot");
    const copy = await copyScrubbedWorkspace({ source, target, removePaths: [] });
    expect(await readlink(join(target, "README.md"))).toBe("docs/README.md");
    expect(await readlink(join(target, "absolute-inside.md"))).toBe("docs/README.md");
    expect(await readFile(join(target, "absolute-inside.md"), "utf8")).toBe("inside");
    expect(copy.droppedLinks.sort()).toEqual(
      ["dangling", "nested/deeper/up", "passwd", "sneaky"].sort(),
    );
    for (const link of copy.droppedLinks) {
      expect(await exists(join(target, link)), link).toBe(false);
    }
    // The link to the root itself is inside: kept, pointing at the copy's root.
    expect(await realpath(join(target, "nested/deeper/top"))).toBe(await realpath(target));
  });

  it("keeps executable bits and nothing else of the modes", async () => {
    await put("run.sh", "#!/bin/sh\n");
    await put("data.txt");
    const { chmod } = await import("node:fs/promises");
    await chmod(join(source, "run.sh"), 0o4755);
    await chmod(join(source, "data.txt"), 0o666);
    await copyScrubbedWorkspace({ source, target, removePaths: [] });
    expect((await stat(join(target, "run.sh"))).mode & 0o7777).toBe(0o755);
    expect((await stat(join(target, "data.txt"))).mode & 0o7777).toBe(0o644);
  });

  it("stops a copy past its entry or byte bound", async () => {
    for (let index = 0; index < 5; index += 1) await put(`f${index}.txt`, "0123456789");
    await expect(
      copyScrubbedWorkspace({ source, target, removePaths: [], maxEntries: 4 }),
    ).rejects.toThrow("more than 4 entries");
    await expect(
      copyScrubbedWorkspace({
        source,
        target: join(scratch, "copy2"),
        removePaths: [],
        maxBytes: 45,
      }),
    ).rejects.toThrow("larger than the workspace copy allows");
  });

  it("gives every entry to the agent's user when asked (root only)", async () => {
    if (process.getuid?.() !== 0) {
      console.log("skipped: changing owners needs root");
      return;
    }
    await put("src/a.ts");
    await symlink("src/a.ts", join(source, "link"));
    await copyScrubbedWorkspace({
      source,
      target,
      removePaths: [],
      owner: { uid: 65534, gid: 65534 },
    });
    for (const path of ["", "src", "src/a.ts", "link"]) {
      const stats = await lstat(join(target, path));
      expect([stats.uid, stats.gid], path).toEqual([65534, 65534]);
    }
  });
});
