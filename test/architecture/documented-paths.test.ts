import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * ARCHITECTURE.md and the module READMEs name files in backticks (`run/review-change.ts`).
 * A file that moves without its docs leaves a newcomer at a dead end, so every such path must
 * exist: from the repository's root, from src/, from test/, or from the document's own folder.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PATH = /`((?:[\w.@-]+\/)*[\w.@-]+\.(?:ts|mjs|md|hbs|yml|json))`/g;

function documents(): string[] {
  const readmes = readdirSync(join(ROOT, "src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join("src", entry.name, "README.md"))
    .filter((path) => existsSync(join(ROOT, path)));
  return ["ARCHITECTURE.md", ...readmes];
}

function resolves(document: string, path: string): boolean {
  const bases = [ROOT, join(ROOT, "src"), join(ROOT, "test"), dirname(join(ROOT, document))];
  return bases.some((base) => existsSync(join(base, path)));
}

describe("paths named in the architecture docs", () => {
  const checked = documents().flatMap((document) =>
    [...readFileSync(join(ROOT, document), "utf8").matchAll(PATH)].map((match) => ({
      document,
      path: match[1] ?? "",
    })),
  );

  it("finds the paths it checks", () => {
    expect(checked.length).toBeGreaterThan(100);
  });

  it("names only files that exist", () => {
    // A bare file name (`index.ts`) names a kind of file, not one file; `.github/…` is a
    // reviewed repository's file, not ours.
    const missing = checked.filter(
      ({ document, path }) =>
        path.includes("/") && !path.startsWith(".github/") && !resolves(document, path),
    );
    expect(missing.map(({ document, path }) => `${document}: ${path}`)).toEqual([]);
  });
});

describe("the README's layout paragraph", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const layout = /^Layout: [\s\S]+?\n\n/m.exec(readme)?.[0] ?? "";
  const named = [...layout.matchAll(/`src\/([\w-]+)`/g)].map((match) => match[1] ?? "");

  it("names every folder under src/, and only folders that exist", () => {
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(named.length).toBeGreaterThan(10);
    expect([...new Set(named)].sort()).toEqual(folders);
  });
});
