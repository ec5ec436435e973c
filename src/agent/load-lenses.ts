import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { packageLensesDirectory } from "./package-lenses-directory.js";
import { parseLensFile } from "./parse-lens-file.js";
import type { LensDefinition } from "./schema.js";

export interface LoadLensesOptions {
  /** The built-in lenses; defaults to the package's `lenses/`. */
  directory?: string;
  /** Lenses of an operator or a repository, added to the built-in ones. */
  extraDirectory?: string | undefined;
}

/**
 * Loads every `*.md` lens of the built-in directory and of the optional extra
 * one, validated. Files starting with `_` are not lenses. An extra lens may not
 * reuse a built-in id: a repository must not be able to swap the security
 * prompt for one that finds nothing.
 */
export async function loadLenses(options: LoadLensesOptions = {}): Promise<LensDefinition[]> {
  const directories = [options.directory ?? packageLensesDirectory()];
  if (options.extraDirectory !== undefined) directories.push(options.extraDirectory);
  const lenses: LensDefinition[] = [];
  const byId = new Map<string, LensDefinition>();
  for (const directory of directories) {
    for (const lens of await loadDirectory(directory)) {
      const existing = byId.get(lens.id);
      if (existing !== undefined) {
        throw new Error(
          `${lens.source}: field "id": lens "${lens.id}" is already defined by ${existing.source}`,
        );
      }
      byId.set(lens.id, lens);
      lenses.push(lens);
    }
  }
  return lenses;
}

async function loadDirectory(directory: string): Promise<LensDefinition[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    throw new Error(`cannot read the lens directory ${directory}: ${(error as Error).message}`);
  }
  const files = names.filter((name) => name.endsWith(".md") && !name.startsWith("_")).sort();
  return Promise.all(
    files.map(async (name) => {
      const source = join(directory, name);
      return parseLensFile(await readFile(source, "utf8"), source);
    }),
  );
}
