import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonReport } from "../../src/cli/schema.js";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { runGadfly } from "./run-gadfly.js";

const FILE = "src/session-token.ts";
const CLEAN =
  "I read the change.\n\nVERDICT: No material issues found\n```gadfly-findings\n[]\n```";

let sandbox: Sandbox;
let repository: GitRepository;
let ollama: FakeOllamaServer;
let configPath: string;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  await repository.write(FILE, 'export const token = "";\n');
  repository.commit("Session tokens: a stub");
  await repository.write(FILE, "export const token = String(Math.random());\n");
  repository.commit("Session tokens: random");
  ollama = await startFakeOllamaServer();
  for (const model of ["alpha", "beta"]) ollama.script(model, () => ({ text: CLEAN }));
  configPath = join(sandbox.root, "gadfly.config.yml");
  // One reviewer at a time and a round cap of 1 token: the first lens runs, no other starts.
  await writeFile(
    configPath,
    `providers:
  - { name: local, type: ollama, host: "${ollama.url}" }
models:
  - { id: alpha, provider: local }
  - { id: beta, provider: local }
review:
  lenses: [security, correctness]
  concurrency: 1
  verify: false
  timeoutSeconds: 30
budget:
  roundTokens: 1
  dailyTokens: 1
`,
  );
});

afterAll(async () => {
  await Promise.all([ollama?.close(), repository?.remove(), sandbox?.remove()]);
});

describe("gadfly review under a budget", () => {
  it("honours the round cap: the lenses not started are skipped, said so, and never sent", async () => {
    const run = await runGadfly(
      [
        "review",
        "--base",
        "main~1",
        "--head",
        "main",
        "--config",
        configPath,
        "--format",
        "json",
        "--no-progress",
      ],
      { cwd: repository.root, env: sandbox.env },
    );
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as JsonReport;
    const outcomes = report.models.flatMap((model) =>
      model.lenses.map((lens) => `${model.id}/${lens.lens}:${lens.outcome} ${lens.failure ?? ""}`),
    );
    expect(outcomes).toEqual([
      "alpha/security:done ",
      "alpha/correctness:skipped budget reached — round cap of 1 token",
      "beta/security:skipped budget reached — round cap of 1 token",
      "beta/correctness:skipped budget reached — round cap of 1 token",
    ]);
    // Only alpha's security lens reached the model server (daily caps have no installation here).
    expect(ollama.requests.map((request) => `${request.model}/${request.lens}`)).toEqual([
      "alpha/security",
    ]);
  });
});
