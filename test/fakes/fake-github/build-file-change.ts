import { buildPatch } from "./build-patch.js";
import { gitBlobSha } from "./git-blob-sha.js";
import type { FileChange } from "./types.js";

export interface FileChangeInput {
  path: string;
  /** Set for a rename: the path on the base side. */
  previousPath?: string;
  /** null when the file is added. */
  before: Buffer | null;
  /** null when the file is removed. */
  after: Buffer | null;
}

const nullSha = "0000000";
const fileMode = "100644";

/** One file's entry in the PR files list and its section of the unified diff. */
export function buildFileChange(input: FileChangeInput): FileChange {
  const { before, after } = input;
  const oldPath = input.previousPath ?? input.path;
  const binary = isBinary(before) || isBinary(after);
  const beforeSha = before === null ? nullSha : gitBlobSha(before).slice(0, 7);
  const afterSha = after === null ? nullSha : gitBlobSha(after).slice(0, 7);
  const status =
    before === null
      ? "added"
      : after === null
        ? "removed"
        : input.previousPath !== undefined && input.previousPath !== input.path
          ? "renamed"
          : "modified";
  const sha = gitBlobSha(after ?? before ?? Buffer.alloc(0));
  const patch = binary
    ? undefined
    : buildPatch(before?.toString("utf8") ?? "", after?.toString("utf8") ?? "");

  const header = [`diff --git a/${oldPath} b/${input.path}`];
  if (status === "added") {
    header.push(`new file mode ${fileMode}`, `index ${nullSha}..${afterSha}`);
  } else if (status === "removed") {
    header.push(`deleted file mode ${fileMode}`, `index ${beforeSha}..${nullSha}`);
  } else {
    if (status === "renamed") {
      header.push(
        `similarity index ${binary ? (beforeSha === afterSha ? 100 : 0) : (patch?.similarity ?? 100)}%`,
        `rename from ${oldPath}`,
        `rename to ${input.path}`,
      );
    }
    if (beforeSha !== afterSha) header.push(`index ${beforeSha}..${afterSha} ${fileMode}`);
  }
  const oldName = before === null ? "/dev/null" : `a/${oldPath}`;
  const newName = after === null ? "/dev/null" : `b/${input.path}`;
  if (binary && beforeSha !== afterSha) {
    header.push(`Binary files ${oldName} and ${newName} differ`);
  } else if (patch !== undefined && patch.text !== "") {
    header.push(`--- ${oldName}`, `+++ ${newName}`, patch.text);
  }

  const additions = patch?.additions ?? 0;
  const deletions = patch?.deletions ?? 0;
  return {
    filename: input.path,
    ...(status === "renamed" ? { previousFilename: oldPath } : {}),
    status,
    additions,
    deletions,
    changes: additions + deletions,
    ...(patch !== undefined && patch.text !== "" ? { patch: patch.text } : {}),
    binary,
    diffText: `${header.join("\n")}\n`,
    sha,
  };
}

// git's heuristic: a NUL byte in the first 8000 bytes means binary.
function isBinary(content: Buffer | null): boolean {
  return content?.subarray(0, 8000).includes(0) ?? false;
}
