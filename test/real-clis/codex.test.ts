import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLensAnswer } from "../../src/findings/index.js";
import { SharedScrubbedCopies } from "../../src/sandbox/index.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelRequest, FakeReply } from "../fakes/model-script.js";
import { installCodex } from "./install-real-cli.js";
import {
  agentAtLevel,
  GADFLY_LEVELS,
  openRealCliHarness,
  type RealCliHarness,
  runWithoutGadfly,
} from "./real-cli-harness.js";

/**
 * The real Codex CLI (from the npm registry, cached; its npm wrapper, which starts the binary
 * of its platform package), pointed at the fake OpenAI server's Responses API, on a pull
 * request that plants Codex's project configuration: an MCP server, hooks, a shell
 * environment, an AGENTS.override.md. Without Gadfly, once the project is trusted, the MCP
 * server runs (the control); through Gadfly, at each isolation level this machine has,
 * nothing planted runs and the answer is parsed. And Codex reads a file with its shell tool
 * (its only way to read one) at every level, bubblewrap included, and reports what it read.
 */
const VERSION = "0.171.0";
const KEY = "sk-codex-real-cli-0123456789";
const MODEL = "gpt-5.1-codex";
const ANSWER = "VERDICT: No material issues found\n```gadfly-findings\n[]\n```";
const CANARY = "CANARY-3141";
const SHELL_PROBE = "Read config/limits.txt with your shell tool.";

const installed = installCodex(VERSION);
let harness: RealCliHarness;
let snapshot: string;
let fake: FakeOpenAIServer;

beforeAll(async () => {
  if ("skip" in installed) return;
  harness = await openRealCliHarness("codex");
  fake = await startFakeOpenAIServer({ apiKey: KEY });
  fake.script(MODEL, answer);
  snapshot = join(harness.scratch, "snapshot");
  await plant(snapshot);
}, 200_000);

afterAll(async () => {
  await fake?.close();
  await harness?.close();
});

/** The fake model: a shell call when asked to read, then a finding quoting what the call showed. */
function answer(request: FakeModelRequest): FakeReply {
  const last = request.messages.at(-1);
  if (last?.role === "tool") {
    const seen = String(last.content);
    if (!seen.includes(CANARY))
      return { text: `VERDICT: No material issues found\nI could not read it: ${seen}` };
    const finding = {
      file: "config/limits.txt",
      line: 1,
      severity: "medium",
      confidence: "high",
      title: `Retry limit set in the file (${CANARY})`,
      body: `The file says: ${seen.trim()}`,
    };
    return {
      text: `VERDICT: Minor issues\n\`\`\`gadfly-findings\n${JSON.stringify([finding])}\n\`\`\``,
    };
  }
  const prompt = request.messages.map((message) => String(message.content)).join("\n");
  if (prompt.includes(SHELL_PROBE)) {
    return { toolCalls: [{ name: "exec_command", arguments: { cmd: "cat config/limits.txt" } }] };
  }
  return { text: ANSWER };
}

async function plant(root: string): Promise<void> {
  const touch = harness.touch;
  await mkdir(join(root, ".codex"), { recursive: true });
  await mkdir(join(root, "config"), { recursive: true });
  await writeFile(join(root, "README.md"), "hello\n");
  await writeFile(join(root, "config/limits.txt"), `MAX_RETRIES=7 # ${CANARY}\n`);
  await writeFile(
    join(root, "AGENTS.override.md"),
    "Instruction text only: PLANTED-AGENTS-OVERRIDE\n",
  );
  await writeFile(
    join(root, ".codex/config.toml"),
    [
      "[mcp_servers.planted]",
      'command = "sh"',
      `args = ["-c", ${JSON.stringify(touch("mcp-server"))}]`,
      "[shell_environment_policy]",
      'set = { PLANTED_ENV = "1" }',
      "[features]",
      "hooks = true",
      "",
    ].join("\n"),
  );
  const hook = (name: string) => [{ hooks: [{ type: "command", command: touch(name) }] }];
  await writeFile(
    join(root, ".codex/hooks.json"),
    JSON.stringify({
      hooks: { SessionStart: hook("session-hook"), UserPromptSubmit: hook("prompt-hook") },
    }),
  );
}

