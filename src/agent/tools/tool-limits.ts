/** Caps on what one tool call may read and return; the defaults suit a 100k-token context. */
export interface ToolLimits {
  /** Lines read_file returns per call. */
  readFileMaxLines: number;
  /** Bytes of output any tool returns per call. */
  maxOutputBytes: number;
  /** A longer line is cut in the output (minified files). */
  maxLineChars: number;
  /** read_file refuses larger files. */
  readFileMaxBytes: number;
  /** Entries list_files returns. */
  listFilesMaxEntries: number;
  /** grep stops after this many matching lines. */
  grepMaxMatches: number;
  /** grep skips larger files. */
  grepMaxFileBytes: number;
  /** grep stops after scanning this many bytes in total. */
  grepMaxScannedBytes: number;
  /** grep looks at no more files than this. */
  grepMaxFiles: number;
  /** grep patterns longer than this are refused. */
  grepMaxPatternChars: number;
  /** Wall-clock budget of one grep; a runaway (catastrophic) pattern is stopped at it. */
  grepTimeoutMs: number;
  /** Lines of a file's patch get_diff returns per call. */
  getDiffMaxLines: number;
  /** Entries of the tree find_files looks at before it stops. */
  findFilesMaxVisited: number;
  /** find_files patterns longer than this are refused. */
  findFilesMaxPatternChars: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  readFileMaxLines: 400,
  maxOutputBytes: 32 * 1024,
  maxLineChars: 1_000,
  readFileMaxBytes: 4 * 1024 * 1024,
  listFilesMaxEntries: 500,
  grepMaxMatches: 100,
  grepMaxFileBytes: 1024 * 1024,
  grepMaxScannedBytes: 64 * 1024 * 1024,
  grepMaxFiles: 20_000,
  grepMaxPatternChars: 500,
  grepTimeoutMs: 5_000,
  getDiffMaxLines: 400,
  findFilesMaxVisited: 100_000,
  findFilesMaxPatternChars: 200,
};
