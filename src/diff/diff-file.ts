/** What happened to a file in a diff. Binary-ness is a separate flag: a binary file can be added, renamed… */
export type DiffFileStatus = "added" | "deleted" | "modified" | "renamed" | "copied";

export type DiffLineType = "add" | "delete" | "context";

/** One line of a hunk body. */
export interface DiffLine {
  type: DiffLineType;
  /** The line's text without its leading marker (`+`, `-`, space) and without its line terminator. */
  content: string;
  /** Line number on the old side; null for added lines. */
  oldLine: number | null;
  /** Line number on the new side; null for deleted lines. */
  newLine: number | null;
  /** The diff marks this line `\ No newline at end of file` (it ends its side's file without a newline). */
  noNewlineAtEnd?: true;
}

/** One `@@ -oldStart,oldCount +newStart,newCount @@ section` block. Counts default to 1 when omitted. */
export interface DiffHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** The text after the closing `@@ ` (git's function context), or "" when there is none. */
  section: string;
  lines: DiffLine[];
}

export interface DiffFile {
  /** The key everything else uses: the new path, or the old path of a deleted file. */
  path: string;
  /** Null for an added file. */
  oldPath: string | null;
  /** Null for a deleted file. */
  newPath: string | null;
  status: DiffFileStatus;
  binary: boolean;
  /** File modes (e.g. "100644") when the diff states them (new/deleted file mode, old/new mode). */
  oldMode: string | null;
  newMode: string | null;
  /** `similarity index` percentage of a rename or copy. */
  similarity: number | null;
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
}
