import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, spawnApp, startStack } from "./harness.js";

describe("an unusable data directory", { timeout: 30_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  const startAndWaitForExit = async (dataDir: string) => {
    const started = Date.now();
    const spawned = await spawnApp(stack, { GADFLY_DATA_DIR: dataDir });
    const timer = setTimeout(() => spawned.process.kill("SIGKILL"), 10_000);
    const code = await spawned.exited;
    clearTimeout(timer);
    return { code, elapsed: Date.now() - started, output: spawned.output() };
  };

  const expectOneClearLine = (
    result: { code: number | null; elapsed: number; output: string },
    path: string,
  ) => {
    expect(result.code).toBe(1);
    expect(result.elapsed).toBeLessThan(8_000);
    const lines = result.output.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gadfly: /);
    expect(lines[0]).toContain(path);
    expect(result.output).not.toMatch(/\n\s+at /);
  };

  it("a corrupt store file: exits at once with one line naming the file", async () => {
    const dataDir = join(stack.dir, "corrupt");
    await mkdir(dataDir);
    const file = join(dataDir, "gadfly.sqlite");
    await writeFile(file, "this is not a SQLite database\n".repeat(200));
    const result = await startAndWaitForExit(dataDir);
    expectOneClearLine(result, file);
    expect(result.output).toMatch(/not a readable SQLite database/);
  });

  it("a data directory under a regular file: exits at once with one line naming the path", async () => {
    const blocker = join(stack.dir, "blocker");
    await writeFile(blocker, "a file, not a directory\n");
    const dataDir = join(blocker, "data");
    const result = await startAndWaitForExit(dataDir);
    expectOneClearLine(result, dataDir);
  });
});
