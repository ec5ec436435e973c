import {
  CONVENTION_LIMITS,
  type ConventionFile,
  conventionReads,
  conventionText,
  isConventionPath,
} from "../run/index.js";
import type { ConventionCache } from "./convention-cache.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { readPrefix } from "./read-prefix.js";

export interface LoadConventionsOptions {
  /** The round's stop: a read in flight is abandoned with it. */
  signal?: AbortSignal;
  /** A file (or the tree) GitHub would not give: for the log. The review goes on without it. */
  onError?: (path: string, error: unknown) => void;
  /** Bytes used of each file; the rest is cut (a note says so in the prompt). */
  fileBytes?: number;
  /** Files read at most; the applying ones past it are returned `leftOut`. */
  maxFiles?: number;
  /** The change's paths (a rename's old one too): whose directories' conventions are read. */
  changedPaths?: readonly string[];
  /** The listings and files at a commit already read by this process: not asked of GitHub again. */
  cache?: ConventionCache;
}

/**
 * The convention files at one commit that a change's files are governed by (convention-reads.ts:
 * each changed file's directory and those above it, the repository-wide files, the rule files),
 * for a pull request at its base SHA, never its head (the author must not write the rules their
 * own review follows). One request lists the commit's tree; then only files that exist and
 * apply are read. Never throws: a missing file is not a convention, and one GitHub fails to
 * give is reported through `onError` and left out, so no round fails for its conventions.
 */
export async function loadConventionFiles(
  octokit: GitHubClient,
  repo: RepoRef,
  ref: string,
  options: LoadConventionsOptions = {},
): Promise<ConventionFile[]> {
  const fileBytes = options.fileBytes ?? CONVENTION_LIMITS.fileBytes;
  // Kept at the loader's default bound only: a caller asking for another bound reads afresh.
  const cache = options.fileBytes === undefined ? options.cache : undefined;
  const available = await listConventionPaths(octokit, repo, ref, options, cache);
  if (available === null) return [];
  const reads = conventionReads(
    available,
    options.changedPaths ?? [],
    options.maxFiles ?? CONVENTION_LIMITS.files,
  );
  const read = await Promise.all(
    reads.paths.map(async (path): Promise<ConventionFile | null> => {
      const kept = cache?.file(repo, ref, path);
      if (kept !== undefined) return kept;
      try {
        const bytes = await readPrefix(octokit, repo, ref, path, fileBytes + 1, options.signal);
        if (bytes === null) return null;
        const file = { path, ...conventionText(bytes, fileBytes) };
        if (options.signal?.aborted !== true) cache?.setFile(repo, ref, file);
        return file;
      } catch (error) {
        // Gone since the listing is no convention; stopped is the round's own business.
        if ((error as { status?: unknown }).status === 404 || options.signal?.aborted) return null;
        options.onError?.(path, error);
        return null;
      }
    }),
  );
  return [
    ...read.filter((file): file is ConventionFile => file !== null),
    ...reads.leftOut.map((path) => ({ path, text: "", cut: false, leftOut: true })),
  ];
}

/** The convention paths of the commit's tree (one request, or none when kept); null when unread. */
async function listConventionPaths(
  octokit: GitHubClient,
  repo: RepoRef,
  ref: string,
  options: LoadConventionsOptions,
  cache: ConventionCache | undefined,
): Promise<readonly string[] | null> {
  const kept = cache?.listing(repo, ref);
  if (kept !== undefined) return kept;
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", {
      ...repo,
      tree_sha: ref,
      recursive: "1",
      ...(options.signal === undefined ? {} : { request: { signal: options.signal } }),
    });
    // Regular files only: a link's blob is its target's name, not the team's text.
    const paths = data.tree.flatMap((entry) =>
      entry.type === "blob" &&
      (entry.mode === "100644" || entry.mode === "100755") &&
      entry.path !== undefined &&
      isConventionPath(entry.path)
        ? [entry.path]
        : [],
    );
    if (data.truncated) {
      // GitHub lists at most 100,000 entries: the conventions past them are not seen, and the
      // log says so; what was listed is used, and not kept (a later round may list it whole).
      options.onError?.("the tree listing", new Error("GitHub truncated the tree listing"));
    } else if (options.signal?.aborted !== true) {
      cache?.setListing(repo, ref, paths);
    }
    return paths;
  } catch (error) {
    if (options.signal?.aborted) return null;
    if ((error as { status?: unknown }).status === 404) return [];
    options.onError?.("the tree listing", error);
    return null;
  }
}
