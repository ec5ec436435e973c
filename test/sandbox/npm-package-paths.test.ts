import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { npmPackagePaths } from "../../src/sandbox/npm-package-paths.js";

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "gadfly-npm-paths-")));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function pkg(directory: string, files: string[] = []): Promise<void> {
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, "package.json"), "{}\n");
  for (const file of files) {
    await mkdir(join(directory, file, ".."), { recursive: true });
    await writeFile(join(directory, file), "");
  }
}

describe("npmPackagePaths", () => {
  it("a scoped wrapper: its package and the same-named platform packages beside it, nothing else", async () => {
    const scope = join(root, "lib/node_modules/@openai");
    await pkg(join(scope, "codex"), ["bin/codex.js"]);
    await pkg(join(scope, "codex-linux-x64"));
    await pkg(join(scope, "codex-linux-arm64"));
    await pkg(join(scope, "codexer"));
    await pkg(join(scope, "other"));
    expect((await npmPackagePaths(join(scope, "codex/bin/codex.js"))).sort()).toEqual([
      join(scope, "codex"),
      join(scope, "codex-linux-arm64"),
      join(scope, "codex-linux-x64"),
    ]);
  });

  it("an unscoped package, from a program deep in it; its own node_modules come with its root", async () => {
    const modules = join(root, "lib/node_modules");
    await pkg(join(modules, "gemini"), ["dist/src/cli/index.js"]);
    await pkg(join(modules, "gemini/node_modules/dep"));
    await pkg(join(modules, "unrelated"));
    expect(await npmPackagePaths(join(modules, "gemini/dist/src/cli/index.js"))).toEqual([
      join(modules, "gemini"),
    ]);
  });

  it("nothing for a program outside a node_modules tree", async () => {
    await pkg(join(root, "opt/agent"), ["bin/agent"]);
    expect(await npmPackagePaths(join(root, "opt/agent/bin/agent"))).toEqual([]);
    expect(await npmPackagePaths("/usr/bin/env")).toEqual([]);
  });
});
