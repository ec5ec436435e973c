import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nearest directory above `moduleUrl` holding our package.json and `subdirectory`:
 * the same from `src/` (tsx, vitest) and from `dist/` after a build.
 */
export function findPackageRoot(moduleUrl: string, subdirectory: string): string {
  let directory = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(directory, "package.json")) && existsSync(join(directory, subdirectory))) {
      return directory;
    }
    const parent = dirname(directory);
    if (parent === directory) {
      throw new Error(`no package.json with a ${subdirectory}/ directory above ${moduleUrl}`);
    }
    directory = parent;
  }
}
