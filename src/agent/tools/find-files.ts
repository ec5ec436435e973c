import { compileSafeGlob } from "../../config/index.js";
import type { DiffFile } from "../../diff/index.js";
import type { Workspace, WorkspacePath } from "../workspace.js";
import { defineRepoTool, ToolError } from "./repo-tool.js";
import { FindFilesArguments } from "./schema.js";
import { walkFiles } from "./walk-files.js";

/**
 * Matcher steps one search may spend (the glob is the model's, steered by the pull request):
 * the safe glob is linear in the path, this bounds the whole walk's matching too.
 */
const MATCH_STEPS = 20_000_000;

/**
 * `find_files {pattern}`: the files of the pull request's head whose path matches a glob, with
 * the repository config's safe glob subset (linear-time, no RegExp from the model's text).
 */
export const findFiles = defineRepoTool({
  definition: {
    name: "find_files",
    description:
      "Find files of the pull request's head by glob: `*` and `?` within a name, `**` for any " +
      "directories, `[a-z]`, `{a,b}`. A pattern without '/' matches file names anywhere " +
      "(`*.sql`); with '/', whole paths from the root (`src/**/*.test.ts`). Shallow paths first; " +
      ".git and node_modules are skipped. With changed: true, only the files the pull request " +
      "changes (deleted ones included), e.g. `**` for all of them.",
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Glob, e.g. `src/**/auth*.ts` or `*.sql`." },
        changed: {
          type: "boolean",
          description:
            "Only files this pull request changes (the change summary may not list all).",
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
  schema: FindFilesArguments,
  summarize: (parsed) => `${parsed.pattern}${parsed.changed ? " (changed)" : ""}`,
  async run(parsed, { workspace, limits, signal, changes }) {
    const pattern = parsed.pattern.trim().replace(/^\.\//, "");
    if (pattern.length > limits.findFilesMaxPatternChars) {
      throw new ToolError(
        `the pattern is too long (${pattern.length} characters; at most ${limits.findFilesMaxPatternChars})`,
      );
    }
    const glob = compileSafeGlob(pattern);
    if (!glob.ok) throw new ToolError(`${glob.problem}; see the tool's description for the syntax`);
    const byName = !pattern.includes("/");
    const budget = { steps: MATCH_STEPS };
    if (parsed.changed && changes === undefined) {
      throw new ToolError("this session has no change: leave out changed");
    }
    const candidates = parsed.changed
      ? changedPaths(changes?.files ?? [])
      : treePaths(workspace, await workspace.resolve("."), signal);
    const found: string[] = [];
    let bytes = 0;
    let more = 0;
    let visited = 0;
    let stopped: string | null = null;
    for await (const path of candidates) {
      if (++visited > limits.findFilesMaxVisited) {
        stopped = `stopped after looking at ${limits.findFilesMaxVisited} entries`;
        break;
      }
      if (path === null) continue;
      const subject = byName ? (path.split("/").at(-1) ?? "") : path;
      const matched = glob.matchesWithin(subject, budget);
      if (matched === null) {
        stopped = "stopped: the pattern is too costly to match on this tree";
        break;
      }
      if (!matched) continue;
      const lineBytes = Buffer.byteLength(path, "utf8") + 1;
      if (
        more === 0 &&
        found.length < limits.listFilesMaxEntries &&
        bytes + lineBytes <= limits.maxOutputBytes
      ) {
        found.push(path);
        bytes += lineBytes;
      } else {
        more++;
      }
    }
    const notes: string[] = [];
    if (more > 0) notes.push(`… truncated (${more} more matches; narrow the pattern)`);
    if (stopped !== null) notes.push(`… ${stopped}: narrow the pattern with a directory`);
    if (found.length === 0) return [`no files match ${pattern}`, ...notes].join("\n");
    return [...found, ...notes].join("\n");
  },
});

/** The head tree's paths, files only (null for a directory: it still counts as looked at). */
async function* treePaths(
  workspace: Workspace,
  root: WorkspacePath,
  signal: AbortSignal | undefined,
): AsyncGenerator<string | null> {
  for await (const entry of walkFiles(workspace, root, signal)) {
    yield entry.kind === "file" ? entry.relativePath : null;
  }
}

/** The changed files' paths, in the diff's order. */
function* changedPaths(files: readonly DiffFile[]): Generator<string> {
  for (const file of files) yield file.path;
}
