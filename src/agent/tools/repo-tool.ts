import type { z } from "zod";
import type { DiffFile } from "../../diff/index.js";
import type { ToolDefinition } from "../../llm/index.js";
import type { Workspace } from "../workspace.js";
import type { ToolLimits } from "./tool-limits.js";

/* What a repository tool is, the error it answers the model with, and how one is defined. */

export interface ToolContext {
  workspace: Workspace;
  limits: ToolLimits;
  signal?: AbortSignal | undefined;
  /** The change under review, for get_diff; absent in sessions that have none. */
  changes?: ChangedFiles | undefined;
}

/** The changed files a session may read the patch of, and those it may not (with why). */
export interface ChangedFiles {
  files: readonly DiffFile[];
  /** Changed paths left out of the review (ignored by the repository), with the reason to give. */
  excluded: ReadonlyMap<string, string>;
}

/** A read-only tool over the workspace. Arguments arrive unchecked, as the model wrote them. */
export interface RepoTool {
  definition: ToolDefinition;
  /** Answers the model; throws a ToolError for anything the model should read and fix. */
  run(rawArguments: unknown, context: ToolContext): Promise<string>;
  /** A short, one-line description of the call for the status board. */
  summarize(rawArguments: unknown): string;
}

/**
 * A failure the model should read and act on (a refused path, a bad regex):
 * the tool loop turns it into the tool's answer, never into a crash.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

interface RepoToolSpec<Arguments> {
  definition: ToolDefinition;
  schema: z.ZodType<Arguments>;
  run(parsed: Arguments, context: ToolContext): Promise<string>;
  summarize(parsed: Arguments): string;
}

/** Builds a RepoTool whose arguments are validated by a zod schema before it runs. */
export function defineRepoTool<Arguments>(spec: RepoToolSpec<Arguments>): RepoTool {
  const parse = (raw: unknown): Arguments => {
    const result = spec.schema.safeParse(raw);
    if (result.success) return result.data;
    const issues = result.error.issues
      .slice(0, 3)
      .map(
        (issue) =>
          `${issue.path.length === 0 ? "arguments" : issue.path.join(".")}: ${issue.message}`,
      )
      .join("; ");
    throw new ToolError(
      `invalid arguments for ${spec.definition.name} (${issues}); expected ${describeParameters(spec.definition)}`,
    );
  };
  return {
    definition: spec.definition,
    run: (raw, context) => spec.run(parse(raw), context),
    summarize: (raw) => {
      const result = spec.schema.safeParse(raw);
      return result.success ? spec.summarize(result.data) : "(invalid arguments)";
    },
  };
}

function describeParameters(definition: ToolDefinition): string {
  const properties = (definition.parameters as { properties?: Record<string, unknown> }).properties;
  const required = new Set((definition.parameters as { required?: string[] }).required ?? []);
  const names = Object.keys(properties ?? {}).map((name) =>
    required.has(name) ? name : `${name}?`,
  );
  return `{${names.join(", ")}}`;
}

/** The errno code of a file-system error, only: its message could carry the server's absolute paths. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "error";
}
