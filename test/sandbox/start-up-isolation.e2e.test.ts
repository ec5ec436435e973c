import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, spawnApp, startApp, startStack } from "../e2e/harness.js";

let original: string;

/** The stack's config with an agent CLI provider and the given sandbox section. */
async function withAgentProvider(stack: Stack, sandbox: string): Promise<void> {
  const config = original;
  await writeFile(
    stack.configPath,
    config.replace(
      "models:\n",
      [
        "  - name: claude-code",
        "    type: command",
        '    command: ["claude", "-p"]',
        "models:",
        '  - { id: "claude-code/opus", provider: claude-code, model: opus }',
        "",
      ].join("\n"),
    ) + sandbox,
  );
}

describe("agent-CLI isolation at start-up", { timeout: 40_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    original = await readFile(stack.configPath, "utf8");
  });

  afterAll(async () => {
    await stack?.close();
  });

  it("logs the level in force once and makes the data directory private", async () => {
    await withAgentProvider(stack, "sandbox:\n  isolation: auto\n");
    await mkdir(stack.dataDir, { mode: 0o755 });
    const app = await startApp(stack);
    try {
      const lines = app
        .output()
        .split("\n")
        .filter((line) => line.includes('"isolation"'));
      expect(lines).toHaveLength(1);
      const entry = JSON.parse(lines[0] ?? "{}") as { isolation: string; msg: string };
      console.log(`start-up: ${entry.isolation}: ${entry.msg}`);
      expect(["bwrap", "user", "none"]).toContain(entry.isolation);
      if (entry.isolation === "bwrap") {
        expect(entry.msg).toBe("agent CLIs isolated with bubblewrap");
      } else {
        expect(entry.msg).toContain("command providers skip pull requests from forks");
      }
      expect((await stat(stack.dataDir)).mode & 0o777).toBe(0o700);
    } finally {
      await app.stop();
    }
  });

  it("refuses to start, in one line naming sandbox.isolation, when bwrap is asked for but missing", async () => {
    await withAgentProvider(stack, "sandbox:\n  isolation: bwrap\n");
    // No bwrap on this PATH: node itself is started by its absolute path.
    const emptyPath = join(stack.dir, "empty-path");
    await mkdir(emptyPath, { recursive: true });
    const spawned = await spawnApp(stack, { PATH: emptyPath });
    const timer = setTimeout(() => spawned.process.kill("SIGKILL"), 20_000);
    const code = await spawned.exited;
    clearTimeout(timer);
    expect(code).toBe(1);
    const lines = spawned.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^gadfly: .*gadfly\.config\.yml: sandbox\.isolation: bwrap was asked for, but bubblewrap does not work here \(bwrap is not installed\)/,
    );
  });
});
