import fc from "fast-check";
import type {
  DiffFile,
  DiffFileStatus,
  DiffHunk,
  DiffLine,
  DiffLineType,
} from "../../src/diff/diff-file.js";

/** Path characters that exercise quoting: spaces, tabs, quotes, backslashes, non-ASCII. */
const TRICKY_CHARACTERS = [" ", "\t", '"', "\\", "é", "日", "-", "_", ".", " b", "\n", "\u007f"];

const plainSegment = fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,8}$/);
const trickySegment = fc
  .array(fc.oneof(fc.constantFrom(...TRICKY_CHARACTERS), fc.constantFrom("a", "x", "1", "Z")), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(""))
  .filter((segment) => segment !== "." && segment !== ".." && !segment.includes("/"));

/** A repository path; `plain` keeps to [a-z0-9_.-] segments, which every parser understands. */
export function arbitraryPath(plain: boolean): fc.Arbitrary<string> {
  const segment = plain ? plainSegment : fc.oneof(plainSegment, trickySegment);
  return fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));
}

/** Line text: anything but a line terminator; it may look like a header (`--- x`, `@@ `). */
const lineContent = fc.oneof(
  fc.string({ maxLength: 30 }).map((text) => text.replace(/[\r\n]/g, "")),
  fc.constantFrom(
    "",
    "-- x",
    "++ y",
    "--- a/f",
    "+++ b/f",
    "@@ -1 +1 @@",
    "diff --git a/f b/f",
    "\\ x",
  ),
);

interface HunkSpec {
  gap: number;
  operations: Array<{ type: DiffLineType; content: string }>;
  section: string;
}

const operationType = (status: DiffFileStatus): fc.Arbitrary<DiffLineType> =>
  status === "added"
    ? fc.constant("add")
    : status === "deleted"
      ? fc.constant("delete")
      : fc.constantFrom("add", "delete", "context");

function arbitraryHunkSpecs(status: DiffFileStatus): fc.Arbitrary<HunkSpec[]> {
  const single = status === "added" || status === "deleted";
  const hunk = fc.record({
    // An added or deleted file's only hunk starts at line 1, as git writes it.
    gap: single ? fc.constant(0) : fc.nat({ max: 40 }),
    operations: fc.array(fc.record({ type: operationType(status), content: lineContent }), {
      minLength: 1,
      maxLength: 12,
    }),
    section: fc.oneof(
      fc.constant(""),
      fc.string({ maxLength: 20 }).map((text) => text.replace(/[\r\n]/g, "")),
    ),
  });
  return fc.array(hunk, { minLength: single ? 1 : 0, maxLength: single ? 1 : 5 });
}

/** Turns hunk specs into numbered hunks the way git would lay them out in one file. */
function buildHunks(specs: HunkSpec[], markEnd: { old: boolean; new: boolean }): DiffHunk[] {
  let oldCursor = 1;
  let newCursor = 1;
  const hunks = specs.map((spec, index) => {
    const gap = index === 0 ? spec.gap : spec.gap + 1;
    oldCursor += gap;
    newCursor += gap;
    const oldFirst = oldCursor;
    const newFirst = newCursor;
    const lines: DiffLine[] = spec.operations.map(({ type, content }) => {
      if (type === "add") return { type, content, oldLine: null, newLine: newCursor++ };
      if (type === "delete") return { type, content, oldLine: oldCursor++, newLine: null };
      return { type, content, oldLine: oldCursor++, newLine: newCursor++ };
    });
    const oldCount = oldCursor - oldFirst;
    const newCount = newCursor - newFirst;
    return {
      // git numbers an empty side from the line before it.
      oldStart: oldCount === 0 ? oldFirst - 1 : oldFirst,
      oldCount,
      newStart: newCount === 0 ? newFirst - 1 : newFirst,
      newCount,
      section: spec.section,
      lines,
    };
  });
  const last = hunks.at(-1)?.lines;
  if (last !== undefined) {
    const lastOld = last.findLast((line) => line.oldLine !== null);
    const lastNew = last.findLast((line) => line.newLine !== null);
    if (markEnd.old && lastOld !== undefined) lastOld.noNewlineAtEnd = true;
    if (markEnd.new && lastNew !== undefined) lastNew.noNewlineAtEnd = true;
  }
  return hunks;
}

const mode = fc.constantFrom("100644", "100755", "120000");

export interface ArbitraryDiffFileOptions {
  /** Only [a-z0-9_.-] paths, only text files with hunks, no renames or copies. */
  simple?: boolean;
}

/** A DiffFile exactly as parseUnifiedDiff returns it, with every field consistent. */
export function arbitraryDiffFile(options: ArbitraryDiffFileOptions = {}): fc.Arbitrary<DiffFile> {
  const simple = options.simple ?? false;
  const statuses: DiffFileStatus[] = simple
    ? ["modified", "added", "deleted"]
    : ["modified", "added", "deleted", "renamed", "copied"];
  return fc.constantFrom(...statuses).chain((status) =>
    fc
      .record({
        oldPath: arbitraryPath(simple),
        newPath: arbitraryPath(simple),
        binary: simple ? fc.constant(false) : fc.nat({ max: 5 }).map((draw) => draw === 0),
        modes: fc.option(fc.tuple(mode, mode).filter(([left, right]) => left !== right)),
        similarity: fc.option(fc.integer({ min: 0, max: 100 })),
        specs: arbitraryHunkSpecs(status).filter((specs) => !simple || specs.length > 0),
        markEnd: fc.record({ old: fc.boolean(), new: fc.boolean() }),
      })
      .map(({ oldPath, newPath, binary, modes, similarity, specs, markEnd }): DiffFile => {
        const moved = status === "renamed" || status === "copied";
        const hunks = binary ? [] : buildHunks(specs, markEnd);
        const lines = hunks.flatMap((hunk) => hunk.lines);
        const oldName = status === "added" ? null : oldPath;
        const newName = status === "deleted" ? null : moved ? newPath : oldPath;
        return {
          path: newName ?? oldPath,
          oldPath: oldName,
          newPath: newName,
          status,
          binary,
          oldMode:
            status === "added"
              ? null
              : status === "deleted"
                ? (modes?.[0] ?? "100644")
                : (modes?.[0] ?? null),
          newMode:
            status === "deleted"
              ? null
              : status === "added"
                ? (modes?.[1] ?? "100644")
                : (modes?.[1] ?? null),
          similarity: moved ? similarity : null,
          hunks,
          additions: lines.filter((line) => line.type === "add").length,
          deletions: lines.filter((line) => line.type === "delete").length,
        };
      }),
  );
}
