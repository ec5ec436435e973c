import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonReport } from "../../src/cli/schema.js";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { runGadfly } from "./run-gadfly.js";

const FAKE_CLI = fileURLToPath(new URL("../fakes/fake-agent-cli.mjs", import.meta.url));
const AGENT_SECRET = "agent-key-e2e-5f5f5f5f5f5f";

let sandbox: Sandbox;
let repository: GitRepository;
let openai: FakeOpenAIServer;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  await repository.write("src/add.ts", "export const add = (a, b) => a + b;\n");
  repository.commit("add");
  await repository.write("src/add.ts", "export const add = (a, b) => a + b + 0;\n");
  repository.commit("add, changed");
  openai = await startFakeOpenAIServer();
  openai.script("gpt-cloud", [
    { text: "VERDICT: No material issues found\n```gadfly-findings\n[]\n```" },
  ]);
});

afterAll(async () => {
  await Promise.all([openai?.close(), repository?.remove(), sandbox?.remove()]);
});

async function writeConfig(withChatModel: boolean): Promise<string> {
  const path = join(sandbox.root, `gadfly-${withChatModel}.config.yml`);
  await writeFile(
    path,
    `providers:
  - name: fake-agent
    type: command
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(FAKE_CLI)}, "--mode", "fail"]
    env: [FAKE_AGENT_SECRET]
  - name: openai
    type: openai
    baseURL: ${openai.url}/v1
models:
  - { id: "fake-agent/opus", provider: fake-agent, model: opus }
${withChatModel ? '  - { id: "gpt-cloud", provider: openai }\n' : ""}sandbox:
  isolation: none
review:
  lenses: [security]
  verify: false
  timeoutSeconds: 30
`,
  );
  return path;
}

const run = (config: string, format: string) =>
  runGadfly(
    [
      "review",
      "--base",
      "main~1",
      "--head",
      "main",
      "--config",
      config,
      "--format",
      format,
      "--no-progress",
    ],
    { cwd: repository.root, env: { ...sandbox.env, FAKE_AGENT_SECRET: AGENT_SECRET } },
  );

describe("the agent's workspace in a working-tree review", () => {
  it("holds neither .git nor a gitignored .npmrc with a token: the agent cannot quote them", async () => {
    const token = "npm_WORKTREETOKEN0123456789abcdef";
    await repository.write(".gitignore", ".npmrc\n");
    repository.commit("ignore .npmrc");
    await repository.write(".npmrc", `//registry.npmjs.org/:_authToken=${token}\n`);
    await repository.write("src/add.ts", "export const add = (a, b) => a + b + 1;\n");
    await repository.write("src/new.ts", "export const created = 1;\n");
    const config = join(sandbox.root, "gadfly-listing.config.yml");
    // The agent lists its workspace, tries the secrets, then answers clean.
    const script = [
      "find . | sort | tr '\\n' ' '",
      "echo",
      "cat .npmrc .git/config 2>&1 | tr '\\n' ' '",
      "echo",
      "echo 'VERDICT: No material issues found'",
      "printf '```gadfly-findings\\n[]\\n```\\n'",
    ].join("; ");
    await writeFile(
      config,
      `providers:
  - name: lister
    type: command
    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(FAKE_CLI)}, "--mode", "shell", "--run", ${JSON.stringify(script)}]
    env: []
models:
  - { id: "lister/opus", provider: lister, model: opus }
review:
  lenses: [security]
  verify: false
  timeoutSeconds: 30
`,
    );
    const result = await runGadfly(
      ["review", "--config", config, "--format", "json", "--no-progress"],
      {
        cwd: repository.root,
        env: sandbox.env,
      },
    );
    expect(result.code).toBe(0);
    const report = JsonReport.parse(JSON.parse(result.stdout));
    const answer = report.models[0]?.lenses[0]?.text ?? "";
    expect(answer).toContain("./src/add.ts");
    expect(answer).toContain("./src/new.ts");
    expect(answer).toContain("./.gitignore");
    expect(answer).not.toContain("./.npmrc");
    expect(answer).not.toMatch(/\.\/\.git( |\/)/);
    expect(answer).toContain("No such file");
    expect(`${result.stdout}${result.stderr}`).not.toContain(token);
  });
});

describe("gadfly review with a failing agent CLI", () => {
  it("prints the agent's own error on stderr, its key redacted, when no model completed", async () => {
    const result = await run(await writeConfig(false), "text");
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      "gadfly: fake-agent/opus · security: fake-agent: node exited with code 1: starting review Error: authentication failed with key",
    );
    expect(result.stderr).toContain("gadfly: no model completed the review");
    expect(`${result.stderr}${result.stdout}`).not.toContain(AGENT_SECRET);
  });

  it("gives the error in the JSON report (error, per failed lens) and under the lens in the text one", async () => {
    const config = await writeConfig(true);
    const json = await run(config, "json");
    expect(json.code).toBe(0);
    const report = JsonReport.parse(JSON.parse(json.stdout));
    const [agent, chat] = report.models;
    expect(agent?.lenses[0]).toMatchObject({
      outcome: "failed",
      failure: "fake-agent: node exited with code 1 (its error output is in the log)",
      error: expect.stringContaining("authentication failed with key"),
    });
    expect(agent?.lenses[0]?.error).not.toContain(AGENT_SECRET);
    expect(chat?.lenses[0]).toMatchObject({ outcome: "done", error: null });
    expect(json.stderr).toContain("authentication failed with key");

    openai.script("gpt-cloud", [
      { text: "VERDICT: No material issues found\n```gadfly-findings\n[]\n```" },
    ]);
    const text = await run(config, "text");
    expect(text.stdout).toMatch(
      /security failed: fake-agent: node exited with code 1 \(its error output is in the log\)\n\s+error: fake-agent: node exited with code 1: starting review Error: authentication failed with key/,
    );
    expect(text.stdout).not.toContain(AGENT_SECRET);
  });
});
