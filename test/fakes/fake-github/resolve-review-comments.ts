import { parsePatchHunks } from "./parse-patch-hunks.js";
import type { FileChange, Side } from "./types.js";

export interface ReviewCommentInput {
  path: string;
  body: string;
  line?: number;
  side?: string;
  start_line?: number;
  start_side?: string;
  position?: number;
}

export interface ResolvedReviewComment {
  path: string;
  body: string;
  line: number;
  side: Side;
  startLine: number | null;
  startSide: Side | null;
  position: number;
  diffHunk: string;
}

/**
 * Places review comments on the diff the way GitHub does, or says why it
 * cannot: each comment's `line` (and `start_line`) must be a line of one hunk
 * of that file's patch on its side (context lines count). One bad comment
 * fails them all, messages in GitHub's words.
 */
export function resolveReviewComments(
  files: readonly FileChange[],
  comments: readonly ReviewCommentInput[],
): { comments: ResolvedReviewComment[]; errors: string[] } {
  const resolved: ResolvedReviewComment[] = [];
  const errors: string[] = [];
  for (const comment of comments) {
    const result = resolveOne(files, comment);
    if (typeof result === "string") errors.push(result);
    else resolved.push(result);
  }
  return { comments: errors.length > 0 ? [] : resolved, errors };
}

function resolveOne(
  files: readonly FileChange[],
  comment: ReviewCommentInput,
): ResolvedReviewComment | string {
  const file = files.find((candidate) => candidate.filename === comment.path);
  if (file === undefined) return "Path could not be resolved";
  if (file.patch === undefined) return "Pull request review thread diff hunk can't be blank";
  const hunks = parsePatchHunks(file.patch);
  const requestedSide = comment.side ?? "RIGHT";
  if (requestedSide !== "RIGHT" && requestedSide !== "LEFT") {
    return `Invalid side: ${requestedSide} (must be LEFT or RIGHT)`;
  }
  let endSide: Side = requestedSide;
  let endLine = comment.line;
  if (endLine === undefined) {
    if (comment.position === undefined) return "One of line or position is required";
    const placed = placePosition(hunks, comment.position);
    if (placed === undefined) return "Pull request review thread position is invalid";
    endSide = placed.side;
    endLine = placed.line;
  }
  const line = endLine;
  const hunk = hunks.find((candidate) =>
    (endSide === "RIGHT" ? candidate.right : candidate.left).has(line),
  );
  const endPosition = hunk?.positions.get(`${endSide}:${line}`);
  if (hunk === undefined || endPosition === undefined) {
    return "Pull request review thread line must be part of the diff";
  }
  let startSide: Side | null = null;
  if (comment.start_line !== undefined) {
    const requestedStartSide = comment.start_side ?? endSide;
    if (requestedStartSide !== "RIGHT" && requestedStartSide !== "LEFT") {
      return `Invalid start_side: ${requestedStartSide} (must be LEFT or RIGHT)`;
    }
    startSide = requestedStartSide;
    const startPosition = hunk.positions.get(`${startSide}:${comment.start_line}`);
    if (startPosition === undefined) {
      return "Pull request review thread start line must be part of the same hunk as the line";
    }
    if (startPosition >= endPosition) {
      return "Pull request review thread start line must precede the end line";
    }
  }
  return {
    path: comment.path,
    body: comment.body,
    line,
    side: endSide,
    startLine: comment.start_line ?? null,
    startSide,
    position: endPosition,
    // GitHub's diff_hunk runs from the hunk header to the commented line.
    diffHunk: hunk.lines.slice(0, endPosition - hunk.headerPosition + 1).join("\n"),
  };
}

// A context line sits on both sides: a position is read on the new side first.
function placePosition(
  hunks: ReturnType<typeof parsePatchHunks>,
  position: number,
): { line: number; side: Side } | undefined {
  for (const side of ["RIGHT", "LEFT"] as const) {
    for (const hunk of hunks) {
      for (const [key, candidate] of hunk.positions) {
        if (candidate === position && key.startsWith(`${side}:`)) {
          return { line: Number(key.slice(side.length + 1)), side };
        }
      }
    }
  }
  return undefined;
}
