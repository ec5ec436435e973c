/**
 * What a round's agent runs pay to get their workspace: a 10,000-file snapshot for 20 agent
 * runs (five lenses, their verifies and ten challenges of a two-model round), each run opening
 * its sandbox and disposing of it as an agent CLI's run does (no process is started: that
 * costs the same either way). Copied per run (the `none` level, and every level before the
 * round's shared copy) against one shared read-only copy (`bwrap` and `user`). Target: the
 * shared copy costs at most a fifth of copying per run.
 *
 *   npx tsx bench/agent-workspace-copies.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AgentIsolation,
  openAgentSandbox,
  SharedScrubbedCopies,
} from "../src/sandbox/index.js";
import { printReport } from "./print-report.js";

const FILES = 10_000;
const FILES_PER_DIRECTORY = 100;
const RUNS = 20;
const TARGET_RATIO = 0.2;

const root = await mkdtemp(join(tmpdir(), "gadfly-bench-copies-"));
try {
  const snapshot = join(root, "snapshot");
  await makeSnapshot(snapshot);
  const runs = join(root, "runs");
  await mkdir(runs);
  const isolation = (level: AgentIsolation["level"]): AgentIsolation => ({
    level,
    uid: 65534,
    gid: 65534,
    bwrap: "bwrap",
    weakerBecause: null,
  });
  const perRunMs = await timeRuns(snapshot, runs, isolation("none"), undefined);
  const shared = new SharedScrubbedCopies(root);
  let sharedMs = 0;
  try {
    sharedMs = await timeRuns(snapshot, runs, isolation("bwrap"), shared);
  } finally {
    const started = performance.now();
    await shared.close();
    sharedMs += performance.now() - started;
  }
  const ratio = sharedMs / perRunMs;
  printReport(
    [
      [`${FILES} files, ${RUNS} agent runs`, ""],
      ["copied per run", `${perRunMs.toFixed(0)} ms (${(perRunMs / RUNS).toFixed(0)} ms a run)`],
      ["one shared copy", `${sharedMs.toFixed(0)} ms (${(sharedMs / RUNS).toFixed(0)} ms a run)`],
      ["shared ÷ per run", `${ratio.toFixed(3)} (target ≤ ${TARGET_RATIO})`],
    ],
    {
      files: FILES,
      runs: RUNS,
      perRunMs: Math.round(perRunMs),
      sharedMs: Math.round(sharedMs),
      ratio: Number(ratio.toFixed(3)),
      target: TARGET_RATIO,
    },
  );
  process.exitCode = ratio <= TARGET_RATIO ? 0 : 1;
} finally {
  await rm(root, { recursive: true, force: true });
}

/** Files of about 1 KB, a hundred per directory (a checkout's shape, not its size). */
async function makeSnapshot(snapshot: string): Promise<void> {
  const line = "export const value = 'a line of code that a reviewer might read';\n";
  for (let directory = 0; directory < FILES / FILES_PER_DIRECTORY; directory++) {
    const path = join(snapshot, "src", `module-${directory}`);
    await mkdir(path, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES_PER_DIRECTORY }, (_, file) =>
        writeFile(join(path, `file-${file}.ts`), line.repeat(16)),
      ),
    );
  }
}

/** Every run's sandbox opened and disposed of, one after another, in milliseconds. */
async function timeRuns(
  snapshot: string,
  runs: string,
  isolation: AgentIsolation,
  shared: SharedScrubbedCopies | undefined,
): Promise<number> {
  const started = performance.now();
  for (let run = 0; run < RUNS; run++) {
    const sandbox = await openAgentSandbox({
      snapshot,
      command: [process.execPath],
      env: { PATH: process.env.PATH ?? "" },
      isolation,
      temporaryRoot: runs,
      shared,
    });
    await sandbox.dispose();
  }
  return performance.now() - started;
}
