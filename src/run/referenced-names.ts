import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { hasTextExtension } from "../diff/index.js";

/** Past these the head's tree is not searched, and every generated candidate is reviewed. */
const MAX_FILES = 20_000;
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_FILE_BYTES = 1024 * 1024;

const QUOTED = /["'`]([^"'`\n]{1,300})["'`]/g;
const PATH_LIKE = /[\w@.~-]*\/[\w@.~/-]+/g;
const IMPORT = /^[ \t]*(?:import|from|use|require|include|source)[ \t]+([\w.:/-]+)/gm;

/**
 * The names the head's text files use for other files: the stem (lower case, up to its first
 * dot) of every quoted string's, path's and import's last segment. Files in `skip` (the
 * candidates themselves) are not read: a generated file naming itself imports nothing. Null
 * when the tree is past the bounds: the caller then assumes everything is referenced.
 */
export async function referencedNames(
  workspaceDir: string,
  skip: ReadonlySet<string>,
): Promise<Set<string> | null> {
  let entries: string[];
  try {
    entries = await readdir(workspaceDir, { recursive: true });
  } catch {
    return null;
  }
  const names = new Set<string>();
  let files = 0;
  let bytes = 0;
  for (const entry of entries) {
    const path = entry.split("\\").join("/");
    if (skip.has(path) || !hasTextExtension(path)) continue;
    const full = join(workspaceDir, entry);
    const info = await stat(full).catch(() => null);
    if (info === null || !info.isFile()) continue;
    files += 1;
    bytes += Math.min(info.size, MAX_FILE_BYTES);
    if (files > MAX_FILES || bytes > MAX_BYTES) return null;
    const text = (await readFile(full).catch(() => Buffer.alloc(0)))
      .subarray(0, MAX_FILE_BYTES)
      .toString("utf8");
    collectNames(text, names);
  }
  return names;
}

function collectNames(text: string, names: Set<string>): void {
  for (const match of text.matchAll(QUOTED)) {
    for (const piece of (match[1] ?? "").split(/\s+/)) addStem(piece, names);
  }
  for (const match of text.matchAll(PATH_LIKE)) addStem(match[0], names);
  for (const match of text.matchAll(IMPORT)) {
    for (const segment of (match[1] ?? "").split(/[.:/]+/)) addStem(segment, names);
  }
}

function addStem(value: string, names: Set<string>): void {
  const last = value.split("/").at(-1) ?? "";
  const stem = (last.split(".")[0] ?? "").toLowerCase();
  if (stem !== "") names.add(stem);
}
