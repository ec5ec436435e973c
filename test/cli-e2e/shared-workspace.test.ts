import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonReport } from "../../src/cli/schema.js";
import { SandboxConfig } from "../../src/config/schema.js";
import { detectIsolation } from "../../src/sandbox/index.js";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { runGadfly } from "./run-gadfly.js";

const FAKE_CLI = fileURLToPath(new URL("../fakes/fake-agent-cli.mjs", import.meta.url));

let sandbox: Sandbox;
let repository: GitRepository;
let temporary: string;
let bwrap = true;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  temporary = await mkdtemp(join(tmpdir(), "gadfly-e2e-tmp-"));
  await repository.write("src/add.ts", "export const add = (a, b) => a + b;\n");
  repository.commit("add");
  await detectIsolation(SandboxConfig.parse({ isolation: "bwrap" })).catch(() => {
    bwrap = false;
  });
});

afterAll(async () => {
  await Promise.all([repository?.remove(), sandbox?.remove()]);
  await rm(temporary, { recursive: true, force: true });
});

describe("gadfly review at bwrap: the lenses' agents share one read-only copy", () => {
  it("a lens that rewrites, deletes or plants files changes nothing another lens reads, and the copy is gone after", async () => {
    if (!bwrap) {
      console.log("skipped: bwrap cannot run on this machine");
      return;
    }
    await repository.write("src/add.ts", "export const add = (a, b) => a + b + 1;\n");
    // Every lens's agent tampers, then reads: whichever runs first, none sees another's change.
    const script = [
      "chmod -R u+w . 2>/dev/null",
      "echo tampered > src/add.ts 2>/dev/null",
      "rm -f src/add.ts 2>/dev/null",
      "touch planted 2>/dev/null",
      "ls | tr '\\n' ' '",
      "cat src/add.ts",
      "echo 'VERDICT: No material issues found'",
      "printf '```gadfly-findings\\n[]\\n```\\n'",
    ].join("; ");
    const config = join(sandbox.root, "gadfly-shared.config.yml");
    await writeFile(
      config,
      `providers:
  - name: tamperer
    type: command
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(FAKE_CLI)}, "--mode", "shell", "--run", ${JSON.stringify(script)}]
    env: []
models:
  - { id: "tamperer/opus", provider: tamperer, model: opus }
sandbox:
  isolation: bwrap
review:
  lenses: [security, correctness, performance]
  verify: false
  timeoutSeconds: 30
`,
    );
    const result = await runGadfly(
      ["review", "--config", config, "--format", "json", "--no-progress"],
      { cwd: repository.root, env: { ...sandbox.env, TMPDIR: temporary } },
    );
    expect(result.code).toBe(0);
    const report = JsonReport.parse(JSON.parse(result.stdout));
    const lenses = report.models[0]?.lenses ?? [];
    expect(lenses).toHaveLength(3);
    for (const lens of lenses) {
      expect(lens.text).toContain("a + b + 1");
      expect(lens.text).not.toContain("tampered");
      expect(lens.text).not.toContain("planted");
    }
    // The working-tree copy, the round's shared copy and every run directory: deleted
    // (tsx, which runs the CLI here, keeps its cache there too).
    expect((await readdir(temporary)).filter((name) => name.startsWith("gadfly-"))).toEqual([]);
  }, 60_000);
});
