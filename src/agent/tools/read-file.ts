import { capOutput, cutLine, isBinary } from "./cap-output.js";
import { defineRepoTool, errorCode, ToolError } from "./repo-tool.js";
import { ReadFileArguments } from "./schema.js";

/** `read_file {path, start_line?, end_line?}`: numbered lines of one file of the PR head. */
export const readFile = defineRepoTool({
  definition: {
    name: "read_file",
    description:
      "Read a file of the pull request's head, with line numbers (new-side numbering, the ones to cite). " +
      "Returns at most a few hundred lines per call: pass start_line/end_line to page through a large file.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path relative to the repository root." },
        start_line: { type: "integer", minimum: 1, description: "First line to return (1-based)." },
        end_line: { type: "integer", minimum: 1, description: "Last line to return (inclusive)." },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
  schema: ReadFileArguments,
  summarize: (parsed) => {
    const range =
      parsed.start_line === undefined
        ? ""
        : `:${parsed.start_line}${parsed.end_line === undefined ? "" : `-${parsed.end_line}`}`;
    return `${parsed.path}${range}`;
  },
  async run(parsed, { workspace, limits }) {
    const target = await workspace.resolve(parsed.path);
    if (target.kind === "directory") {
      throw new ToolError(
        `${target.relativePath} is a directory: use list_files to see its entries`,
      );
    }
    if (target.kind !== "file") throw new ToolError(`${target.relativePath} is not a regular file`);
    if (target.size > limits.readFileMaxBytes) {
      throw new ToolError(
        `${target.relativePath} is too large to read (${target.size} bytes; the limit is ${limits.readFileMaxBytes})`,
      );
    }
    let content: Buffer;
    try {
      content = await workspace.read(target);
    } catch (error) {
      throw new ToolError(`cannot read ${target.relativePath}: ${errorCode(error)}`);
    }
    if (isBinary(content)) {
      return `${target.relativePath} is a binary file (${content.length} bytes): not shown`;
    }
    const text = content.toString("utf8");
    if (text === "") return `${target.relativePath} is empty`;
    const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
    const total = lines.length;
    const start = parsed.start_line ?? 1;
    if (start > total) {
      throw new ToolError(
        `start_line ${start} is past the end of ${target.relativePath} (${total} lines)`,
      );
    }
    const requestedEnd = parsed.end_line ?? total;
    if (requestedEnd < start) {
      throw new ToolError(`end_line ${requestedEnd} is before start_line ${start}`);
    }
    const end = Math.min(requestedEnd, total);
    const numbered = lines
      .slice(start - 1, end)
      .map((line, offset) => `${start + offset}\t${cutLine(line, limits.maxLineChars)}`);
    const body = capOutput(
      numbered,
      { maxLines: limits.readFileMaxLines, maxBytes: limits.maxOutputBytes },
      (kept) => `continue with start_line=${start + kept}`,
    );
    return `${target.relativePath} — lines ${start}-${end} of ${total}\n${body}`;
  },
});
