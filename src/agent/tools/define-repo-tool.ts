import type { z } from "zod";
import type { ToolDefinition } from "../../llm/index.js";
import type { RepoTool, ToolContext } from "./repo-tool.js";
import { ToolError } from "./tool-error.js";

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
