import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonReport } from "../../src/cli/schema.js";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelRequest, FakeReply, FakeScript } from "../fakes/model-script.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { runGadfly } from "./run-gadfly.js";

const OLLAMA_KEY = "ollama-e2e-key-5f2c";
const OPENAI_KEY = "sk-e2e-openai-key-9d41";
const TOKEN_FILE = "src/session-token.ts";

const BASE_SOURCE = `export function sessionToken(): string {
  return "";
}
`;
// The bug the scripted models find: tokens from Math.random.
const HEAD_SOURCE = `export function sessionToken(): string {
  let token = "";
  for (let index = 0; index < 32; index++) {
    token += Math.floor(Math.random() * 16).toString(16);
  }
  return token;
}
`;

function block(findings: object[]): string {
  return `\`\`\`gadfly-findings\n${JSON.stringify(findings)}\n\`\`\``;
}

const predictableToken = {
  file: TOKEN_FILE,
  line: 4,
  end_line: 4,
  severity: "high",
  confidence: "high",
  title: "Session tokens come from Math.random, which is predictable",
  body: "`Math.random` is not a cryptographic generator: use `crypto.randomBytes(16).toString('hex')`.",
};
const predictableTokenAgain = {
  ...predictableToken,
  line: 3,
  end_line: 5,
  title: "Predictable session token generated with Math.random",
  body: "An attacker who observes a few tokens can predict the next: Math.random is not a CSPRNG.",
};

function isVerification(request: FakeModelRequest): boolean {
  const last = request.messages.at(-1);
  return last?.role === "user" && String(last.content).startsWith("Verification pass");
}

/** A reviewer that reads the file first, answers with `findings`, and keeps them all when verifying. */
function reviewer(findings: object[]): FakeScript {
  return (request): FakeReply => {
    if (isVerification(request)) {
      return {
        text: `Re-read the file: all hold.\n\nVERDICT: Significant issues\n${block(findings)}`,
      };
    }
    // The first turn of a review: nothing answered yet.
    if (!request.messages.some((message) => message.role === "assistant")) {
      return { toolCalls: [{ name: "read_file", arguments: { path: TOKEN_FILE } }] };
    }
    const verdict = findings.length === 0 ? "No material issues found" : "Significant issues";
    return { text: `I read ${TOKEN_FILE}.\n\nVERDICT: ${verdict}\n${block(findings)}` };
  };
}

let sandbox: Sandbox;
let repository: GitRepository;
let ollama: FakeOllamaServer;
let openai: FakeOpenAIServer;
let configPath: string;
/** NODE_OPTIONS that make the global fetch throw: the CLI's clients use a node fetch of their own. */
let noGlobalFetch: string;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  await repository.write(TOKEN_FILE, BASE_SOURCE);
  repository.commit("Session tokens: a stub");
  await repository.write(TOKEN_FILE, HEAD_SOURCE);
  repository.commit("Session tokens: random hex");

  ollama = await startFakeOllamaServer({ apiKey: OLLAMA_KEY });
  openai = await startFakeOpenAIServer({ apiKey: OPENAI_KEY });
  ollama
    .script("glm-test", reviewer([predictableToken]), { lens: "security" })
    .script("glm-test", reviewer([]), { lens: "correctness" });
  openai
    .script("gpt-test", reviewer([predictableTokenAgain]), { lens: "security" })
    .script("gpt-test", reviewer([]), { lens: "correctness" });

  const preload = join(sandbox.root, "no-global-fetch.mjs");
  await writeFile(
    preload,
    'globalThis.fetch = async () => { throw new Error("the CLI called the global fetch"); };\n',
  );
  noGlobalFetch = `--import=${pathToFileURL(preload).href}`;

  configPath = join(sandbox.root, "gadfly.config.yml");
  await writeFile(
    configPath,
    `providers:
  - name: local-ollama
    type: ollama
    host: ${ollama.url}
    apiKeyEnv: E2E_OLLAMA_KEY
  - name: openai
    type: openai
    baseURL: ${openai.url}/v1
    apiKeyEnv: E2E_OPENAI_KEY
models:
  - { id: "glm-test", provider: local-ollama }
  - { id: "gpt-test", provider: openai }
review:
  lenses: [security, correctness]
  timeoutSeconds: 30
`,
  );
});

