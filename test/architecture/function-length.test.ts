import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * The round's code is read by whoever is on call when a round goes wrong: in src/github and
 * src/run, where a round lives, no function is longer than a screen and a bit, so each step can
 * be read in one sitting. A longer one is split into named steps, not exempted here.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FOLDERS = ["src/github", "src/run"];
const MAX_LINES = 80;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

function longFunctions(path: string): string[] {
  const source = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_LINES) {
        found.push(`${relative(ROOT, path)}:${first + 1} (${last - first + 1} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("functions where a round lives", () => {
  const files = FOLDERS.flatMap(sourceFiles);

  it("are all read", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it(`are at most ${MAX_LINES} lines each`, () => {
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
