import { parseDocument } from "yaml";
import type { z } from "zod";
import { ConfigError } from "./config-error.js";

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
        message: `YAML: ${error.message.split("\n")[0] ?? error.message}`,
      })),
    );
  }
  const result = schema.safeParse(document.toJS() ?? {});
  if (!result.success) throw ConfigError.fromZod(source, result.error);
  return result.data;
}
