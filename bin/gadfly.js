#!/usr/bin/env node
// The `gadfly` command. Runs the built CLI (dist/, made by `npm ci` through
// `prepare`); GADFLY_FROM_SOURCE=1 with `node --import tsx` runs src/ instead.
const entry = process.env.GADFLY_FROM_SOURCE === "1" ? "../src/cli/main.ts" : "../dist/cli/main.js";
const { runCli } = await import(entry);
process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
