import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { buildPatch } from "./build-patch.js";
import { diffTrees } from "./diff-trees.js";

// Applies a patch the slow, obvious way, checking every context and removed line.
function applyPatch(before: string, patch: string): string {
  const oldLines = before === "" ? [] : before.split(/(?<=\n)/);
  const output: string[] = [];
  let cursor = 0;
  const lines = patch === "" ? [] : patch.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (header !== null) {
      const oldCount = header[2] === undefined ? 1 : Number(header[2]);
      const start = oldCount === 0 ? Number(header[1]) : Number(header[1]) - 1;
      while (cursor < start) output.push(oldLines[cursor++] ?? "");
      continue;
    }
    const noNewline = lines[index + 1] === "\\ No newline at end of file";
    const text = line.slice(1) + (noNewline ? "" : "\n");
    if (line.startsWith("+")) {
      output.push(text);
    } else if (line.startsWith("\\")) {
      // consumed with the line before
    } else {
      expect(oldLines[cursor], `line ${cursor + 1} of the old text`).toBe(text);
      cursor++;
      if (line.startsWith(" ")) output.push(text);
    }
  }
  while (cursor < oldLines.length) output.push(oldLines[cursor++] ?? "");
  return output.join("");
}

const text = fc
  .tuple(fc.array(fc.constantFrom("a", "b", "c", "d", "", "  x"), { maxLength: 40 }), fc.boolean())
  .map(([lines, finalNewline]) =>
    lines.length === 0 ? "" : lines.join("\n") + (finalNewline ? "\n" : ""),
  );

describe("buildPatch", () => {
  it("produces hunks that turn the old text into the new one", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const patch = buildPatch(before, after);
        expect(applyPatch(before, patch.text)).toBe(after);
        const body = patch.text.split("\n");
        expect(body.filter((line) => line.startsWith("+")).length).toBe(patch.additions);
        expect(body.filter((line) => line.startsWith("-")).length).toBe(patch.deletions);
        expect(patch.text === "").toBe(before === after);
      }),
      { numRuns: 400 },
    );
  });

  it("keeps hunk headers consistent with their bodies", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const { text: patch } = buildPatch(before, after);
        const hunks = patch.split(/^(?=@@ )/m).filter((hunk) => hunk !== "");
        for (const hunk of hunks) {
          const [header = "", ...body] = hunk.replace(/\n$/, "").split("\n");
          const match = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@( .*)?$/.exec(header);
          expect(match).not.toBeNull();
          const oldCount = match?.[1] === undefined ? 1 : Number(match[1]);
          const newCount = match?.[2] === undefined ? 1 : Number(match[2]);
          expect(body.filter((line) => line.startsWith(" ") || line.startsWith("-")).length).toBe(
            oldCount,
          );
          expect(body.filter((line) => line.startsWith(" ") || line.startsWith("+")).length).toBe(
            newCount,
          );
        }
      }),
      { numRuns: 200 },
    );
  });

  it("writes git's header forms and the no-newline marker", () => {
    expect(buildPatch("", "one\ntwo\n").text).toBe("@@ -0,0 +1,2 @@\n+one\n+two");
    expect(buildPatch("only\n", "").text).toBe("@@ -1 +0,0 @@\n-only");
    expect(buildPatch("a\nb", "a\nb\n").text).toBe(
      "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b",
    );
  });
});

describe("diffTrees against git", () => {
  const directory = mkdtempSync(join(tmpdir(), "fake-github-diff-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  function writeTree(root: string, files: Map<string, Buffer>): void {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    for (const [path, content] of files) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
  }

  it("builds a unified diff that git applies exactly", () => {
    const numbered = (count: number, changed: number) =>
      Array.from({ length: count }, (_, index) =>
        index === changed ? `changed ${index}` : `line ${index}`,
      ).join("\n");
    const base = new Map([
      ["src/kept.ts", Buffer.from(`${numbered(40, -1)}\n`)],
      ["src/edited.ts", Buffer.from(`${numbered(60, -1)}\n`)],
      ["src/gone.ts", Buffer.from("bye\n")],
      ["src/old-name.ts", Buffer.from(`${numbered(20, -1)}\n`)],
      ["docs/no-newline.md", Buffer.from("first\nlast")],
    ]);
    const head = new Map(base);
    head.set("src/edited.ts", Buffer.from(`${numbered(60, 5).replace("line 50", "changed 50")}\n`));
    head.delete("src/gone.ts");
    head.set("src/new.ts", Buffer.from("export const created = true;\n"));
    head.delete("src/old-name.ts");
    head.set("src/new-name.ts", Buffer.from(`${numbered(20, 10)}\n`));
    head.set("docs/no-newline.md", Buffer.from("first\nlast\nmore\n"));
    const changes = diffTrees(base, head, new Map([["src/new-name.ts", "src/old-name.ts"]]));

    expect(changes.map((change) => [change.filename, change.status])).toEqual([
      ["docs/no-newline.md", "modified"],
      ["src/edited.ts", "modified"],
      ["src/gone.ts", "removed"],
      ["src/new-name.ts", "renamed"],
      ["src/new.ts", "added"],
    ]);
    const edited = changes.find((change) => change.filename === "src/edited.ts");
    expect(edited?.patch?.match(/^@@/gm)).toHaveLength(2);

    const root = join(directory, "tree");
    writeTree(root, base);
    const diffPath = join(directory, "change.diff");
    writeFileSync(diffPath, changes.map((change) => change.diffText).join(""));
    execFileSync("git", ["apply", "--whitespace=nowarn", diffPath], { cwd: root });
    for (const [path, content] of head) {
      expect(readFileSync(join(root, path)).toString(), path).toBe(content.toString());
    }
    expect(() => readFileSync(join(root, "src/gone.ts"))).toThrow();
    expect(() => readFileSync(join(root, "src/old-name.ts"))).toThrow();
  });

  it("matches git diff's hunks for an unambiguous change", () => {
    const before = "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\n";
    const after = "alpha\nbeta\nGAMMA\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\nlambda\n";
    writeFileSync(join(directory, "before.txt"), before);
    writeFileSync(join(directory, "after.txt"), after);
    let gitOutput = "";
    try {
      execFileSync("git", ["diff", "--no-index", "--no-color", "before.txt", "after.txt"], {
        cwd: directory,
      });
    } catch (error) {
      // git diff --no-index exits 1 when the files differ.
      gitOutput = String((error as { stdout: Buffer }).stdout);
    }
    const gitHunks = gitOutput.slice(gitOutput.indexOf("@@")).replace(/\n$/, "");
    expect(buildPatch(before, after).text).toBe(gitHunks);
  });

  it("marks binary files without a patch", () => {
    const [binary] = diffTrees(
      new Map([["logo.png", Buffer.from([0x89, 0x50, 0x00, 0x01])]]),
      new Map([["logo.png", Buffer.from([0x89, 0x50, 0x00, 0x02])]]),
      new Map(),
    );
    expect(binary?.binary).toBe(true);
    expect(binary?.patch).toBeUndefined();
    expect(binary?.diffText).toContain("Binary files a/logo.png and b/logo.png differ");
  });
});
