import { readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InvalidModelResponseError,
  ModelAbortedError,
  ModelError,
} from "../../../../src/llm/errors.js";
import {
  type CommandAgentModelOptions,
  createCommandAgentModel,
} from "../../../../src/llm/providers/command/command-agent-model.js";

const FAKE_CLI = fileURLToPath(new URL("../../../fakes/fake-agent-cli.mjs", import.meta.url));
const SECRET = "agent-secret-value-42424242";

let snapshot: string;
/** Where each run's workspace copy and HOME are made, to check they are gone afterwards. */
let runs: string;
/** Every process a test started, so none outlives a failing test. */
const startedPids: number[] = [];

beforeEach(async () => {
  snapshot = await realpath(await mkdtemp(join(tmpdir(), "gadfly-command-")));
  runs = await realpath(await mkdtemp(join(tmpdir(), "gadfly-command-runs-")));
});

afterEach(async () => {
  for (const pid of startedPids.splice(0)) {
    if (isAlive(pid)) {
      process.kill(pid, "SIGKILL");
    }
  }
  await rm(snapshot, { recursive: true, force: true });
  await rm(runs, { recursive: true, force: true });
});

function agent(
  mode: string,
  overrides: Partial<CommandAgentModelOptions> = {},
  extra: string[] = [],
) {
  return createCommandAgentModel({
    provider: {
      name: "fake-agent",
      command: [process.execPath, FAKE_CLI, "--mode", mode, "--model", "{model}", ...extra],
      env: ["FAKE_AGENT_SECRET"],
    },
    modelId: "fake-agent/opus",
    model: "opus",
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? "/tmp",
      LANG: "C.UTF-8",
      FAKE_AGENT_SECRET: SECRET,
      GITHUB_PRIVATE_KEY: "not for agents",
      OPENAI_API_KEY: "sk-not-for-agents-123456",
    },
    temporaryRoot: runs,
    ...overrides,
  });
}

