import type { ConventionFile } from "../run/index.js";
import type { RepoRef } from "./github-client.js";

/** Commits whose conventions are kept; the least recently used go first. */
export const CONVENTION_CACHE_ENTRIES = 256;

/** A full commit SHA (SHA-1 or SHA-256): what a file's content at it cannot change under. */
const COMMIT_SHA_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

/**
 * The convention files of a repository at a commit, as read from GitHub, kept for the process's
 * later rounds: a file at a commit never changes, and the pushes to a pull request mostly keep
 * its base, so each of them would otherwise read the same five files again (five requests a
 * round from the installation's hourly budget). Only full SHAs are kept (a branch moves), and
 * only complete reads (the loader stores nothing when a file failed or the round stopped).
 * Bounded by entries, each bounded by CONVENTION_LIMITS: 256 × 5 × 16 KiB at most.
 */
export class ConventionCache {
  readonly #entries = new Map<string, readonly ConventionFile[]>();
  readonly #maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? CONVENTION_CACHE_ENTRIES);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Copies of the files kept for `repo` at `ref`, or undefined (never kept for a branch name). */
  get(repo: RepoRef, ref: string): ConventionFile[] | undefined {
    const key = cacheKey(repo, ref);
    const files = key === null ? undefined : this.#entries.get(key);
    if (key === null || files === undefined) return undefined;
    // Most recently used last, so the oldest is the first to go.
    this.#entries.delete(key);
    this.#entries.set(key, files);
    return files.map((file) => ({ ...file }));
  }

  set(repo: RepoRef, ref: string, files: readonly ConventionFile[]): void {
    const key = cacheKey(repo, ref);
    if (key === null) return;
    this.#entries.delete(key);
    this.#entries.set(
      key,
      files.map((file) => ({ ...file })),
    );
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}

/** GitHub's owner and repository names are case-insensitive; a SHA is hex either way. */
function cacheKey(repo: RepoRef, ref: string): string | null {
  if (!COMMIT_SHA_RE.test(ref)) return null;
  return `${repo.owner.toLowerCase()}/${repo.repo.toLowerCase()}@${ref.toLowerCase()}`;
}
