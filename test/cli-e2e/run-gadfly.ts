import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type ProcessResult, runProcess } from "../helpers/run-process.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin", "gadfly.js");
/** tsx by absolute URL: the CLI runs with a temporary directory as its working directory. */
const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const RUN_TIMEOUT_MS = 20_000;

export type GadflyRun = ProcessResult;

/**
 * `node --import tsx bin/gadfly.js …` from source, as a child process with exactly `env`.
 * Asynchronous on purpose: the fake model servers live in this process and must keep answering.
 */
export function runGadfly(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<GadflyRun> {
  return runProcess(process.execPath, ["--import", TSX_LOADER, BIN, ...args], {
    ...options,
    timeoutMs: RUN_TIMEOUT_MS,
  });
}
