import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT, TSX_LOADER } from "../e2e/harness.js";

/**
 * What a serving process loads at start and what it leaves for later: each module loaded
 * before it is needed stays in memory for the process's life. Checked in a fresh process,
 * where nothing else has loaded these packages.
 */
async function packagesLoaded(script: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", TSX_LOADER, "--input-type=module", "-e", script],
    { cwd: ROOT },
  );
  return JSON.parse(stdout) as string[];
}

const loaded = `const { createRequire } = await import("node:module");
const cache = createRequire(import.meta.url).cache;
const packages = (names) => names.filter((name) =>
  Object.keys(cache).some((path) => path.includes("/node_modules/" + name + "/")));`;

describe("start-up footprint", { timeout: 60_000 }, () => {
  it("leaves Handlebars unloaded until the first template engine is made", async () => {
    const boot = JSON.stringify(join(ROOT, "src/boot/index.ts"));
    const engine = JSON.stringify(join(ROOT, "src/render/template-engine.ts"));
    expect(
      await packagesLoaded(`${loaded}
await import(${boot});
const before = packages(["handlebars", "source-map"]);
const { createTemplateEngine } = await import(${engine});
createTemplateEngine();
process.stdout.write(JSON.stringify([...before, "|", ...packages(["handlebars"])]));`),
    ).toEqual(["|", "handlebars"]);
  });
});
