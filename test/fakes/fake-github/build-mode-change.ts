import { gitBlobSha } from "./git-blob-sha.js";
import type { FileChange } from "./types.js";

/** A file whose mode alone changed, as GitHub lists it and shows it in the `.diff`. */
export function buildModeChange(path: string, mode: string, content: Buffer): FileChange {
  return {
    filename: path,
    status: "changed",
    additions: 0,
    deletions: 0,
    changes: 0,
    binary: false,
    diffText: `diff --git a/${path} b/${path}\nold mode 100644\nnew mode ${mode}\n`,
    sha: gitBlobSha(content),
  };
}