afterAll(async () => {
  await Promise.all([ollama?.close(), openai?.close(), repository?.remove(), sandbox?.remove()]);
});

const withKeys = () => ({ ...sandbox.env, E2E_OLLAMA_KEY: OLLAMA_KEY, E2E_OPENAI_KEY: OPENAI_KEY });

function reviewArguments(...extra: string[]): string[] {
  const range = ["--base", "main~1", "--head", "main"];
  return [
    "review",
    ...range,
    "--config",
    configPath,
    "--format",
    "json",
    "--no-progress",
    ...extra,
  ];
}

describe("gadfly review of a local git range against real protocol clients", () => {
  let recorded: string;

  it("reviews the commits with the configured models and reports their agreement", async () => {
    // Its model clients never reach the global fetch (undici's wasm parser, compiled on first use).
    const run = await runGadfly(reviewArguments("--record", "recordings"), {
      cwd: repository.root,
      env: { ...withKeys(), NODE_OPTIONS: noGlobalFetch },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    recorded = run.stdout;
    const report = JSON.parse(recorded) as JsonReport;
    expect(report.headSha).toBe(repository.git("rev-parse", "main").trim());
    expect(report.baseSha).toBe(repository.git("rev-parse", "main~1").trim());
    expect(report.modelCount).toBe(2);
    expect(report.verdict).toBe("Significant issues");
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({
      file: TOKEN_FILE,
      agreement: "2/2",
      models: ["glm-test", "gpt-test"],
    });

    // Both protocols were really spoken, with the keys from the environment.
    expect(ollama.unauthorized + openai.unauthorized).toBe(0);
    expect(ollama.callCount("glm-test")).toBeGreaterThanOrEqual(5);
    expect(openai.callCount("gpt-test")).toBeGreaterThanOrEqual(5);
    // The tool the models asked for read the head commit's file.
    const toolResult = ollama.requests
      .flatMap((request) => request.messages)
      .find((message) => message.role === "tool");
    expect(String(toolResult?.content)).toContain("Math.random()");

    const saved = await readdir(join(repository.root, "recordings"), { recursive: true });
    expect(saved.filter((path) => path.endsWith(".json")).sort()).toEqual([
      "glm-test/correctness.json",
      "glm-test/security.json",
      "gpt-test/correctness.json",
      "gpt-test/security.json",
    ]);
  });

  it("--replay reproduces the recorded run byte for byte without calling any model", async () => {
    const calls = [ollama.requests.length, openai.requests.length];
    // No keys at all: replay needs none.
    const run = await runGadfly(reviewArguments("--replay", "recordings"), {
      cwd: repository.root,
      env: sandbox.env,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(recorded);
    expect([ollama.requests.length, openai.requests.length]).toEqual(calls);
  });

  it("--fail-on high exits 1 on the high finding; medium findings alone would not", async () => {
    const run = await runGadfly(reviewArguments("--replay", "recordings", "--fail-on", "high"), {
      cwd: repository.root,
      env: sandbox.env,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(recorded);

    // The same recordings, with the finding's severity lowered to medium in each of them.
    for (const model of ["glm-test", "gpt-test"]) {
      const path = join(repository.root, "recordings", model, "security.json");
      const text = await readFile(path, "utf8");
      await writeFile(
        path,
        text.replaceAll('\\"severity\\":\\"high\\"', '\\"severity\\":\\"medium\\"'),
      );
    }
    const lowered = await runGadfly(
      reviewArguments("--replay", "recordings", "--fail-on", "high"),
      {
        cwd: repository.root,
        env: sandbox.env,
      },
    );
    expect(lowered.stderr).toBe("");
    expect(lowered.code).toBe(0);
    const report = JSON.parse(lowered.stdout) as JsonReport;
    expect(report.findings.map((finding) => finding.severity)).toEqual(["medium"]);
  });
});
