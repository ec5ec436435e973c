import { parseDocument } from "yaml";
import type { z } from "zod";
import { ConfigError } from "./config-error.js";

/** Alias expansions allowed in one file (the yaml package's default, made explicit). */
const MAX_ALIAS_COUNT = 100;

/** Parses YAML text against a zod schema; every problem becomes a ConfigError naming the field. */
export function parseConfigText<Schema extends z.ZodType>(
  source: string,
  text: string,
  schema: Schema,
): z.infer<Schema> {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      source,
      document.errors.map((error) => ({
        path: "",
        // The first line, without the colon that introduced the code frame under it.
        message: `YAML: ${(error.message.split("\n")[0] ?? error.message).replace(/:\s*$/, "")}`,
      })),
    );
  }
  let value: unknown;
  try {
    // Aliases are expanded here; the yaml package refuses an expansion that explodes
    // (a few lines can stand for millions of entries): a bad file, not a crash.
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    throw new ConfigError(source, [
      { path: "", message: `YAML: ${error instanceof Error ? error.message : String(error)}` },
    ]);
  }
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw ConfigError.fromZod(source, result.error);
  return result.data;
}
