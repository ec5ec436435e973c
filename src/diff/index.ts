// Front door of src/diff: unified diffs: parsing, indexing changed lines, packing for a prompt.
// Other folders import only from here; this lists what they use today.
export { ChangedLineIndex } from "./changed-line-index.js";
export type { DiffFile, DiffLine } from "./diff-file.js";
export { type Exclusion, exclusionOf, type FileEvidence } from "./exclusion-of.js";
export { hasTextExtension } from "./has-text-extension.js";
export { type MappedLines, mapLinesThroughPatch } from "./map-lines-through-patch.js";
export { packDiff } from "./pack-diff.js";
export { parsePatch } from "./parse-patch.js";
export { parseUnifiedDiff } from "./parse-unified-diff.js";
export { renderDiffFile } from "./render-diff-file.js";
export {
  type ChangeSummary,
  type SummaryExclusion,
  summarizeChange,
} from "./summarize-change.js";
