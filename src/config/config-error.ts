import type { z } from "zod";

export interface ConfigIssue {
  /** Dotted path of the field, e.g. `providers[1].baseURL` ("" for the whole file). */
  path: string;
  message: string;
}

/** A configuration that cannot be used. The message names the file and every bad field. */
export class ConfigError extends Error {
  readonly source: string;
  readonly issues: ConfigIssue[];

  constructor(source: string, issues: ConfigIssue[]) {
    super(
      `${source}: ${issues.map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`)).join("; ")}`,
    );
    this.name = "ConfigError";
    this.source = source;
    this.issues = issues;
  }

  static fromZod(source: string, error: z.ZodError): ConfigError {
    return new ConfigError(
      source,
      error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    );
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? String(part) : `.${String(part)}`;
  }
  return text;
}
