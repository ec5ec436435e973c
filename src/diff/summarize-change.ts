import { classifyPath, type PathKind } from "./classify-path.js";
import type { DiffFile, DiffHunk } from "./diff-file.js";
import { type Exclusion, exclusionOf, type FileEvidence } from "./exclusion-of.js";
import { measureHunk } from "./measure-diff-file.js";
import { quoteGitPath } from "./quote-git-path.js";
import { renderFileHeader, renderHunk } from "./render-diff-file.js";

/** Why a changed file has no hunk in the summary at all, when it is not for lack of room. */
export type SummaryExclusion = Exclusion;

export interface ChangeSummary {
  /**
   * One line per changed file, in diff order: status, path (git-quoted when it holds control
   * characters), +/- lines and what of it is shown. Untrusted: the paths are the author's.
   */
  listing: string[];
  /** The chosen hunks as `git diff` text, files in diff order, hunks in file order. */
  hunks: string;
  /** Files with at least one hunk in `hunks`. */
  shown: string[];
  /** Files no model is given (lockfile, generated, binary, not-text): not reviewed. */
  excluded: { path: string; reason: SummaryExclusion }[];
}

export interface SummarizeOptions {
  /** Files to list with this note instead of summarising (e.g. ignored by the repository). */
  notes?: ReadonlyMap<string, string>;
  /** At most this many files are listed one per line; the rest are counted. Default 500. */
  maxListed?: number;
  /** A larger hunk is left to the tools. Default a third of the budget. */
  maxHunkChars?: number;
  /**
   * The files to list, when not `files` (an incremental round lists the whole pull request
   * and shows the hunks of the step since the last round): one not among `files` gets
   * `unshownNote`.
   */
  listed?: readonly DiffFile[];
  unshownNote?: string;
  /** What the head says of the files (generated, text): see exclusionOf. */
  evidence?: FileEvidence | undefined;
}

/** About 25,000 characters of listing: a 3,000-file change must not outweigh its hunks. */
const DEFAULT_MAX_LISTED = 500;

/** Source first: that is where a defect ships; docs last. Lockfiles are never shown. */
const KIND_RANK: Record<Exclude<PathKind, "lockfile">, number> = {
  source: 0,
  config: 1,
  test: 2,
  docs: 3,
};

/**
 * A hunk larger than this share of the budget is left to get_diff: one rewritten file must not
 * crowd every other file's change out of the first message.
 */
const MAX_HUNK_SHARE = 3;

interface Candidate {
  fileIndex: number;
  hunkIndex: number;
  rank: number;
  deleted: boolean;
  changed: number;
  cost: number;
}

/**
 * The compact view of a change a reviewer starts from: every file listed with its status and
 * size, then the highest-priority hunks within `budget` characters (`hunks.length` never exceeds
 * it). Priority: source, config, tests, docs; within a kind, files that still exist before
 * deleted ones, then the hunks with the most changed lines (the larger logic change), ties by
 * path and position, so the same change always gives the same text. A hunk is never cut, a file
 * may be shown in part (the listing says how many of its hunks are shown), and the rest is read
 * with the tools.
 */
