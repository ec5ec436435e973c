import { cutLine } from "./cap-output.js";
import { defineRepoTool, ToolError } from "./repo-tool.js";
import { runGrepWorker } from "./run-grep-worker.js";
import { GrepArguments } from "./schema.js";
import { walkFiles } from "./walk-files.js";

/** ripgrep's inline case-insensitive flag, which models use out of habit; JavaScript has no such prefix. */
const CASE_INSENSITIVE_PREFIX = "(?i)";

/** `grep {pattern, path?}`: lines matching a JavaScript regular expression, as `path:line:text`. */
export const grep = defineRepoTool({
  definition: {
    name: "grep",
    description:
      "Search the pull request's head for a JavaScript regular expression, line by line. " +
      "Returns `path:line:text` for each matching line (at most about a hundred). A leading (?i) makes it " +
      "case-insensitive. Binary files, files over 1 MB, .git and node_modules are skipped.",
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "JavaScript regular expression (no slashes)." },
        path: {
          type: "string",
          description:
            "File or directory to search, relative to the repository root; omit for all.",
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
  schema: GrepArguments,
  summarize: (parsed) =>
    `/${parsed.pattern}/${parsed.path === undefined ? "" : ` in ${parsed.path}`}`,
  async run(parsed, { workspace, limits, signal }) {
    if (parsed.pattern.length > limits.grepMaxPatternChars) {
      throw new ToolError(
        `the pattern is too long (${parsed.pattern.length} characters; at most ${limits.grepMaxPatternChars})`,
      );
    }
    const caseInsensitive = parsed.pattern.startsWith(CASE_INSENSITIVE_PREFIX);
    const source = caseInsensitive
      ? parsed.pattern.slice(CASE_INSENSITIVE_PREFIX.length)
      : parsed.pattern;
    const flags = caseInsensitive ? "i" : "";
    try {
      new RegExp(source, flags);
    } catch (error) {
      throw new ToolError(`${(error as Error).message}; pass a JavaScript regular expression`);
    }
    const target = await workspace.resolve(parsed.path);
    const files: { relativePath: string; realPath: string }[] = [];
    let filesCapped = false;
    if (target.kind === "file") {
      files.push(target);
    } else if (target.kind === "directory") {
      for await (const entry of walkFiles(workspace, target, signal)) {
        if (entry.kind !== "file") continue;
        if (files.length >= limits.grepMaxFiles) {
          filesCapped = true;
          break;
        }
        files.push({ relativePath: entry.relativePath, realPath: entry.realPath });
      }
    } else {
      throw new ToolError(`${target.relativePath} is not a file or directory`);
    }

    const outcome = await runGrepWorker(
      {
        source,
        flags,
        files,
        maxMatches: limits.grepMaxMatches,
        maxFileBytes: limits.grepMaxFileBytes,
        maxScannedBytes: limits.grepMaxScannedBytes,
        maxLineChars: limits.maxLineChars,
      },
      limits.grepTimeoutMs,
      signal,
    );

    const lines: string[] = [];
    let bytes = 0;
    let cut = 0;
    for (const match of outcome.matches) {
      const text =
        match.length > match.text.length
          ? `${match.text}… (line cut, ${match.length} chars)`
          : cutLine(match.text, limits.maxLineChars);
      const line = `${match.file}:${match.line}:${text}`;
      const lineBytes = Buffer.byteLength(line, "utf8") + 1;
      if (bytes + lineBytes > limits.maxOutputBytes) {
        cut = outcome.matches.length - lines.length;
        break;
      }
      lines.push(line);
      bytes += lineBytes;
    }

    const notes: string[] = [];
    if (cut > 0) notes.push(`… truncated (${cut} more lines; narrow the pattern or the path)`);
    if (outcome.more) {
      notes.push(
        `… stopped after ${limits.grepMaxMatches} matches; narrow the pattern or the path for the rest`,
      );
    }
    if (outcome.budgetExhausted || filesCapped) {
      notes.push("… the search stopped early (too much to scan): narrow the path");
    }
    const skipped: string[] = [];
    if (outcome.skippedBinary > 0) skipped.push(`${outcome.skippedBinary} binary`);
    if (outcome.skippedLarge > 0)
      skipped.push(`${outcome.skippedLarge} over ${formatSize(limits.grepMaxFileBytes)}`);
    const scope = `${outcome.filesScanned} ${outcome.filesScanned === 1 ? "file" : "files"} searched${
      skipped.length === 0 ? "" : `, skipped ${skipped.join(" and ")}`
    }`;
    if (lines.length === 0) {
      return [
        `no matches for /${parsed.pattern}/ in ${target.relativePath} (${scope})`,
        ...notes,
      ].join("\n");
    }
    return [...lines, ...notes, `(${scope})`].join("\n");
  },
});

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round(bytes / (1024 * 1024))} MB`
    : `${Math.round(bytes / 1024)} KB`;
}
