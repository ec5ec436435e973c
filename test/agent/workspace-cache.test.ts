import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Workspace } from "../../src/agent/workspace.js";
import { type TemporaryWorkspace, temporaryWorkspace } from "./helpers/temporary-workspace.js";

// The sessions of a round share one Workspace: what it learnt about a path (resolve) and a
// file's bytes (read) are kept for the round. These tests pin what is kept and that nothing
// kept lets a path out of the workspace.
describe("Workspace caches", () => {
  let temporary: TemporaryWorkspace;

  beforeEach(async () => {
    temporary = await temporaryWorkspace();
    await temporary.link("leak.txt", `${temporary.outside}/secret.txt`);
    await temporary.link("escape", temporary.outside);
    await temporary.link("alias.js", "src/db.js");
  });
  afterEach(() => temporary.remove());

  it("checks a path on disk once per workspace, whatever its spelling", async () => {
    const workspace = await Workspace.open(temporary.root);
    const first = await workspace.resolve("src/db.js");
    await rm(join(temporary.root, "src", "db.js"));
    // Kept under its normalized relative path: the snapshot does not change during a round.
    expect(await workspace.resolve("./src//db.js")).toEqual(first);
    // A workspace opened afterwards looks again.
    await expect((await Workspace.open(temporary.root)).resolve("src/db.js")).rejects.toThrow(
      /^not found: src\/db\.js$/,
    );
  });

  it("refuses an escaping path every time it is asked, in any spelling, after inside paths were kept", async () => {
    const workspace = await Workspace.open(temporary.root);
    await workspace.resolve(".");
    await workspace.resolve("alias.js");
    await workspace.resolve("src/db.js");
    for (let attempt = 0; attempt < 2; attempt++) {
      for (const path of ["leak.txt", "./leak.txt", "leak.txt/", "escape", "escape/secret.txt"]) {
        await expect(workspace.resolve(path)).rejects.toThrow(/resolves outside the repository/);
      }
      await expect(workspace.resolve("src/../../outside/secret.txt")).rejects.toThrow(
        /may not contain "\.\."/,
      );
      await expect(workspace.resolve("src/no-such-file.js")).rejects.toThrow(/^not found/);
    }
  });

  it("keeps file contents within its byte budget, the oldest dropped first", async () => {
    await temporary.write("a.txt", "a".repeat(100));
    await temporary.write("b.txt", "b".repeat(100));
    const workspace = await Workspace.open(temporary.root, { contentBudget: 150 });
    const a = await workspace.resolve("a.txt");
    const b = await workspace.resolve("b.txt");
    expect((await workspace.read(a)).toString()).toBe("a".repeat(100));
    // Kept: the change on disk is not seen.
    await writeFile(join(temporary.root, "a.txt"), "A".repeat(100));
    expect((await workspace.read(a)).toString()).toBe("a".repeat(100));
    // b does not fit beside a: a is dropped and read again from disk.
    expect((await workspace.read(b)).toString()).toBe("b".repeat(100));
    expect((await workspace.read(a)).toString()).toBe("A".repeat(100));
    // Nothing larger than the whole budget is kept.
    await temporary.write("big.txt", "c".repeat(200));
    const big = await workspace.resolve("big.txt");
    expect((await workspace.read(big)).length).toBe(200);
    await writeFile(join(temporary.root, "big.txt"), "d".repeat(200));
    expect((await workspace.read(big)).toString()).toBe("d".repeat(200));
  });
});