export function summarizeChange(
  files: readonly DiffFile[],
  budget: number,
  options: SummarizeOptions = {},
): ChangeSummary {
  if (!Number.isFinite(budget) || budget < 0) {
    throw new RangeError("The diff budget must be a non-negative number of characters");
  }
  const notes = options.notes ?? new Map<string, string>();
  const excluded: ChangeSummary["excluded"] = [];
  const candidates: Candidate[] = [];
  files.forEach((file, fileIndex) => {
    if (notes.has(file.path)) return;
    const kind = classifyPath(file.path);
    const exclusion = exclusionOf(file, options.evidence);
    if (exclusion !== null || kind === "lockfile") {
      excluded.push({ path: file.path, reason: exclusion ?? "lockfile" });
      return;
    }
    file.hunks.forEach((hunk, hunkIndex) => {
      candidates.push({
        fileIndex,
        hunkIndex,
        rank: KIND_RANK[kind],
        deleted: file.status === "deleted",
        changed: changedLines(hunk),
        cost: measureHunk(hunk),
      });
    });
  });
  candidates.sort(
    (left, right) =>
      left.rank - right.rank ||
      Number(left.deleted) - Number(right.deleted) ||
      right.changed - left.changed ||
      compareText(pathAt(files, left), pathAt(files, right)) ||
      left.fileIndex - right.fileIndex ||
      left.hunkIndex - right.hunkIndex,
  );

  const chosen = new Map<number, Set<number>>();
  const headerCost = new Map<number, number>();
  let used = 0;
  const maxHunkChars = options.maxHunkChars ?? budget / MAX_HUNK_SHARE;
  for (const candidate of candidates) {
    if (candidate.cost > maxHunkChars) continue;
    const file = files[candidate.fileIndex] as DiffFile;
    const header = chosen.has(candidate.fileIndex)
      ? 0
      : (headerCost.get(candidate.fileIndex) ?? headerLength(file));
    headerCost.set(candidate.fileIndex, header);
    if (used + header + candidate.cost > budget) continue;
    used += header + candidate.cost;
    const set = chosen.get(candidate.fileIndex) ?? new Set<number>();
    set.add(candidate.hunkIndex);
    chosen.set(candidate.fileIndex, set);
  }

  let hunks = "";
  const shown: string[] = [];
  files.forEach((file, fileIndex) => {
    const picked = chosen.get(fileIndex);
    if (picked === undefined) return;
    shown.push(file.path);
    hunks += renderFileHeader(file, RENDER_OPTIONS);
    file.hunks.forEach((hunk, hunkIndex) => {
      if (picked.has(hunkIndex)) hunks += renderHunk(hunk);
    });
  });

  const exclusion = new Map(excluded.map((entry) => [entry.path, entry.reason]));
  const indexOf = new Map(files.map((file, fileIndex) => [file.path, fileIndex]));
  const listed = options.listed ?? files;
  const maxListed = options.maxListed ?? DEFAULT_MAX_LISTED;
  const listing = listed.slice(0, maxListed).map((file) => {
    const fileIndex = indexOf.get(file.path);
    const summarized = fileIndex === undefined ? undefined : files[fileIndex];
    const note =
      notes.get(file.path) ??
      excludedNote(exclusion.get(file.path)) ??
      (summarized === undefined || fileIndex === undefined
        ? (options.unshownNote ?? "— not shown")
        : shownNote(summarized, chosen.get(fileIndex)?.size ?? 0));
    return `${describeFile(file)} ${note}`;
  });
  if (listed.length > maxListed) {
    listing.push(
      `… and ${listed.length - maxListed} more changed files, not listed (find_files with changed: true lists them)`,
    );
  }
  return { listing, hunks, shown, excluded };
}

const RENDER_OPTIONS = { quoteNonAscii: false } as const;

function describeFile(file: DiffFile): string {
  const quote = (path: string) => quoteGitPath(path, RENDER_OPTIONS);
  const size = file.binary ? "binary" : `+${file.additions} -${file.deletions}`;
  if ((file.status === "renamed" || file.status === "copied") && file.oldPath !== null) {
    return `${file.status} ${quote(file.oldPath)} → ${quote(file.path)} (${size})`;
  }
  return `${file.status} ${quote(file.path)} (${size})`;
}

const EXCLUDED_NOTES: Record<SummaryExclusion, string> = {
  lockfile: "— lockfile, not reviewed (its hosts and install scripts are checked apart)",
  generated: "— generated, not reviewed",
  binary: "— binary, not reviewed",
  "not-text": "— no text diff (git treats this source file as binary), not reviewed",
};

function excludedNote(reason: SummaryExclusion | undefined): string | undefined {
  return reason === undefined ? undefined : EXCLUDED_NOTES[reason];
}

function shownNote(file: DiffFile, shown: number): string {
  const total = file.hunks.length;
  if (total === 0) return "— no text change";
  if (shown === total) return "— shown below";
  if (shown === 0) return `— not shown (${total} hunk${total === 1 ? "" : "s"})`;
  return `— ${shown} of ${total} hunks shown below`;
}

function changedLines(hunk: DiffHunk): number {
  let changed = 0;
  for (const line of hunk.lines) if (line.type !== "context") changed++;
  return changed;
}

function headerLength(file: DiffFile): number {
  return renderFileHeader(file, RENDER_OPTIONS).length;
}

function pathAt(files: readonly DiffFile[], candidate: Candidate): string {
  return files[candidate.fileIndex]?.path ?? "";
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
