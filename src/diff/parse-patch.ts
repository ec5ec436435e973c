import type { DiffFile, DiffFileStatus } from "./diff-file.js";
import { DiffParseError } from "./diff-parse-error.js";
import { LineCursor } from "./line-cursor.js";
import { readHunk } from "./read-hunk.js";

/** The `status` values of GitHub's "list pull request files" endpoint, and ours. */
export type PatchStatus = DiffFileStatus | "removed" | "changed" | "unchanged";

export interface PatchDetails {
  /** The file's status as GitHub reports it; inferred from the hunks when absent. */
  status?: PatchStatus;
  /** GitHub's `previous_filename` of a renamed or copied file. */
  previousPath?: string;
}

const GITHUB_STATUS: Record<PatchStatus, DiffFileStatus> = {
  added: "added",
  deleted: "deleted",
  removed: "deleted",
  modified: "modified",
  changed: "modified",
  unchanged: "modified",
  renamed: "renamed",
  copied: "copied",
};

/**
 * Parses the `patch` field of one entry of GitHub's "list pull request files" endpoint: hunks
 * only, no file headers. `path` is the entry's `filename` (the new path). Text before the first
 * hunk is ignored; a broken hunk throws DiffParseError.
 */
export function parsePatch(path: string, patch: string, details: PatchDetails = {}): DiffFile {
  const file: DiffFile = {
    path,
    oldPath: details.previousPath ?? path,
    newPath: path,
    status: "modified",
    binary: false,
    oldMode: null,
    newMode: null,
    similarity: null,
    hunks: [],
    additions: 0,
    deletions: 0,
  };
  const cursor = new LineCursor(patch);
  while (cursor.advance()) {
    if (cursor.startsWith("@@ ")) {
      readHunk(cursor, file);
    } else if (file.hunks.length > 0 && cursor.lineEnd > cursor.lineStart) {
      throw new DiffParseError("Unexpected line between hunks", cursor.lineNumber);
    }
  }
  const status =
    details.status !== undefined ? GITHUB_STATUS[details.status] : inferStatus(file, details);
  file.status = status;
  if (status === "added") file.oldPath = null;
  if (status === "deleted") file.newPath = null;
  return file;
}

function inferStatus(file: DiffFile, details: PatchDetails): DiffFileStatus {
  if (details.previousPath !== undefined && details.previousPath !== file.path) return "renamed";
  const only = file.hunks.length === 1 ? file.hunks[0] : undefined;
  if (only?.oldStart === 0 && only.oldCount === 0) return "added";
  if (only?.newStart === 0 && only.newCount === 0) return "deleted";
  return "modified";
}
