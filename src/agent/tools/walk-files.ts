import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Workspace, WorkspacePath } from "../workspace.js";

export interface WalkEntry {
  relativePath: string;
  /** Real path, checked to be inside the workspace. */
  realPath: string;
  kind: "file" | "directory";
}

/** Never listed or searched: version-control internals and installed dependencies. */
const SKIPPED_NAMES = new Set([".git", "node_modules"]);

/**
 * Walks a directory breadth-first (shallow entries first, so a capped listing
 * of a large repository still shows its shape), names sorted. Symbolic links
 * are followed only to regular files inside the workspace and never descended
 * into, so a link cannot escape the root or loop. FIFOs and devices are skipped:
 * reading one could block.
 */
export async function* walkFiles(
  workspace: Workspace,
  start: WorkspacePath,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry> {
  const queue: { relativePath: string; realPath: string }[] = [
    { relativePath: start.relativePath, realPath: start.realPath },
  ];
  for (let head = 0; head < queue.length; head++) {
    signal?.throwIfAborted();
    const directory = queue[head];
    if (directory === undefined) break;
    let entries: Dirent[];
    try {
      entries = await readdir(directory.realPath, { withFileTypes: true });
    } catch {
      continue; // unreadable directory: nothing to show
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (SKIPPED_NAMES.has(entry.name.toLowerCase())) continue;
      const relativePath =
        directory.relativePath === "." ? entry.name : `${directory.relativePath}/${entry.name}`;
      const path = join(directory.realPath, entry.name);
      if (entry.isDirectory()) {
        queue.push({ relativePath, realPath: path });
        yield { relativePath, realPath: path, kind: "directory" };
      } else if (entry.isFile()) {
        yield { relativePath, realPath: path, kind: "file" };
      } else if (entry.isSymbolicLink()) {
        const target = await resolveLink(workspace, path);
        if (target !== null) yield { relativePath, ...target };
      }
    }
  }
}

async function resolveLink(
  workspace: Workspace,
  path: string,
): Promise<{ realPath: string; kind: "file" | "directory" } | null> {
  try {
    const realPath = await realpath(path);
    if (!workspace.contains(realPath)) return null;
    const info = await stat(realPath);
    if (info.isFile()) return { realPath, kind: "file" };
    // Listed, but not descended into: a link to a parent would loop forever.
    if (info.isDirectory()) return { realPath, kind: "directory" };
    return null;
  } catch {
    return null; // dangling link
  }
}
