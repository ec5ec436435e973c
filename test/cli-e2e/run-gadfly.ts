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

/** Quotes one argument for /bin/sh. */
function shellQuote(argument: string): string {
  return `'${argument.replaceAll("'", "'\\''")}'`;
}

/**
 * The same command on a real terminal of `columns` columns: util-linux's `script` gives it a
 * pseudo-terminal (stdin, stdout and stderr), so `isTTY` and `columns` are the kernel's. Its
 * output comes back merged on stdout, with the terminal's CRLF line ends made LF again.
 */
export async function runGadflyInTerminal(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; columns: number },
): Promise<GadflyRun> {
  const command = [process.execPath, "--import", TSX_LOADER, BIN, ...args].map(shellQuote);
  const run = await runProcess(
    "script",
    [
      "--quiet",
      "--return",
      "--command",
      `stty cols ${options.columns} rows 50 && exec ${command.join(" ")}`,
      "/dev/null",
    ],
    { cwd: options.cwd, env: { SHELL: "/bin/sh", ...options.env }, timeoutMs: RUN_TIMEOUT_MS },
  );
  return { ...run, stdout: run.stdout.replaceAll("\r\n", "\n") };
}
