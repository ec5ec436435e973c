import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const PACKAGE_JSON = fileURLToPath(new URL("../package.json", import.meta.url));

/**
 * The node flags `npm start` runs the app with: package.json's start script, which must read
 * `node <flags> dist/main.js` (the Dockerfile's CMD is `npm start`). The process-level benches
 * start the built app with exactly these, read from there, so they cannot measure a process
 * users do not run. Any other shape of the script throws: a bench must not quietly run the app
 * differently.
 */
export function npmStartNodeArgs(packageJson = readFileSync(PACKAGE_JSON, "utf8")): string[] {
  const { scripts } = JSON.parse(packageJson) as { scripts?: Record<string, string> };
  const start = scripts?.start ?? "";
  const words = start.trim().split(/\s+/);
  const flags = words.slice(1, -1);
  if (
    words[0] !== "node" ||
    words.at(-1) !== "dist/main.js" ||
    flags.some((flag) => !/^--[a-z][a-z0-9-]*(=[\w.,/-]+)?$/.test(flag))
  ) {
    throw new Error(
      `package.json's start script is not \`node [--flag…] dist/main.js\`: ${JSON.stringify(start)}`,
    );
  }
  return flags;
}
