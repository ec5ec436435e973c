import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { parseEnv } from "node:util";

/**
 * What Probot's setup mode writes (the App's id, private key, webhook secret), merged
 * into the `.env` file at `path` (dotEnvPath) as Probot's own writer does, but readable by
 * its owner only: the file holds the App's private key.
 */
export function writeDotEnv(
  path: string,
  values: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  let existing: Record<string, string> = {};
  try {
    existing = parseEnv(readFileSync(path, "utf8")) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const merged = { ...existing };
  for (const [key, value] of Object.entries(values)) if (value !== undefined) merged[key] = value;
  const text = Object.entries(merged)
    .map(([key, value]) => `${key}=${value.replace(/\n/g, "\\n")}`)
    .join("\n");
  writeFileSync(path, `${text}\n`, { mode: 0o600 });
  // The mode above applies only to a new file; one copied from .env.example keeps its own.
  chmodSync(path, 0o600);
  return merged;
}
