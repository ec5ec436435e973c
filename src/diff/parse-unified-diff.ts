import type { DiffFile, DiffFileStatus } from "./diff-file.js";
import { DiffParseError } from "./diff-parse-error.js";
import { LineCursor } from "./line-cursor.js";
import { readHunk } from "./read-hunk.js";
import { splitGitHeaderPaths } from "./split-git-header-paths.js";
import { unquoteGitPath } from "./unquote-git-path.js";

const AT = 64;
const LOWER_D = 100;
const DEV_NULL = "/dev/null";

/** Header facts gathered for one file until its first hunk; resolved into the DiffFile at the end. */
interface PendingFile {
  file: DiffFile;
  /** Line number of the header that started the file, for error messages. */
  lineNumber: number;
  /** The `a/x b/y` part of `diff --git`; null for a plain (non-git) unified diff. */
  gitNames: string | null;
  inHeaders: boolean;
  /** Paths from `---`/`+++` (prefix still on); null means /dev/null, undefined means absent. */
  minusPath: string | null | undefined;
  plusPath: string | null | undefined;
  fromPath: string | undefined;
  toPath: string | undefined;
  status: DiffFileStatus;
}

/**
 * Parses `git diff` output or a GitHub `.diff` (`application/vnd.github.diff`) into files, in one
 * pass without splitting the text. Also accepts plain `diff -u` output (`---`/`+++` without a
 * `diff --git` line). Combined diffs of merges (`diff --cc`) are skipped: a PR diff never has one.
 * Lines outside any file or hunk (commit messages, format-patch signatures, binary patch data)
 * are ignored. Throws DiffParseError when a hunk is broken.
 */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  const cursor = new LineCursor(text);
  let pending: PendingFile | null = null;
  let skipping = false;

  while (cursor.advance()) {
    const code = cursor.firstCharCode();
    if (code === AT && cursor.startsWith("@@ ")) {
      if (pending === null) {
        if (skipping) continue;
        throw new DiffParseError("Hunk before any file header", cursor.lineNumber);
      }
      readHunk(cursor, pending.file);
      pending.inHeaders = false;
      continue;
    }
    if (code === LOWER_D && cursor.startsWith("diff ")) {
      if (pending !== null) files.push(finishFile(pending));
      pending = null;
      skipping = cursor.startsWith("diff --cc ") || cursor.startsWith("diff --combined ");
      if (cursor.startsWith("diff --git ")) {
        pending = startFile(cursor.lineNumber, cursor.rest(11));
      }
      continue;
    }
    if (pending?.inHeaders) {
      readHeaderLine(cursor, pending);
      continue;
    }
    if (!skipping && cursor.startsWith("--- ") && cursor.nextStartsWith("+++ ")) {
      if (pending !== null) files.push(finishFile(pending));
      pending = startFile(cursor.lineNumber, null);
      readHeaderLine(cursor, pending);
    }
  }
  if (pending !== null) files.push(finishFile(pending));
  return files;
}

function startFile(lineNumber: number, gitNames: string | null): PendingFile {
  return {
    file: {
      path: "",
      oldPath: null,
      newPath: null,
      status: "modified",
      binary: false,
      oldMode: null,
      newMode: null,
      similarity: null,
      hunks: [],
      additions: 0,
      deletions: 0,
    },
    lineNumber,
    gitNames,
    inHeaders: true,
    minusPath: undefined,
    plusPath: undefined,
    fromPath: undefined,
    toPath: undefined,
    status: "modified",
  };
}

/** One extended header line (`new file mode`, `rename from`, `---`, …); unknown lines are ignored. */
function readHeaderLine(cursor: LineCursor, pending: PendingFile): void {
  const file = pending.file;
  if (cursor.startsWith("--- ")) {
    pending.minusPath = readFileLinePath(cursor.rest(4));
  } else if (cursor.startsWith("+++ ")) {
    pending.plusPath = readFileLinePath(cursor.rest(4));
  } else if (cursor.startsWith("new file mode ")) {
    pending.status = "added";
    file.newMode = cursor.rest(14);
  } else if (cursor.startsWith("deleted file mode ")) {
    pending.status = "deleted";
    file.oldMode = cursor.rest(18);
  } else if (cursor.startsWith("old mode ")) {
    file.oldMode = cursor.rest(9);
  } else if (cursor.startsWith("new mode ")) {
    file.newMode = cursor.rest(9);
  } else if (cursor.startsWith("similarity index ")) {
    const similarity = Number.parseInt(cursor.rest(17), 10);
    file.similarity = Number.isNaN(similarity) ? null : similarity;
  } else if (cursor.startsWith("rename from ")) {
    pending.status = "renamed";
    pending.fromPath = readBarePath(cursor.rest(12));
  } else if (cursor.startsWith("rename to ")) {
    pending.status = "renamed";
    pending.toPath = readBarePath(cursor.rest(10));
  } else if (cursor.startsWith("copy from ")) {
    pending.status = "copied";
    pending.fromPath = readBarePath(cursor.rest(10));
  } else if (cursor.startsWith("copy to ")) {
    pending.status = "copied";
    pending.toPath = readBarePath(cursor.rest(8));
  } else if (cursor.startsWith("Binary files ") || cursor.startsWith("GIT binary patch")) {
    file.binary = true;
  }
}

/** The path of a `---`/`+++` line: quoted, or cut at the tab git adds after names with spaces. */
function readFileLinePath(value: string): string | null {
  let path: string;
  if (value.startsWith('"')) {
    path = readBarePath(value);
  } else {
    const tab = value.indexOf("\t");
    path = tab === -1 ? value : value.slice(0, tab);
  }
  return path === DEV_NULL ? null : path;
}

function readBarePath(value: string): string {
  if (!value.startsWith('"')) return value;
  const quoted = unquoteGitPath(value, 0);
  return quoted === null ? value : quoted.value;
}

function finishFile(pending: PendingFile): DiffFile {
  const file = pending.file;
  let status = pending.status;
  if (pending.minusPath === null) status = "added";
  if (pending.plusPath === null) status = "deleted";

  const prefixed = pending.gitNames !== null || hasPlainPrefixes(pending);
  let oldPath = pending.fromPath ?? withoutPrefix(pending.minusPath, "a/", prefixed);
  let newPath = pending.toPath ?? withoutPrefix(pending.plusPath, "b/", prefixed);
  if ((oldPath === undefined || newPath === undefined) && pending.gitNames !== null) {
    const names = splitGitHeaderPaths(pending.gitNames);
    oldPath ??= names?.oldPath;
    newPath ??= names?.newPath;
  }
  if (status === "added") oldPath = null;
  if (status === "deleted") newPath = null;
  const path = newPath ?? oldPath;
  if (path === null || path === undefined) {
    throw new DiffParseError("Cannot tell the file's path from its header", pending.lineNumber);
  }
  file.path = path;
  file.oldPath = oldPath ?? null;
  file.newPath = newPath ?? null;
  file.status = status;
  return file;
}

/** A plain unified diff strips `a/`/`b/` only when both sides carry them (as `diff -ru a b` does). */
function hasPlainPrefixes(pending: PendingFile): boolean {
  const minus = pending.minusPath;
  const plus = pending.plusPath;
  return (
    (minus === null || minus?.startsWith("a/") === true) &&
    (plus === null || plus?.startsWith("b/") === true)
  );
}

function withoutPrefix(
  path: string | null | undefined,
  prefix: string,
  strip: boolean,
): string | null | undefined {
  if (path === null || path === undefined || !strip) return path;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
