import { readFileSync } from "node:fs";
import { ModelError } from "../../errors.js";
import { RECORDING_FORMAT, RECORDING_VERSION, Recording } from "./schema.js";

/**
 * Reads and validates one recording. Synchronous: the model's kind (chat or agent) must be
 * known when the model is created, and recordings are small test and demo fixtures.
 */
export function readRecording(path: string, provider: string): Recording {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what =
      code === "ENOENT" ? "no recording" : `cannot read the recording (${code ?? "error"})`;
    throw new ModelError(`${provider}: ${what} at ${path}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelError(`${provider}: the recording at ${path} is not valid JSON`);
  }
  const { format, version } = (json ?? {}) as { format?: unknown; version?: unknown };
  if (format !== RECORDING_FORMAT) {
    throw new ModelError(`${provider}: ${path} is not a gadfly recording`);
  }
  if (version !== RECORDING_VERSION) {
    throw new ModelError(
      `${provider}: the recording at ${path} has format version ${String(version)}; this Gadfly reads version ${RECORDING_VERSION}`,
    );
  }
  const parsed = Recording.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue === undefined ? "" : ` (${issue.path.join(".") || "top level"}: ${issue.message})`;
    throw new ModelError(`${provider}: the recording at ${path} is invalid${where}`);
  }
  return parsed.data;
}
