import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxConfig } from "../config/index.js";
import { ConfigError } from "../config/index.js";
import type { AgentIsolation } from "./agent-isolation.js";
import { buildBwrapArgv } from "./build-bwrap-argv.js";
import { hostSystemMounts } from "./host-system-mounts.js";

/** Whether the probe ran and exited 0, and if not, why (one line). */
export type ProbeResult = { ok: true } | { ok: false; problem: string };

export interface DetectIsolationOptions {
  /** Runs a command line to completion. Default: spawned, 10 s at most. */
  runProbe?: (argv: readonly string[]) => Promise<ProbeResult>;
  getuid?: () => number;
  /** The bubblewrap executable; default `bwrap` from PATH. */
  bwrap?: string;
  /** Named in the error when a level asked for by name does not work. */
  configSource?: string;
  temporaryRoot?: string;
}

const PROBE_TIMEOUT_MS = 10_000;

/**
 * The strongest isolation that works here, tried for real: bubblewrap when a sandbox
 * built exactly as an agent's would be runs `/bin/sh -c 'exit 0'`; else, when we run as
 * root, a dedicated unprivileged user; else none. A level named in `sandbox.isolation`
 * that does not work is a ConfigError: the operator asked for a protection we cannot give.
 */
export async function detectIsolation(
  config: SandboxConfig,
  options: DetectIsolationOptions = {},
): Promise<AgentIsolation> {
  const bwrap = options.bwrap ?? "bwrap";
  const base = { uid: config.uid, gid: config.gid, bwrap };
  const source = options.configSource ?? "app config";
  if (config.isolation === "none") {
    return { ...base, level: "none", weakerBecause: "sandbox.isolation is none" };
  }
  let bwrapProblem = "sandbox.isolation does not ask for bubblewrap";
  if (config.isolation === "auto" || config.isolation === "bwrap") {
    const probe = await probeBubblewrap(bwrap, config, options);
    if (probe.ok) {
      return { ...base, level: "bwrap", weakerBecause: null };
    }
    bwrapProblem = `bubblewrap does not work here (${probe.problem})`;
    if (config.isolation === "bwrap") {
      throw new ConfigError(source, [
        {
          path: "sandbox.isolation",
          message: `bwrap was asked for, but ${bwrapProblem}; install bubblewrap, allow user namespaces, or choose another level`,
        },
      ]);
    }
  }
  const root = (options.getuid ?? process.getuid)?.() === 0;
  if (root) {
    return { ...base, level: "user", weakerBecause: bwrapProblem };
  }
  if (config.isolation === "user") {
    throw new ConfigError(source, [
      {
        path: "sandbox.isolation",
        message:
          "user was asked for, but Gadfly does not run as root, so it cannot start agent CLIs as another user",
      },
    ]);
  }
  return {
    ...base,
    level: "none",
    weakerBecause: `${bwrapProblem}, and Gadfly does not run as root`,
  };
}

async function probeBubblewrap(
  bwrap: string,
  config: SandboxConfig,
  options: DetectIsolationOptions,
): Promise<ProbeResult> {
  const scratch = await mkdtemp(join(options.temporaryRoot ?? tmpdir(), "gadfly-bwrap-probe-"));
  try {
    const workspace = join(scratch, "workspace");
    const home = join(scratch, "home");
    await mkdir(workspace);
    await mkdir(home);
    const argv = buildBwrapArgv({
      bwrap,
      command: ["/bin/sh", "-c", "exit 0"],
      workspace,
      home,
      systemMounts: await hostSystemMounts(),
      readOnlyPaths: [],
      uid: config.uid,
      gid: config.gid,
    });
    return await (options.runProbe ?? runProbe)(argv);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function runProbe(argv: readonly string[]): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const [command, ...args] = argv;
    if (command === undefined) {
      resolve({ ok: false, problem: "empty command" });
      return;
    }
    const child = spawn(command, args, {
      stdio: ["ignore", "ignore", "pipe"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      timeout: PROBE_TIMEOUT_MS,
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      resolve({
        ok: false,
        problem: error.code === "ENOENT" ? `${command} is not installed` : String(error.code),
      });
    });
    child.on("close", (code, signal) => {
      if (code === 0) {
        resolve({ ok: true });
        return;
      }
      const line = stderr.trim().split("\n").at(-1) ?? "";
      resolve({
        ok: false,
        problem: line !== "" ? line : signal !== null ? `killed by ${signal}` : `exit code ${code}`,
      });
    });
  });
}