/** Alive and not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 2_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error("condition not met in time");
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function readPids(file: string): Promise<number[]> {
  await eventually(async () => (await readFile(file, "utf8").catch(() => "")).includes("\n"));
  const pids = (await readFile(file, "utf8")).trim().split("\n").map(Number);
  startedPids.push(...pids);
  return pids;
}

describe("createCommandAgentModel", () => {
  it("substitutes {model}, runs in a copy of the snapshot, writes the prompt on stdin, and deletes the copy", async () => {
    const result = await agent("plain").run({
      prompt: "Review this PR.\nIt adds eval().",
      cwd: snapshot,
    });
    const cwd = /^cwd=(.*)$/m.exec(result.text)?.[1] ?? "";
    expect(cwd).toMatch(new RegExp(`^${runs}/gadfly-agent-[^/]+/workspace$`));
    expect(result.text).toBe(`model=opus\ncwd=${cwd}\nprompt=Review this PR.\nIt adds eval().`);
    expect(result.transcript).toEqual([]);
    expect(await readdir(runs)).toEqual([]);
  });

  it("parses a Claude Code stream-json transcript: the last turn is the text, earlier turns the transcript", async () => {
    const result = await agent("claude-stream").run({ prompt: "p", cwd: snapshot });
    expect(result.text).toBe("I already delivered the full verdict above.");
    expect(result.transcript).toEqual([
      {
        role: "assistant",
        content: "Let me read the file.",
        toolCalls: [{ id: "toolu_1", name: "Read", arguments: '{"file_path":"src/a.ts"}' }],
      },
      { role: "tool", content: "export const a = 1;", toolCallId: "toolu_1" },
      { role: "assistant", content: "VERDICT: Minor issues\n```gadfly-findings\n[]\n```" },
    ]);
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 30 });
  });

  it("parses generic role/content JSON lines", async () => {
    const result = await agent("generic-jsonl").run({ prompt: "p", cwd: snapshot });
    expect(result.text).toBe("Final answer");
    expect(result.transcript).toEqual([
      {
        role: "assistant",
        content: "Looking for uses.",
        toolCalls: [{ id: "c1", name: "grep", arguments: '{"pattern":"x"}' }],
      },
      { role: "tool", content: "src/a.ts:1:x", toolCallId: "c1" },
    ]);
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 3 });
  });

  it("gives the child only PATH, LANG, the variables the provider lists, a HOME of its own, git's guard settings and the run's mark", async () => {
    const result = await agent("env").run({ prompt: "p", cwd: snapshot });
    expect(result.text).toBe(
      `ENV ${JSON.stringify([
        "FAKE_AGENT_SECRET",
        "GADFLY_AGENT_RUN",
        "GIT_CEILING_DIRECTORIES",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_KEY_0",
        "GIT_CONFIG_KEY_1",
        "GIT_CONFIG_KEY_2",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_CONFIG_VALUE_0",
        "GIT_CONFIG_VALUE_1",
        "GIT_CONFIG_VALUE_2",
        "HOME",
        "LANG",
        "PATH",
        "TMPDIR",
        "XDG_CACHE_HOME",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
      ])}`,
    );
  });

  it("fails with the end of stderr as the reason, the secrets it was given redacted", async () => {
    const error = (await agent("fail", {}, ["--exit-code", "3"])
      .run({ prompt: "p", cwd: snapshot })
      .catch((caught: unknown) => caught)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toBe(
      "fake-agent: node exited with code 3: starting review Error: authentication failed with key [redacted]",
    );
    expect(error.publicMessage).not.toContain(SECRET);
    // The board gets how it ended; the stderr tail (raw output) is for the log only.
    expect(error.publicMessage).toBe(
      "fake-agent: node exited with code 3 (its error output is in the log)",
    );
    expect(error.isRetryable).toBe(false);
  });

  it("kills the agent and the tools it started when aborted, and settles once they are gone", async () => {
    const pidFile = join(snapshot, "pids");
    const controller = new AbortController();
    const run = agent("sleep-with-child", {}, ["--pid-file", pidFile]).run({
      prompt: "p",
      cwd: snapshot,
      signal: controller.signal,
    });
    const [pid, grandchild] = await readPids(pidFile);
    expect(pid !== undefined && isAlive(pid)).toBe(true);
    expect(grandchild !== undefined && isAlive(grandchild)).toBe(true);
    const started = Date.now();
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(ModelAbortedError);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(isAlive(pid ?? 0)).toBe(false);
    await eventually(() => !isAlive(grandchild ?? 0));
  });

  it("sends SIGKILL after the grace period to an agent ignoring SIGTERM", async () => {
    const pidFile = join(snapshot, "pids");
    const controller = new AbortController();
    const run = agent("sleep-ignore-term", { killGraceMs: 100 }, ["--pid-file", pidFile]).run({
      prompt: "p",
      cwd: snapshot,
      signal: controller.signal,
    });
    const [pid] = await readPids(pidFile);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(ModelAbortedError);
    expect(isAlive(pid ?? 0)).toBe(false);
  });

  it("does not start at all when already aborted", async () => {
    const pidFile = join(snapshot, "pids");
    await expect(
      agent("sleep", {}, ["--pid-file", pidFile]).run({
        prompt: "p",
        cwd: snapshot,
        signal: AbortSignal.abort(),
      }),
    ).rejects.toBeInstanceOf(ModelAbortedError);
    await expect(readFile(pidFile, "utf8")).rejects.toThrow();
  });

  it("kills what the agent left running when it exits", async () => {
    const pidFile = join(snapshot, "pids");
    const result = await agent("leave-child", {}, ["--pid-file", pidFile]).run({
      prompt: "p",
      cwd: snapshot,
    });
    expect(result.text).toBe("answer while a tool keeps running");
    const [, grandchild] = await readPids(pidFile);
    await eventually(() => !isAlive(grandchild ?? 0));
  });

  it("stops an agent whose output passes the cap, with a clear error", async () => {
    await expect(
      agent("huge", { maxOutputBytes: 1_000 }, ["--bytes", "5000"]).run({
        prompt: "p",
        cwd: snapshot,
      }),
    ).rejects.toThrow("fake-agent: node wrote more than 1000 bytes on stdout and was stopped");
    await expect(
      agent("huge", { maxOutputBytes: 1_000 }, ["--bytes", "1000"]).run({
        prompt: "p",
        cwd: snapshot,
      }),
    ).resolves.toMatchObject({ text: "x".repeat(1_000) });
  });

  it("fails clearly when the agent writes nothing", async () => {
    await expect(
      agent("huge", {}, ["--bytes", "0"]).run({ prompt: "p", cwd: snapshot }),
    ).rejects.toThrow(InvalidModelResponseError);
  });

  it("fails clearly when the command does not exist", async () => {
    const model = createCommandAgentModel({
      provider: { name: "ghost", command: ["/nonexistent/agent-cli", "{model}"], env: [] },
      modelId: "ghost",
      model: "m",
      env: {},
    });
    await expect(model.run({ prompt: "p", cwd: snapshot })).rejects.toThrow(
      "ghost: cannot run agent-cli (ENOENT)",
    );
  });
});
