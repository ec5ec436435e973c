import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const OLD = new Date("2026-01-01T00:00:00Z");
const NEW = new Date("2026-06-01T00:00:00Z");

/** bin/gadfly.js in a layout of its own: a built dist/ that says it ran, and maybe a src/. */
async function layout(source: Date | null): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "gadfly-bin-"));
  await mkdir(join(root, "bin"));
  await mkdir(join(root, "dist", "cli"), { recursive: true });
  await copyFile(join(ROOT, "bin", "gadfly.js"), join(root, "bin", "gadfly.js"));
  await writeFile(join(root, "package.json"), JSON.stringify({ type: "module" }));
  const main = join(root, "dist", "cli", "main.js");
  await writeFile(
    main,
    'export async function runCli() { process.stdout.write("ran\\n"); return 0; }\n',
  );
  await utimes(main, NEW, NEW);
  if (source !== null) {
    await mkdir(join(root, "src", "config"), { recursive: true });
    const schema = join(root, "src", "config", "schema.ts");
    await writeFile(schema, "export {};\n");
    await utimes(schema, source, source);
  }
  return root;
}

function run(root: string) {
  const env = { PATH: process.env.PATH ?? "" };
  return spawnSync(process.execPath, [join(root, "bin", "gadfly.js")], { env, encoding: "utf8" });
}

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

describe("bin/gadfly.js and a stale build", () => {
  it("warns when a source file changed after dist/ was built, naming it, and still runs", async () => {
    const root = await layout(new Date(NEW.getTime() + 60_000));
    roots.push(root);
    const result = run(root);
    expect(result.stdout).toBe("ran\n");
    expect(result.stderr).toBe(
      "gadfly: warning: dist/ is older than src/config/schema.ts: this runs the last build; run `npm run build` first\n",
    );
  });

  it("says nothing when the build is newer than every source file, or there is no src/", async () => {
    for (const source of [OLD, null]) {
      const root = await layout(source);
      roots.push(root);
      const result = run(root);
      expect([result.stdout, result.stderr]).toEqual(["ran\n", ""]);
    }
  });
});
