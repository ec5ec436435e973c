import { readdir, readFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { findPackageRoot, LensId } from "../config/index.js";

/*
 * A lens is a markdown file: YAML front matter (id, title, emoji), then its prompt. The built-in
 * ones are the package's lenses/*.md, the single source of their titles and emoji too.
 */

/** The YAML front matter of a lens file (`lenses/<id>.md`). */
export const LensFrontMatter = z.strictObject({
  id: LensId,
  /** The heading the lens gets, e.g. "Error handling & edge cases". */
  title: z.string().trim().min(1).max(80),
  /** Shown before the title, e.g. 🧯. */
  emoji: z.string().trim().min(1).max(16),
});
export type LensFrontMatter = z.infer<typeof LensFrontMatter>;

/** A lens ready to review with: its front matter, its prompt and where it came from. */
export const LensDefinition = LensFrontMatter.extend({
  /** The markdown body: what the lens hunts for and its severity rubric. */
  prompt: z.string().trim().min(1, "the lens has no prompt after its front matter"),
  /** The file it was loaded from, for error messages. */
  source: z.string(),
});
export type LensDefinition = z.infer<typeof LensDefinition>;

const FRONT_MATTER_RE = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Parses one lens file: YAML front matter (`id`, `title`, `emoji`) between
 * `---` lines, then the prompt. Errors name the file and the field.
 */
export function parseLensFile(text: string, source: string): LensDefinition {
  const match = FRONT_MATTER_RE.exec(text);
  if (match === null) {
    throw new Error(
      `${source}: no front matter (the file must start with a --- line, then id, title and emoji, then ---)`,
    );
  }
  let frontMatter: unknown;
  try {
    frontMatter = parseYaml(match[1] ?? "");
  } catch (error) {
    throw new Error(`${source}: the front matter is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = LensDefinition.safeParse({
    ...(typeof frontMatter === "object" && frontMatter !== null ? frontMatter : {}),
    prompt: text.slice(match[0].length),
    source,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "front matter";
    throw new Error(`${source}: field "${field}": ${issue?.message ?? "invalid"}`);
  }
  const expectedId = basename(source, extname(source));
  if (parsed.data.id !== expectedId) {
    throw new Error(
      `${source}: field "id": "${parsed.data.id}" must match the file name ("${expectedId}")`,
    );
  }
  return parsed.data;
}

/** The package's own `lenses/` directory, the same from src/ (tests, tsx) and dist/ (the built app). */
export function packageLensesDirectory(moduleUrl: string = import.meta.url): string {
  return join(findPackageRoot(moduleUrl, "lenses"), "lenses");
}

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