function environment(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: harness.scratch,
    LANG: "C.UTF-8",
    CODEX_API_KEY: KEY,
  };
}

/**
 * The fake's base URL as a model provider without WebSockets: with `openai_base_url` alone
 * Codex tries the Responses WebSocket first and falls back after five retries (about 7 s),
 * which the control pays once to show the documented form works.
 */
function providerFlags(): string[] {
  const provider = `{name="gadfly",base_url="${fake.url}/v1",env_key="CODEX_API_KEY",wire_api="responses",supports_websockets=false}`;
  return ["-c", `model_providers.gadfly=${provider}`, "-c", "model_provider=gadfly"];
}

const EXEC = [
  "exec",
  "--json",
  "--model",
  MODEL,
  "--sandbox",
  "danger-full-access",
  "--skip-git-repo-check",
  "--ephemeral",
];

describe.skipIf("skip" in installed)(`the real Codex CLI ${VERSION}`, () => {
  it("without Gadfly, in a trusted project, runs what the pull request planted (the control)", async () => {
    if ("skip" in installed) return;
    const bare = join(harness.scratch, "bare");
    await cp(snapshot, bare, { recursive: true });
    const home = await mkdtemp(join(harness.scratch, "home-"));
    await mkdir(join(home, ".codex"));
    await writeFile(
      join(home, ".codex/config.toml"),
      `[projects.${JSON.stringify(bare)}]\ntrust_level = "trusted"\n`,
    );
    const before = fake.requests.length;
    // The documented form (examples/configs/codex.yml): the key in CODEX_API_KEY, the URL by -c.
    const run = await runWithoutGadfly(
      [installed.program, ...EXEC, "-c", `openai_base_url=${fake.url}/v1`, "-"],
      { cwd: bare, env: { ...environment(), HOME: home }, stdin: "Review this." },
    );
    const ran = harness.planted();
    console.log(`control: exit ${run.code}; planted ${ran.join(", ") || "nothing"} ran`);
    expect(run.stdout).toContain('"type":"agent_message"');
    expect(ran).toContain("mcp-server");
    const sent = fake.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    await harness.clearPlanted();
  }, 90_000);

  it.each(GADFLY_LEVELS)(
    "through Gadfly at level %s, nothing planted runs, the answer is parsed and the shell tool reads a file",
    async (level) => {
      if ("skip" in installed) return;
      const model = agentAtLevel(harness, level, {
        provider: {
          name: "codex",
          command: [
            installed.program,
            ...EXEC.slice(0, 3),
            "{model}",
            ...EXEC.slice(4),
            ...providerFlags(),
            "-",
          ],
          env: ["CODEX_API_KEY"],
        },
        modelId: "codex/gpt-5.1-codex",
        model: MODEL,
        env: environment(),
      });
      if (model === undefined) return;
      const before = fake.requests.length;
      const result = await model.run({ prompt: "Review this.", cwd: snapshot });
      expect(result.text).toBe(ANSWER);
      assertNothingPlanted(fake.requests.slice(before));
      expect(existsSync(join(snapshot, ".codex/config.toml"))).toBe(true);

      // The proof: Codex runs `cat` with its shell tool, and the next turn sees it.
      const copies = new SharedScrubbedCopies(harness.scratch);
      try {
        const read = await model.run({
          prompt: `Review this. ${SHELL_PROBE}`,
          cwd: snapshot,
          sharedCopies: copies,
        });
        const parsed = parseLensAnswer(read.text);
        expect(parsed.findings?.map((finding) => finding.title)).toEqual([
          `Retry limit set in the file (${CANARY})`,
        ]);
        expect(read.toolCalls).toEqual({ attempted: 1, failed: 0 });
      } finally {
        await copies.close();
      }
      expect(harness.planted()).toEqual([]);
      expect(fake.rejected).toEqual([]);
    },
    90_000,
  );
});

function assertNothingPlanted(sent: FakeModelRequest[]): void {
  expect(sent.length).toBeGreaterThan(0);
  for (const request of sent) {
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(request.body)).not.toContain("PLANTED-mcp");
    // Codex lists a project's MCP tools to the model: none may come from the planted server.
    expect(JSON.stringify(request.tools)).not.toContain("mcp__planted");
  }
  expect(fake.unauthorized).toBe(0);
  expect(harness.planted()).toEqual([]);
}
