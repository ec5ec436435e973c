import { defineRepoTool, ToolError } from "./repo-tool.js";
import { ListFilesArguments } from "./schema.js";
import { walkFiles } from "./walk-files.js";

/** How far past the cap the walk goes to say how much was left out. */
const COUNT_BEYOND_CAP = 50_000;

/** `list_files {path?}`: the files under a directory of the PR head, shallow first. */
export const listFiles = defineRepoTool({
  definition: {
    name: "list_files",
    description:
      "List the files and directories under a directory of the pull request's head (recursive, " +
      "shallow entries first; directories end with '/'). .git and node_modules are skipped.",
    parameters: {
      type: "object",
      properties: {
        path: {
          type: "string",
          description: "Directory relative to the repository root; omit for the root.",
        },
      },
      additionalProperties: false,
    },
  },
  schema: ListFilesArguments,
  summarize: (parsed) => parsed.path ?? ".",
  async run(parsed, { workspace, limits, signal }) {
    const target = await workspace.resolve(parsed.path);
    if (target.kind === "file") return target.relativePath;
    if (target.kind !== "directory")
      throw new ToolError(`${target.relativePath} is not a directory`);
    const entries: string[] = [];
    let bytes = 0;
    let omitted = 0;
    for await (const entry of walkFiles(workspace, target, signal)) {
      const line = entry.kind === "directory" ? `${entry.relativePath}/` : entry.relativePath;
      const lineBytes = Buffer.byteLength(line, "utf8") + 1;
      if (
        omitted === 0 &&
        entries.length < limits.listFilesMaxEntries &&
        bytes + lineBytes <= limits.maxOutputBytes
      ) {
        entries.push(line);
        bytes += lineBytes;
      } else if (++omitted >= COUNT_BEYOND_CAP) {
        break;
      }
    }
    if (entries.length === 0) return `${target.relativePath} is empty`;
    entries.sort();
    if (omitted === 0) return entries.join("\n");
    const more = omitted >= COUNT_BEYOND_CAP ? `at least ${omitted}` : `${omitted}`;
    return `${entries.join("\n")}\n… truncated (${more} more entries; list a subdirectory to see them)`;
  },
});
