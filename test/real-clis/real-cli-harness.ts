import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SandboxConfig } from "../../src/config/schema.js";
import type { AgentModel } from "../../src/llm/index.js";
import {
  type CommandAgentModelOptions,
  createCommandAgentModel,
} from "../../src/llm/providers/command/command-agent-model.js";
import {
  type AgentIsolation,
  detectIsolation,
  type IsolationLevel,
} from "../../src/sandbox/index.js";

/**
 * What every real-CLI test sets up: a scratch directory the `user` level's uid can pass
 * through, a world-writable markers directory the planted commands touch (so that whatever
 * ran, at any uid, leaves a trace), and the isolation levels this machine can run.
 */
export interface RealCliHarness {
  scratch: string;
  markers: string;
  levels: Map<IsolationLevel, AgentIsolation>;
  /** `echo PLANTED-<name>-OUTPUT; touch <markers>/<name>`: a planted command's trace. */
  touch(name: string): string;
  /** The planted commands that ran so far. */
  planted(): string[];
  /** Forgets the traces (after the control, which is meant to leave some). */
  clearPlanted(): Promise<void>;
  close(): Promise<void>;
}

export async function openRealCliHarness(prefix: string): Promise<RealCliHarness> {
  const scratch = await realpath(await mkdtemp(join(tmpdir(), `gadfly-real-${prefix}-`)));
  await chmod(scratch, 0o711);
  const markers = join(scratch, "markers");
  await mkdir(markers);
  await chmod(markers, 0o777);
  const levels = new Map<IsolationLevel, AgentIsolation>();
  levels.set("none", await detectIsolation(SandboxConfig.parse({ isolation: "none" })));
  if (process.getuid?.() === 0) {
    levels.set("user", await detectIsolation(SandboxConfig.parse({ isolation: "user" })));
  }
  await detectIsolation(SandboxConfig.parse({ isolation: "bwrap" })).then(
    (isolation) => levels.set("bwrap", isolation),
    () => console.log("bwrap level not tested here"),
  );
  const planted = () => readdirSync(markers);
  return {
    scratch,
    markers,
    levels,
    touch: (name) => `echo PLANTED-${name}-OUTPUT; touch ${markers}/${name}`,
    planted,
    async clearPlanted() {
      for (const name of planted()) await rm(join(markers, name));
    },
    close: () => rm(scratch, { recursive: true, force: true }),
  };
}

/**
 * The CLI run as a user would, without Gadfly (the control): `stdin` as the prompt, its
 * output and exit code; killed after `timeoutMs`.
 */
export function runWithoutGadfly(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string>; stdin: string; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const [program = "", ...args] = argv;
    const child = spawn(program, args, { cwd: options.cwd, env: options.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdin.end(options.stdin);
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The isolation levels each real-CLI test runs its CLI at through Gadfly. */
export const GADFLY_LEVELS = ["none", "user", "bwrap"] as const;

/**
 * The CLI as Gadfly runs it at `level`, in the harness's scratch directory; undefined (and
 * said) when this machine cannot run that level.
 */
export function agentAtLevel(
  harness: RealCliHarness,
  level: IsolationLevel,
  options: Omit<CommandAgentModelOptions, "isolation" | "temporaryRoot" | "killGraceMs">,
): AgentModel | undefined {
  const isolation = harness.levels.get(level);
  if (isolation === undefined) {
    console.log(`skipped: level ${level} cannot run on this machine`);
    return undefined;
  }
  return createCommandAgentModel({
    ...options,
    isolation,
    temporaryRoot: harness.scratch,
    killGraceMs: 1_000,
  });
}
