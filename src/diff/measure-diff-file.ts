import type { DiffFile, DiffHunk } from "./diff-file.js";
import {
  NO_NEWLINE,
  type RenderDiffFileOptions,
  renderFileHeader,
  renderHunkHeader,
} from "./render-diff-file.js";

/**
 * The length of `renderDiffFile(file, options)` without building it: packing a big PR weighs
 * every file but renders only those it keeps.
 */
export function measureDiffFile(file: DiffFile, options: RenderDiffFileOptions = {}): number {
  let length = renderFileHeader(file, options).length;
  for (const hunk of file.hunks) length += measureHunk(hunk);
  return length;
}

/** The length of `renderHunk(hunk)` without building it. */
export function measureHunk(hunk: DiffHunk): number {
  let length = renderHunkHeader(hunk).length;
  for (const line of hunk.lines) {
    // marker + content + "\n"
    length += line.content.length + 2;
    if (line.noNewlineAtEnd === true) length += NO_NEWLINE.length;
  }
  return length;
}
