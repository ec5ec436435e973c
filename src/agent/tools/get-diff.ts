import { type DiffFile, renderDiffFile } from "../../diff/index.js";
import { cutLine } from "./cap-output.js";
import { defineRepoTool, ToolError } from "./repo-tool.js";
import { GetDiffArguments } from "./schema.js";

/** A model-given path quoted back in an error: long enough to recognise, never a flood. */
const MAX_ECHOED_PATH_CHARS = 200;

/**
 * `get_diff {path, offset?, limit?}`: one changed file's patch, a page at a time. The first
 * message shows only the highest-priority hunks; this is how a reviewer reads the rest.
 */
export const getDiff = defineRepoTool({
  definition: {
    name: "get_diff",
    description:
      "Read the unified diff of one file this pull request changes (the change summary lists " +
      "them). Returns a page of the patch's lines: pass offset (0-based line of the patch) and " +
      "limit to page through a large one; the answer says where the next page starts.",
    parameters: {
      type: "object",
      properties: {
        path: {
          type: "string",
          description: "The changed file's path (new path, or old path of a rename or deletion).",
        },
        offset: {
          type: "integer",
          minimum: 0,
          description: "First patch line to return (0-based).",
        },
        limit: { type: "integer", minimum: 1, description: "Patch lines to return." },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
  schema: GetDiffArguments,
  summarize: (parsed) =>
    `${parsed.path}${parsed.offset === undefined || parsed.offset === 0 ? "" : ` from ${parsed.offset}`}`,
  async run(parsed, { changes, limits }) {
    if (changes === undefined) throw new ToolError("this session has no change to show");
    const requested = normalize(parsed.path);
    const excluded = changes.excluded.get(requested);
    if (excluded !== undefined)
      throw new ToolError(`${echo(requested)} is not reviewed: ${excluded}`);
    const file = findChangedFile(changes.files, requested);
    if (file === undefined) {
      throw new ToolError(
        `${echo(requested)} is not a file this pull request changes; the change summary lists them (read_file shows any file of the head)`,
      );
    }
    if (file.binary) return `${file.path} is a binary file: there is no text diff to show`;
    const lines = renderDiffFile(file, { quoteNonAscii: false }).replace(/\n$/, "").split("\n");
    const total = lines.length;
    const offset = parsed.offset ?? 0;
    if (offset >= total) {
      throw new ToolError(`offset ${offset} is past the end of the patch (${total} lines)`);
    }
    const limit = Math.min(parsed.limit ?? limits.getDiffMaxLines, limits.getDiffMaxLines);
    const page: string[] = [];
    let bytes = 0;
    for (let index = offset; index < total && page.length < limit; index++) {
      const line = cutLine(lines[index] ?? "", limits.maxLineChars);
      const lineBytes = Buffer.byteLength(line, "utf8") + 1;
      if (page.length > 0 && bytes + lineBytes > limits.maxOutputBytes) break;
      page.push(line);
      bytes += lineBytes;
    }
    const next = offset + page.length;
    const footer =
      next >= total
        ? `(patch lines ${offset}-${next - 1} of ${total}: the end)`
        : `(patch lines ${offset}-${next - 1} of ${total}; more: get_diff with offset ${next})`;
    return `${page.join("\n")}\n${footer}`;
  },
});

/** The path as the summary and `git diff` show it: `a/`/`b/` prefixes and `./` are forgiven. */
function normalize(path: string): string {
  return path.trim().replace(/^\.\//, "");
}

function findChangedFile(files: readonly DiffFile[], path: string): DiffFile | undefined {
  const exact = files.find((file) => file.path === path || file.oldPath === path);
  if (exact !== undefined || !/^[ab]\//.test(path)) return exact;
  const bare = path.slice(2);
  return files.find((file) => file.path === bare || file.oldPath === bare);
}

function echo(path: string): string {
  const oneLine = JSON.stringify(path);
  return oneLine.length <= MAX_ECHOED_PATH_CHARS
    ? oneLine
    : `${oneLine.slice(0, MAX_ECHOED_PATH_CHARS)}…`;
}
