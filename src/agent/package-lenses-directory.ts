import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's own `lenses/` directory, found by walking up from this module
 * to the nearest package.json, so it resolves the same from src/ (tests, tsx)
 * and from dist/ (the built app).
 */
export function packageLensesDirectory(moduleUrl: string = import.meta.url): string {
  let directory = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(directory, "package.json"))) return join(directory, "lenses");
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    directory = parent;
  }
}
