import { spawn } from "node:child_process";

export interface AgentProcessOptions {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Spawn as this user and group (the `user` isolation level; needs root). */
  uid?: number | undefined;
  gid?: number | undefined;
  stdin: string;
  signal?: AbortSignal | undefined;
  /** Between SIGTERM and SIGKILL when the run is aborted. */
  killGraceMs: number;
  /** Past this much stdout the agent is stopped and the run fails. */
  maxOutputBytes: number;
  /** How much of the end of stderr is kept for the failure reason. */
  stderrTailBytes: number;
  /**
   * After the agent exits, how long what it wrote may take to be read before the pipes are
   * closed on whatever still holds them; default EXIT_DRAIN_MS.
   */
  exitDrainMs?: number | undefined;
}

/** Everything the agent wrote before exiting is already in the pipe: reading it is quick. */
export const EXIT_DRAIN_MS = 250;

export type AgentProcessOutcome =
  | {
      kind: "exited";
      exitCode: number | null;
      exitSignal: NodeJS.Signals | null;
      stdout: string;
      stderrTail: string;
    }
  | { kind: "aborted"; stderrTail: string }
  | { kind: "output-too-large"; stderrTail: string }
  | { kind: "spawn-failed"; code: string };

/**
 * Runs one agent CLI to completion: argv without a shell, the prompt on stdin, stdout
 * collected (capped), the end of stderr kept. The child leads its own process group, so
 * stopping it (abort, runaway output) also stops the tools it started, and whatever of the
 * group outlives the agent is killed when it exits. The run ends when the agent exits, not
 * when its pipes close: after a short drain our ends of the pipes are closed, so a process it
 * left in a session of its own (`setsid`, outside the group) that still holds them holds
 * neither the provider's slot nor the run (the sandbox's dispose kills it).
 */
export function runAgentProcess(options: AgentProcessOptions): Promise<AgentProcessOutcome> {
  return new Promise((resolve) => {
    const [command, ...args] = options.argv;
    if (command === undefined) {
      resolve({ kind: "spawn-failed", code: "empty command" });
      return;
    }
    if (options.signal?.aborted) {
      resolve({ kind: "aborted", stderrTail: "" });
      return;
    }
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      shell: false,
      // Node clears the supplementary groups when it changes identity: root's stay behind.
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = Buffer.alloc(0);
    let stderrBytes = 0;
    let stopReason: "aborted" | "output-too-large" | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let spawnError: string | undefined;

    const signalGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) {
        return;
      }
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (reason: "aborted" | "output-too-large") => {
      if (stopReason !== undefined) {
        return;
      }
      stopReason = reason;
      signalGroup("SIGTERM");
      killTimer = setTimeout(() => signalGroup("SIGKILL"), options.killGraceMs);
    };
    const onAbort = () => stop("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      if (stopReason !== undefined) {
        return;
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        stop("output-too-large");
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderrBytes += chunk.length;
      const joined = Buffer.concat([stderrTail, chunk]);
      stderrTail = joined.subarray(Math.max(0, joined.length - options.stderrTailBytes));
    });
    // A child that exits without reading its stdin makes the write fail; its exit says why.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);

    child.on("error", (error: NodeJS.ErrnoException) => {
      spawnError = error.code ?? "spawn error";
    });
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;
    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // Tools the agent left running would hold our pipes open (and outlive the review).
      signalGroup("SIGKILL");
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        settle();
      }, options.exitDrainMs ?? EXIT_DRAIN_MS);
    });
    child.on("close", () => settle());
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(drainTimer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      const tail = lineAligned(stderrTail, stderrBytes > stderrTail.length);
      if (spawnError !== undefined && child.pid === undefined) {
        resolve({ kind: "spawn-failed", code: spawnError });
      } else if (stopReason !== undefined) {
        resolve({ kind: stopReason, stderrTail: tail });
      } else {
        resolve({
          kind: "exited",
          exitCode,
          exitSignal,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderrTail: tail,
        });
      }
    };
  });
}

/**
 * The kept end of stderr from its first whole line: the cut line could hold the end of a
 * secret, which redaction by value would no longer recognise.
 */
function lineAligned(tail: Buffer, truncated: boolean): string {
  const text = tail.toString("utf8");
  if (!truncated) {
    return text;
  }
  const newline = text.indexOf("\n");
  return newline === -1 ? "" : text.slice(newline + 1);
}
