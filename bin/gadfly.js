#!/usr/bin/env node
// The `gadfly` command (also installed as `gadfly-review`, the package's own name, so that
// `npx gadfly-review` runs it). Runs the built CLI (dist/: in the package as packed, or made in
// a checkout by `npm ci` through `prepare`); GADFLY_FROM_SOURCE=1 with `node --import tsx` runs
// src/ instead.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const fromSource = process.env.GADFLY_FROM_SOURCE === "1";
if (!fromSource) warnIfStale(fileURLToPath(new URL("..", import.meta.url)));
const entry = fromSource ? "../src/cli/main.ts" : "../dist/cli/main.js";
const { runCli } = await import(entry);
process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});

/**
 * In a source checkout, dist/ is only rebuilt by `npm ci` or `npm run build`: after a pull, the
 * CLI would run the old code and, say, refuse a config field the new schema has ("Unrecognized
 * key"). Says so when a source file is newer than the build. An installed package has no src/.
 */
function warnIfStale(root) {
  let built;
  try {
    built = statSync(join(root, "dist", "cli", "main.js")).mtimeMs;
  } catch {
    return;
  }
  const newer = newestSince(join(root, "src"), built);
  if (newer !== undefined) {
    process.stderr.write(
      `gadfly: warning: dist/ is older than ${newer.replace(`${root}`, "").replace(/^[\\/]/, "")}: this runs the last build; run \`npm run build\` first\n`,
    );
  }
}

/** A file under `dir` modified after `since`, if any. */
function newestSince(dir, since) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = newestSince(path, since);
      if (found !== undefined) return found;
    } else if (entry.isFile() && statSync(path).mtimeMs > since) {
      return path;
    }
  }
  return undefined;
}
