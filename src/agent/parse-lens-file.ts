import { basename, extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { LensDefinition } from "./schema.js";

const FRONT_MATTER_RE = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Parses one lens file: YAML front matter (`id`, `title`, `emoji`) between
 * `---` lines, then the prompt. Errors name the file and the field.
 */
export function parseLensFile(text: string, source: string): LensDefinition {
  const match = FRONT_MATTER_RE.exec(text);
  if (match === null) {
    throw new Error(
      `${source}: no front matter (the file must start with a --- line, then id, title and emoji, then ---)`,
    );
  }
  let frontMatter: unknown;
  try {
    frontMatter = parseYaml(match[1] ?? "");
  } catch (error) {
    throw new Error(`${source}: the front matter is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = LensDefinition.safeParse({
    ...(typeof frontMatter === "object" && frontMatter !== null ? frontMatter : {}),
    prompt: text.slice(match[0].length),
    source,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "front matter";
    throw new Error(`${source}: field "${field}": ${issue?.message ?? "invalid"}`);
  }
  const expectedId = basename(source, extname(source));
  if (parsed.data.id !== expectedId) {
    throw new Error(
      `${source}: field "id": "${parsed.data.id}" must match the file name ("${expectedId}")`,
    );
  }
  return parsed.data;
}
