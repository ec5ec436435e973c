import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { findPackageRoot } from "../config/index.js";

/** The version in our package.json. */
export async function packageVersion(): Promise<string> {
  const root = findPackageRoot(import.meta.url, "lenses");
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
    version?: unknown;
  };
  return typeof manifest.version === "string" ? manifest.version : "0.0.0";
}
