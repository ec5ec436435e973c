import { classifyPath, type PathKind } from "./classify-path.js";
import type { DiffFile } from "./diff-file.js";
import { type Exclusion, exclusionOf, type FileEvidence } from "./exclusion-of.js";
import { measureDiffFile } from "./measure-diff-file.js";
import { quoteGitPath } from "./quote-git-path.js";
import { renderDiffFile } from "./render-diff-file.js";

/**
 * Why a changed file is not in the packed diff:
 * - lockfile, generated, binary, not-text: no model is given it (exclusionOf);
 * - too-large: its diff alone exceeds the whole budget;
 * - over-budget: it would fit alone, but not with the files ranked before it.
 */
export type OmissionReason = Exclusion | "too-large" | "over-budget";

export interface OmittedFile {
  path: string;
  reason: OmissionReason;
}

export interface PackedDiff {
  /** The included files' diffs in their original order, then the list of omitted files. */
  text: string;
  included: string[];
  omitted: OmittedFile[];
}

export interface PackDiffOptions {
  /** End the text with a list of the omitted files, within the budget. Default true. */
  listOmitted?: boolean;
  /** What the head says of the files (generated, text): see exclusionOf. */
  evidence?: FileEvidence | undefined;
}

/** At most this many omitted paths are named in the text; the rest are counted. */
const MAX_LISTED_OMISSIONS = 20;

const KIND_RANK: Record<PathKind, number> = {
  source: 0,
  config: 1,
  test: 2,
  docs: 3,
  lockfile: 4,
};

interface Candidate {
  file: DiffFile;
  order: number;
  rank: number;
  size: number;
}

const RENDER_OPTIONS = { quoteNonAscii: false } as const;

/**
 * Packs whole per-file diffs into `budget` characters (text.length never exceeds it). Nothing is
 * dropped silently: every file ends up in `included` or `omitted`, and the text says which files
 * it leaves out so a reviewer can read them with its tools.
 *
 * Files are never cut: a file missing some of its hunks would read as if the rest were unchanged.
 * Priority is source, then config, then tests, then docs; within a kind, smaller diffs first
 * (ties by path), which fits the most files into the budget: every file left out is a file no
 * reviewer sees in its prompt. Packing is first-fit in that order, so a large file that does not
 * fit does not stop smaller ones behind it. Paths are shown unescaped (UTF-8), as a model should
 * quote them back.
 */
export function packDiff(
  files: readonly DiffFile[],
  budget: number,
  options: PackDiffOptions = {},
): PackedDiff {
  if (!Number.isFinite(budget) || budget < 0) {
    throw new RangeError("The diff budget must be a non-negative number of characters");
  }
  const listOmitted = options.listOmitted ?? true;
  const omitted: OmittedFile[] = [];
  const candidates: Candidate[] = [];

  files.forEach((file, order) => {
    const kind = classifyPath(file.path);
    const exclusion = exclusionOf(file, options.evidence);
    if (exclusion !== null) {
      omitted.push({ path: file.path, reason: exclusion });
    } else {
      const size = measureDiffFile(file, RENDER_OPTIONS);
      if (size > budget) {
        omitted.push({ path: file.path, reason: "too-large" });
      } else {
        candidates.push({ file, order, rank: KIND_RANK[kind], size });
      }
    }
  });

  candidates.sort(
    (left, right) =>
      left.rank - right.rank ||
      left.size - right.size ||
      compareText(left.file.path, right.file.path),
  );
  const chosen: Candidate[] = [];
  let used = 0;
  for (const candidate of candidates) {
    if (used + candidate.size <= budget) {
      chosen.push(candidate);
      used += candidate.size;
    } else {
      omitted.push({ path: candidate.file.path, reason: "over-budget" });
    }
  }

  // Make room for the list of omissions by giving up the lowest-priority files.
  let note = listOmitted ? omissionNote(omitted) : "";
  while (used + note.length > budget && chosen.length > 0) {
    const evicted = chosen.pop();
    if (evicted === undefined) break;
    used -= evicted.size;
    omitted.push({ path: evicted.file.path, reason: "over-budget" });
    note = omissionNote(omitted);
  }
  if (used + note.length > budget) note = "";

  chosen.sort((left, right) => left.order - right.order);
  return {
    text: chosen.map((candidate) => renderDiffFile(candidate.file, RENDER_OPTIONS)).join("") + note,
    included: chosen.map((candidate) => candidate.file.path),
    omitted,
  };
}

/** Code left out for lack of room matters most to a reviewer, so it is named first. */
const NOTE_ORDER: Record<OmissionReason, number> = {
  "over-budget": 0,
  "too-large": 1,
  "not-text": 2,
  binary: 3,
  generated: 4,
  lockfile: 5,
};

function omissionNote(omitted: readonly OmittedFile[]): string {
  if (omitted.length === 0) return "";
  const listed = [...omitted]
    .sort((left, right) => NOTE_ORDER[left.reason] - NOTE_ORDER[right.reason])
    .slice(0, MAX_LISTED_OMISSIONS);
  let note = `\n# ${omitted.length} changed file(s) not shown in this diff:\n`;
  for (const file of listed)
    note += `# - ${quoteGitPath(file.path, { quoteNonAscii: false })} (${file.reason})\n`;
  if (omitted.length > listed.length) note += `# … and ${omitted.length - listed.length} more\n`;
  return note;
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
