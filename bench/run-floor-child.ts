import { spawn } from "node:child_process";
import { symlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../test/e2e/harness.js";

export interface FloorChildOptions {
  /** The child's TypeScript source: built on its own into `directory`. */
  source: string;
  /** A scratch directory the caller owns (and removes). */
  directory: string;
  /** Node flags, before the built child. */
  nodeArgs: readonly string[];
  /** Arguments after the built child. */
  args: readonly string[];
  /** Names the child in an error. */
  what: string;
}

/**
 * Builds a floor's child with esbuild (as build-app.ts builds src/: plain JavaScript, no
 * TypeScript loader in the measured process), links the checkout's node_modules beside it (the
 * packages the built app loads) and runs it with `nodeArgs` and a bare environment. Resolves
 * with the JSON of its last line of stdout; rejects with its stderr if it fails.
 */
export async function runFloorChild(options: FloorChildOptions): Promise<unknown> {
  const child = join(options.directory, basename(options.source).replace(/\.ts$/, ".mjs"));
  await build({
    entryPoints: [options.source],
    outfile: child,
    format: "esm",
    platform: "node",
    target: "node20",
    bundle: false,
    logLevel: "warning",
  });
  await symlink(join(ROOT, "node_modules"), join(options.directory, "node_modules"));
  const stdout = await run([...options.nodeArgs, child, ...options.args], options);
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "");
}

/** Runs node with `argv` and a bare environment; its stdout, or an error with its stderr. */
function run(argv: string[], options: FloorChildOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: options.directory,
      // Nothing from this shell (OPENAI_*, OLLAMA_*, GITHUB_*) reaches the clients.
      env: { PATH: process.env.PATH ?? "", HOME: options.directory },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8_000);
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(stdout);
      else {
        reject(
          new Error(
            `${options.what}'s child failed (${signal ?? `exit ${code}`}):\n${stderr}${stdout}`,
          ),
        );
      }
    });
  });
}
