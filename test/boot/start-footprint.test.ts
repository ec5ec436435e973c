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

// CommonJS packages show in require's cache; ES modules (node-tar) only to a loader hook,
// which here posts each URL it loads back to this thread.
const loaded = `const { createRequire, register } = await import("node:module");
const { MessageChannel, receiveMessageOnPort } = await import("node:worker_threads");
const cache = createRequire(import.meta.url).cache;
const { port1, port2 } = new MessageChannel();
const hooks = "let port; export function initialize(data) { port = data.port; }" +
  " export async function load(url, context, next) { port.postMessage(url); return next(url, context); }";
register("data:text/javascript," + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
const urls = [];
const paths = () => {
  for (let message; (message = receiveMessageOnPort(port1)) !== undefined; ) urls.push(message.message);
  return [...Object.keys(cache), ...urls];
};
const packages = (names) => names.filter((name) =>
  paths().some((path) => path.includes("/node_modules/" + name + "/")));`;

/**
 * Which of `atStart` are loaded once the app's boot module is imported, then "|", then which of
 * `afterUse` are loaded after `use` (a script fragment) ran: `["|", name]` means left until
 * first use.
 */
function loadedBeforeAndAfter(
  atStart: readonly string[],
  afterUse: readonly string[],
  use: string,
): Promise<string[]> {
  const boot = JSON.stringify(join(ROOT, "src/boot/index.ts"));
  return packagesLoaded(`${loaded}
await import(${boot});
const before = packages(${JSON.stringify(atStart)});
${use}
process.stdout.write(JSON.stringify([...before, "|", ...packages(${JSON.stringify(afterUse)})]));`);
}

describe("start-up footprint", { timeout: 60_000 }, () => {
  it("leaves Handlebars unloaded until the first template engine is made", async () => {
    const engine = JSON.stringify(join(ROOT, "src/render/template-engine.ts"));
    expect(
      await loadedBeforeAndAfter(
        ["handlebars", "source-map"],
        ["handlebars"],
        `const { createTemplateEngine } = await import(${engine});
createTemplateEngine();`,
      ),
    ).toEqual(["|", "handlebars"]);
  });

  it("leaves node-tar unloaded until the first tarball is extracted", async () => {
    const github = JSON.stringify(join(ROOT, "src/github/index.ts"));
    expect(
      await loadedBeforeAndAfter(
        ["tar"],
        ["tar"],
        `const { extractTarball } = await import(${github});
const { mkdtemp, rm } = await import("node:fs/promises");
const { join } = await import("node:path");
const { tmpdir } = await import("node:os");
const { gzipSync } = await import("node:zlib");
const dir = await mkdtemp(join(tmpdir(), "gadfly-footprint-"));
// A tar of one directory, GitHub's top-level one: a ustar header, then two zero blocks.
const header = Buffer.alloc(512);
const field = (offset, text) => header.write(text, offset, "latin1");
field(0, "owner-repo-sha/");
field(100, "0000755\\0");
field(124, "00000000000\\0");
field(136, "00000000000\\0");
field(156, "5");
field(257, "ustar\\x0000");
field(148, "        ");
field(148, header.reduce((sum, byte) => sum + byte, 0).toString(8).padStart(6, "0") + "\\0 ");
const result = await extractTarball(gzipSync(Buffer.concat([header, Buffer.alloc(1024)])), join(dir, "tree"));
if (result.entries !== 1) throw new Error("extracted " + JSON.stringify(result));
await rm(dir, { recursive: true, force: true });`,
      ),
    ).toEqual(["|", "tar"]);
  });
});
