import { chmod, lstat, mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyScrubbedWorkspace } from "./copy-scrubbed-workspace.js";

export interface SharedCopyRequest {
  snapshot: string;
  removePaths: readonly string[];
}

/** One scrubbed copy, read-only, that several agent runs work in. */
export interface SharedCopy {
  /** The copy's real path: an agent's working directory, or what bwrap binds at /workspace. */
  path: string;
  /** The directory holding it: where git stops looking for a repository upwards. */
  parent: string;
  removed: readonly string[];
}

/**
 * The scrubbed copies of one round (or one `gadfly review`): each snapshot, with one set of
 * removed paths, is copied once, however many agent runs (lenses, verifies, challenges) ask,
 * and the copy is made read-only for all of them (directories 0555, files 0444 or 0555, owned
 * by us, never by the agent's user): no run can change what another run sees. close()
 * deletes every copy; the round's owner calls it when the round ends, however it ends.
 */
export class SharedScrubbedCopies {
  private readonly copies = new Map<string, Promise<SharedCopy>>();
  private directory: Promise<string> | undefined;
  private closed = false;

  constructor(private readonly temporaryRoot: string = tmpdir()) {}

  /** The copy for this snapshot and these rules, made on the first call. */
  async acquire(request: SharedCopyRequest): Promise<SharedCopy> {
    if (this.closed) throw new Error("the round's workspace copies are already deleted");
    const snapshot = await realpath(request.snapshot);
    if (this.closed) throw new Error("the round's workspace copies are already deleted");
    const removePaths = [...new Set(request.removePaths)].sort();
    const key = JSON.stringify([snapshot, removePaths]);
    let copy = this.copies.get(key);
    if (copy === undefined) {
      copy = this.make(snapshot, removePaths, this.copies.size);
      this.copies.set(key, copy);
      // A failed copy is not kept: the next run tries again (its half is deleted already).
      copy.catch(() => this.copies.delete(key));
    }
    return await copy;
  }

  /** Deletes every copy (waiting for those still being made). Safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    const directory = this.directory;
    if (directory === undefined) return;
    await Promise.allSettled(this.copies.values());
    const path = await directory.catch(() => undefined);
    if (path === undefined) return;
    await makeWritable(path);
    await rm(path, { recursive: true, force: true });
  }

  private async make(snapshot: string, removePaths: string[], index: number): Promise<SharedCopy> {
    if (this.directory === undefined) {
      const made = this.makeDirectory();
      this.directory = made;
      // Not kept either when it fails (a full disk): the next run tries again.
      made.catch(() => {
        if (this.directory === made) this.directory = undefined;
      });
    }
    const parent = await this.directory;
    const path = join(parent, `workspace-${index}`);
    try {
      const copy = await copyScrubbedWorkspace({ source: snapshot, target: path, removePaths });
      await makeReadOnly(path);
      return { path, parent, removed: copy.removed };
    } catch (error) {
      await makeWritable(path).catch(() => undefined);
      await rm(path, { recursive: true, force: true });
      throw error;
    }
  }

  private async makeDirectory(): Promise<string> {
    const parent = await realpath(await mkdtemp(join(this.temporaryRoot, "gadfly-round-")));
    // Another user (the agent's, at the `user` level) may pass through, not list or add.
    await chmod(parent, 0o711);
    // An empty, read-only `.env` above the copies: Gemini CLI looks for the nearest one
    // upwards, and would otherwise reach the world-writable temporary directory.
    await writeFile(join(parent, ".env"), "", { mode: 0o444 });
    return parent;
  }
}

/** Directories 0555 and files without their write bits, depth first; links are left as they are. */
async function makeReadOnly(path: string): Promise<void> {
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) {
      await makeReadOnly(child);
    } else if (entry.isFile()) {
      const { mode } = await lstat(child);
      await chmod(child, (mode & 0o111) !== 0 ? 0o555 : 0o444);
    }
  }
  await chmod(path, 0o555);
}

/** Gives the directories back their write bit, so the tree can be deleted. */
async function makeWritable(path: string): Promise<void> {
  const info = await lstat(path).catch(() => null);
  if (info === null || !info.isDirectory()) return;
  await chmod(path, 0o755);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeWritable(join(path, entry.name));
  }
}
