import { chmod, stat } from "node:fs/promises";

/**
 * Makes a directory of ours (the data directory) 0700, so an agent CLI running as
 * another user (the `user` isolation level) cannot read the database, transcripts or
 * other rounds' workspaces in it. Leaves alone a directory that does not exist (the
 * store may be PostgreSQL) or that belongs to someone else (not ours to change).
 * Returns whether the directory is now private.
 */
export async function restrictToOwner(path: string): Promise<boolean> {
  let stats: Awaited<ReturnType<typeof stat>>;
  try {
    stats = await stat(path);
  } catch {
    return false;
  }
  if (!stats.isDirectory() || stats.uid !== process.getuid?.()) {
    return false;
  }
  if ((stats.mode & 0o077) !== 0) {
    await chmod(path, stats.mode & 0o700);
  }
  return true;
}
