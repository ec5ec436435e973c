import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";

/**
 * What an npm-installed CLI needs to start, from its program's real path: the package that
 * holds it (with its own node_modules) and, beside it, the packages of the same name plus a
 * suffix — the platform packages a wrapper starts its binary from (`@openai/codex` loads
 * `@openai/codex-linux-x64`, hoisted next to it). Empty when the program is not in a
 * package under a node_modules directory: then its own directory is what is shown.
 */
export async function npmPackagePaths(program: string): Promise<string[]> {
  const root = await packageRoot(program);
  if (root === null) return [];
  const parent = dirname(root);
  const name = basename(root);
  const siblings = (await readdir(parent).catch(() => [] as string[]))
    .filter((entry) => entry !== name && entry.startsWith(`${name}-`))
    .map((entry) => join(parent, entry));
  return [root, ...siblings];
}

/** The nearest directory above `program` with a package.json, inside a node_modules tree. */
async function packageRoot(program: string): Promise<string | null> {
  if (!program.split(sep).includes("node_modules")) return null;
  for (let directory = dirname(program); directory !== dirname(directory); ) {
    if (basename(directory) === "node_modules") return null;
    if (await isFile(join(directory, "package.json"))) {
      // A scoped package's parent is its scope; either way it must sit in node_modules.
      const parent = dirname(directory);
      const holder = basename(parent).startsWith("@") ? dirname(parent) : parent;
      return basename(holder) === "node_modules" ? directory : null;
    }
    directory = dirname(directory);
  }
  return null;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
