import type { ConventionFile } from "../run/index.js";
import type { RepoRef } from "./github-client.js";

/** Commits whose conventions are kept; the least recently used go first. */
export const CONVENTION_CACHE_ENTRIES = 256;

/** Files kept per commit: changes in other directories of one base read other files. */
export const CONVENTION_CACHE_FILES = 64;

/** A full commit SHA (SHA-1 or SHA-256): what a file's content at it cannot change under. */
const COMMIT_SHA_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

interface Entry {
  /** The convention paths of the commit's tree listing. */
  listing?: readonly string[];
  files: Map<string, ConventionFile>;
}

/**
 * The convention files of a repository at a commit, as read from GitHub, kept for the process's
 * later rounds: a file at a commit never changes, and the pushes to a pull request mostly keep
 * its base, so each of them would otherwise list the base's tree and read the same files again
 * (requests from the installation's hourly budget). Kept per commit: the tree listing's
 * convention paths, and each file read. Only full SHAs are kept (a branch moves), and only
 * complete reads (the loader stores nothing that failed or that a stop cut). Bounded: 256
 * commits × 64 files × 16 KiB at most (CONVENTION_LIMITS.fileBytes).
 */
export class ConventionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? CONVENTION_CACHE_ENTRIES);
  }

  /** Commits kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** The convention paths of `ref`'s tree, or undefined (never kept for a branch name). */
  listing(repo: RepoRef, ref: string): readonly string[] | undefined {
    return this.#touch(repo, ref)?.listing;
  }

  setListing(repo: RepoRef, ref: string, paths: readonly string[]): void {
    const entry = this.#entry(repo, ref);
    if (entry !== undefined) entry.listing = [...paths];
  }

  /** A copy of the file kept for `path` at `ref`, or undefined. */
  file(repo: RepoRef, ref: string, path: string): ConventionFile | undefined {
    const file = this.#touch(repo, ref)?.files.get(path);
    return file === undefined ? undefined : { ...file };
  }

  setFile(repo: RepoRef, ref: string, file: ConventionFile): void {
    const entry = this.#entry(repo, ref);
    if (entry === undefined || entry.files.size >= CONVENTION_CACHE_FILES) return;
    entry.files.set(file.path, { ...file });
  }

  /** The entry, most recently used last so the oldest is the first to go. */
  #touch(repo: RepoRef, ref: string): Entry | undefined {
    const key = cacheKey(repo, ref);
    const entry = key === null ? undefined : this.#entries.get(key);
    if (key === null || entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  #entry(repo: RepoRef, ref: string): Entry | undefined {
    const key = cacheKey(repo, ref);
    if (key === null) return undefined;
    const entry = this.#touch(repo, ref) ?? { files: new Map() };
    this.#entries.set(key, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
    return entry;
  }
}

/** GitHub's owner and repository names are case-insensitive; a SHA is hex either way. */
function cacheKey(repo: RepoRef, ref: string): string | null {
  if (!COMMIT_SHA_RE.test(ref)) return null;
  return `${repo.owner.toLowerCase()}/${repo.repo.toLowerCase()}@${ref.toLowerCase()}`;
}
