/*
 * Which convention files of the base a change's reviewers get: for each changed file, the ones
 * in its directory and every directory above it (the nearest the most specific), the
 * repository-wide ones, and the rule files that carry their own globs (read to know whether
 * they apply). Decided from the base's tree listing, so only files that exist are read.
 */

/** Looked for in every directory above a changed file, in this order within one directory. */
export const DIRECTORY_CONVENTION_NAMES = [
  "AGENTS.md",
  "CLAUDE.md",
  "GEMINI.md",
  "REVIEW.md",
  ".cursorrules",
] as const;

/** Read at the root only; they apply to the whole repository. */
export const ROOT_CONVENTION_FILES = [
  ".github/copilot-instructions.md",
  "CONTRIBUTING.md",
] as const;

/** GitHub Copilot's rule files (`applyTo` front matter): at the root only, as Copilot reads them. */
const COPILOT_RULES = { prefix: ".github/instructions/", suffix: ".instructions.md" } as const;
/** Cursor's rule folder, at the root or in any directory (its rules then govern that directory). */
const CURSOR_RULES = ".cursor/rules/";
const CURSOR_SUFFIX = ".mdc";

/** Whether a path of the base's tree can be a convention file at all (what a listing keeps). */
export function isConventionPath(path: string): boolean {
  if ((ROOT_CONVENTION_FILES as readonly string[]).includes(path)) return true;
  if (ruleFileKind(path) !== null) return true;
  const name = path.slice(path.lastIndexOf("/") + 1);
  return (DIRECTORY_CONVENTION_NAMES as readonly string[]).includes(name);
}

/** `applyTo` (GitHub Copilot), `cursor` (globs / alwaysApply), or null for another file. */
export function ruleFileKind(path: string): "applyTo" | "cursor" | null {
  const { prefix, suffix } = COPILOT_RULES;
  if (
    path.startsWith(prefix) &&
    path.endsWith(suffix) &&
    path.length > prefix.length + suffix.length
  ) {
    return "applyTo";
  }
  return cursorRuleDirectory(path) === null ? null : "cursor";
}

/**
 * The directory a `.cursor/rules/…/*.mdc` rule governs: "" for the root's, `pkg` for
 * `pkg/.cursor/rules/x.mdc` (Cursor scopes a nested rule folder to the folder holding it); null
 * for any other path.
 */
export function cursorRuleDirectory(path: string): string | null {
  if (!path.endsWith(CURSOR_SUFFIX)) return null;
  const nested = path.lastIndexOf(`/${CURSOR_RULES}`);
  if (nested === -1 && !path.startsWith(CURSOR_RULES)) return null;
  // Where the folder `.cursor/rules/` starts: the last one, so its rules govern the nearest folder.
  const at = nested === -1 ? 0 : nested + 1;
  const name = path.slice(at + CURSOR_RULES.length);
  if (name.length <= CURSOR_SUFFIX.length || name.startsWith("/")) return null;
  return at === 0 ? "" : path.slice(0, at - 1);
}

/** The directory a directory convention governs: "" for the root. */
export function conventionDirectory(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

export interface ConventionReads {
  /** What to read, in the order shown (and bounded): directories root first, then the rest. */
  paths: string[];
  /** Applying files the file bound kept from being read: the prompt says so. */
  leftOut: string[];
}

/**
 * The convention files to read for a change: of `available` (the base's convention paths), the
 * directory files of every directory above a changed path, shallowest first; then the
 * repository-wide files; then the rule files (a nested `.cursor/rules` only when its folder is
 * above a changed path). At most `maxFiles`; the rest are `leftOut`.
 */
export function conventionReads(
  available: readonly string[],
  changedPaths: readonly string[],
  maxFiles: number,
): ConventionReads {
  const present = new Set(available);
  const directories = new Set<string>([""]);
  for (const path of changedPaths) {
    for (let dir = conventionDirectory(path); dir !== ""; dir = conventionDirectory(dir)) {
      if (directories.has(dir)) break;
      directories.add(dir);
    }
  }
  const byDepth = [...directories].sort(
    (a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const wanted = [
    ...byDepth.flatMap((dir) =>
      DIRECTORY_CONVENTION_NAMES.map((name) => (dir === "" ? name : `${dir}/${name}`)).filter(
        (path) => present.has(path),
      ),
    ),
    ...ROOT_CONVENTION_FILES.filter((path) => present.has(path)),
    // Rule files whose folder governs a changed file: the root's, and nested ones above one.
    ...[...present]
      .filter((path) => {
        if (ruleFileKind(path) === null) return false;
        const governs = cursorRuleDirectory(path);
        return governs === null || directories.has(governs);
      })
      .sort(),
  ];
  return { paths: wanted.slice(0, maxFiles), leftOut: wanted.slice(maxFiles) };
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}
