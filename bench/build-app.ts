import { mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../test/e2e/harness.js";

export interface BuiltApp {
  /** `dist/main.js` of the build: what `npm start` runs. */
  entry: string;
  remove(): Promise<void>;
}

/**
 * The app as `npm start` runs it (plain JavaScript in `dist/`, no TypeScript loader in the
 * process), built from the current `src/` into a temporary package: esbuild transpiles each file
 * on its own, as tsc's emit would, and the package's lenses, templates and node_modules are
 * linked beside it. The checkout's own `dist/` is never touched (it may be stale).
 */
export async function buildApp(): Promise<BuiltApp> {
  const directory = await mkdtemp(join(tmpdir(), "gadfly-bench-build-"));
  const sources = await typeScriptFiles(join(ROOT, "src"));
  await build({
    entryPoints: sources,
    outdir: join(directory, "dist"),
    outbase: join(ROOT, "src"),
    format: "esm",
    platform: "node",
    target: "node20",
    bundle: false,
    logLevel: "warning",
  });
  for (const name of ["package.json", "lenses", "templates", "node_modules"]) {
    await symlink(join(ROOT, name), join(directory, name));
  }
  return {
    entry: join(directory, "dist", "main.js"),
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}

async function typeScriptFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}
