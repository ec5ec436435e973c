import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/diff/diff-file.js";
import { DiffParseError } from "../../src/diff/diff-parse-error.js";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";

function fixture(name: string): string {
  return readFileSync(new URL(`fixtures/${name}`, import.meta.url), "utf8");
}

function byPath(files: DiffFile[], path: string): DiffFile {
  const file = files.find((candidate) => candidate.path === path);
  if (file === undefined) throw new Error(`no file ${path} in ${files.map((f) => f.path)}`);
  return file;
}

/** Hunk headers as git prints them, so expectations read like the fixture. */
function hunkHeaders(file: DiffFile): string[] {
  return file.hunks.map(
    (hunk) => `-${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount}`,
  );
}

describe("parseUnifiedDiff on a real `git diff` (fixtures/github-pr.diff)", () => {
  const files = parseUnifiedDiff(fixture("github-pr.diff"));

  it("finds every file, in order", () => {
    expect(files.map((file) => file.path)).toEqual([
      "assets/logo.png",
      "docs/handbook.md",
      "scripts/run.sh",
      "src/added.ts",
      "src/empty.ts",
      "src/legacy.ts",
      "src/new-name.ts",
      "src/no-eol.ts",
      "src/one.ts",
      "src/server.ts",
      "src/spécial name.ts",
      "src/template-copy.ts",
      "src/windows.ts",
      "src/with space.ts",
    ]);
  });

  const table: Array<{
    shape: string;
    path: string;
    expected: Partial<DiffFile>;
    hunks: string[];
  }> = [
    {
      shape: "Binary files … differ",
      path: "assets/logo.png",
      expected: { status: "modified", binary: true, oldPath: "assets/logo.png", additions: 0 },
      hunks: [],
    },
    {
      shape: "rename with changes (similarity index 96%)",
      path: "docs/handbook.md",
      expected: {
        status: "renamed",
        oldPath: "docs/guide.md",
        newPath: "docs/handbook.md",
        similarity: 96,
        additions: 1,
        deletions: 1,
      },
      hunks: ["-4,7 +4,7"],
    },
    {
      shape: "mode change without content",
      path: "scripts/run.sh",
      expected: { status: "modified", oldMode: "100644", newMode: "100755", binary: false },
      hunks: [],
    },
    {
      shape: "new file mode, --- /dev/null, @@ -0,0 +1,3 @@",
      path: "src/added.ts",
      expected: { status: "added", oldPath: null, newPath: "src/added.ts", newMode: "100644" },
      hunks: ["-0,0 +1,3"],
    },
    {
      shape: "new empty file (no ---/+++, path from the diff --git line)",
      path: "src/empty.ts",
      expected: { status: "added", oldPath: null, newPath: "src/empty.ts", additions: 0 },
      hunks: [],
    },
    {
      shape: "deleted file mode, +++ /dev/null",
      path: "src/legacy.ts",
      expected: { status: "deleted", oldPath: "src/legacy.ts", newPath: null, deletions: 3 },
      hunks: ["-1,3 +0,0"],
    },
    {
      shape: "pure rename (similarity index 100%, no hunks)",
      path: "src/new-name.ts",
      expected: { status: "renamed", oldPath: "src/old-name.ts", similarity: 100 },
      hunks: [],
    },
    {
      shape: "omitted counts (@@ -1 +1 @@)",
      path: "src/one.ts",
      expected: { status: "modified", additions: 1, deletions: 1 },
      hunks: ["-1,1 +1,1"],
    },
    {
      shape: "two hunks with section headings",
      path: "src/server.ts",
      expected: { status: "modified", additions: 5, deletions: 1 },
      hunks: ["-3,6 +3,10", "-25,4 +29,4"],
    },
    {
      shape: 'quoted path with octal UTF-8 escapes ("a/sp\\303\\251cial name.ts")',
      path: "src/spécial name.ts",
      expected: { oldPath: "src/spécial name.ts", newPath: "src/spécial name.ts" },
      hunks: ["-1,1 +1,1"],
    },
    {
      shape: "copy (copy from/to, similarity index)",
      path: "src/template-copy.ts",
      expected: { status: "copied", oldPath: "src/template.ts", similarity: 91 },
      hunks: ["-1,6 +1,6"],
    },
    {
      shape: "path with a space (tab-terminated ---/+++ names)",
      path: "src/with space.ts",
      expected: { oldPath: "src/with space.ts", newPath: "src/with space.ts" },
      hunks: ["-1,1 +1,1"],
    },
  ];

  it.each(table)("$shape", ({ path, expected, hunks }) => {
    const file = byPath(files, path);
    expect(file).toMatchObject(expected);
    expect(hunkHeaders(file)).toEqual(hunks);
  });

  it("numbers every line of a hunk on both sides", () => {
    const [first, second] = byPath(files, "src/server.ts").hunks;
    expect(first?.section).toBe('import { createServer } from "node:http";');
    expect(
      first?.lines.map((line) => [line.type, line.oldLine, line.newLine, line.content]),
    ).toEqual([
      ["context", 3, 3, "const port = Number(process.env.PORT ?? 3000);"],
      ["context", 4, 4, ""],
      ["context", 5, 5, "function handle(request, response) {"],
      ["add", null, 6, '  if (request.url === "/health") {'],
      ["add", null, 7, "    response.writeHead(204);"],
      ["add", null, 8, "    return response.end();"],
      ["add", null, 9, "  }"],
      ["context", 6, 10, '  response.writeHead(200, { "content-type": "text/plain" });'],
      ["context", 7, 11, '  response.end("ok");'],
      ["context", 8, 12, "}"],
    ]);
    expect(second?.lines.at(-2)).toEqual({
      type: "delete",
      content: 'export const version = "1.0.0";',
      oldLine: 28,
      newLine: null,
    });
    expect(second?.lines.at(-1)).toMatchObject({ type: "add", oldLine: null, newLine: 32 });
  });

  it("marks the line before `\\ No newline at end of file`, on whichever side it is", () => {
    const oldSide = byPath(files, "src/no-eol.ts").hunks[0]?.lines;
    expect(oldSide?.map((line) => [line.type, line.noNewlineAtEnd])).toEqual([
      ["delete", true],
      ["add", undefined],
    ]);
    const newSide = byPath(files, "src/one.ts").hunks[0]?.lines;
    expect(newSide?.map((line) => [line.type, line.noNewlineAtEnd])).toEqual([
      ["delete", undefined],
      ["add", true],
    ]);
  });

  it("drops the carriage return of CRLF content lines", () => {
    const lines = byPath(files, "src/windows.ts").hunks[0]?.lines;
    expect(lines?.map((line) => line.content)).toEqual(["one", "two", "2", "three"]);
  });

  it("keeps old and new line numbers of a deleted file", () => {
    const lines = byPath(files, "src/legacy.ts").hunks[0]?.lines;
    expect(lines?.map((line) => [line.oldLine, line.newLine])).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
  });
});

describe("parseUnifiedDiff on other header shapes", () => {
  it("skips GIT binary patch data", () => {
    const files = parseUnifiedDiff(fixture("binary-patch.diff"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ path: "assets/logo.png", binary: true, hunks: [] });
  });

  it("reads a diff whose every line ends in CRLF", () => {
    const files = parseUnifiedDiff(fixture("crlf.diff"));
    expect(files.map((file) => file.path)).toEqual([
      "src/no-eol.ts",
      "src/one.ts",
      "src/server.ts",
    ]);
    const server = byPath(files, "src/server.ts");
    expect(hunkHeaders(server)).toEqual(["-3,6 +3,10", "-25,4 +29,4"]);
    expect(server.hunks[0]?.section).toBe('import { createServer } from "node:http";');
    expect(server.hunks[0]?.lines[1]).toMatchObject({ type: "context", content: "" });
    expect(byPath(files, "src/one.ts").hunks[0]?.lines[1]?.noNewlineAtEnd).toBe(true);
  });

  it("uses the hunk counts, not the look of a line, to find the end of a hunk", () => {
    const [file] = parseUnifiedDiff(fixture("header-lookalikes.diff"));
    expect(file?.hunks).toHaveLength(1);
    expect(file?.hunks[0]?.lines.map((line) => [line.type, line.content])).toEqual([
      ["context", "keep"],
      ["delete", "-- removed marker"],
      ["context", "++ added marker"],
      ["delete", "@@ not a hunk @@"],
      ["add", "--- now this"],
      ["add", "+++ and that"],
      ["add", "@@ -1,2 +1,2 @@ still not a hunk"],
      ["context", "diff --git a/fake b/fake"],
      ["context", "end"],
    ]);
  });

  it("ignores a format-patch message (even a `--- ` line in it) and its signature", () => {
    const files = parseUnifiedDiff(fixture("format-patch.patch"));
    expect(files.map((file) => [file.path, file.status, file.additions, file.deletions])).toEqual([
      ["src/added.ts", "added", 3, 0],
      ["src/server.ts", "modified", 5, 1],
    ]);
    expect(byPath(files, "src/server.ts").hunks[1]?.lines.at(-1)?.content).toBe(
      'export const version = "1.1.0";',
    );
  });

  it("reads plain `diff -ruN` output: timestamps cut, a/ b/ prefixes stripped", () => {
    const files = parseUnifiedDiff(fixture("plain-unified.diff"));
    expect(files.map((file) => [file.path, file.oldPath, hunkHeaders(file)])).toEqual([
      ["greek.txt", "greek.txt", ["-1,3 +1,4"]],
      ["old.txt", "old.txt", ["-1,1 +0,0"]],
    ]);
  });

  it("treats /dev/null in a plain diff as added or deleted", () => {
    const files = parseUnifiedDiff(
      "--- /dev/null\n+++ fresh.txt\n@@ -0,0 +1 @@\n+x\n--- stale.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-y\n",
    );
    expect(files.map((file) => [file.path, file.status, file.oldPath, file.newPath])).toEqual([
      ["fresh.txt", "added", null, "fresh.txt"],
      ["stale.txt", "deleted", "stale.txt", null],
    ]);
  });

  it("reads a deleted binary file and a quoted name only on one side", () => {
    const files = parseUnifiedDiff(
      [
        "diff --git a/img/old.png b/img/old.png",
        "deleted file mode 100644",
        "index 1110372..0000000",
        "Binary files a/img/old.png and /dev/null differ",
        'diff --git a/plain.txt "b/t\\303\\251l\\303\\251.txt"',
        "similarity index 100%",
        "rename from plain.txt",
        'rename to "t\\303\\251l\\303\\251.txt"',
        "",
      ].join("\n"),
    );
    expect(files.map((file) => [file.path, file.status, file.binary, file.oldPath])).toEqual([
      ["img/old.png", "deleted", true, "img/old.png"],
      ["télé.txt", "renamed", false, "plain.txt"],
    ]);
  });

  it("reads a name holding ` b/` from a symmetric diff --git line", () => {
    const [file] = parseUnifiedDiff(
      "diff --git a/x b/y.txt b/x b/y.txt\nnew file mode 100644\nindex 0000000..e69de29\n",
    );
    expect(file).toMatchObject({ path: "x b/y.txt", status: "added" });
  });

  it("skips combined merge diffs", () => {
    const files = parseUnifiedDiff(
      [
        "diff --cc file.txt",
        "index 1..2,3..4",
        "--- a/file.txt",
        "+++ b/file.txt",
        "@@@ -1,1 -1,1 +1,1 @@@",
        "- a",
        " -b",
        "++c",
        "diff --git a/next.txt b/next.txt",
        "--- a/next.txt",
        "+++ b/next.txt",
        "@@ -1 +1 @@",
        "-1",
        "+2",
      ].join("\n"),
    );
    expect(files.map((file) => file.path)).toEqual(["next.txt"]);
  });

  it("returns nothing for empty or header-free text", () => {
    expect(parseUnifiedDiff("")).toEqual([]);
    expect(parseUnifiedDiff("just a commit message\n\nwith lines\n")).toEqual([]);
  });

  it("treats an empty line inside a hunk as a context line", () => {
    const [file] = parseUnifiedDiff(
      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n",
    );
    expect(file?.hunks[0]?.lines.map((line) => [line.type, line.oldLine, line.newLine])).toEqual([
      ["context", 1, 1],
      ["context", 2, 2],
      ["delete", 3, null],
      ["add", null, 3],
    ]);
  });

  it.each([
    ["a hunk cut short by the next file", "@@ -1,3 +1,3 @@\n a\n-b\ndiff --git a/g b/g\n", 7],
    ["a hunk cut short by the end of the text", "@@ -1,2 +1,2 @@\n a\n", 5],
    ["a context line when only additions remain", "@@ -1 +1,2 @@\n-a\n x\n", 6],
    ["a line with an unknown marker", "@@ -1 +1 @@\n*a\n", 5],
    ["a malformed hunk header", "@@ -1,x +1 @@\n", 4],
    ["a hunk header without its closing @@", "@@ -1 +1\n", 4],
  ])("throws DiffParseError on %s, naming the line", (_name, body, lineNumber) => {
    const text = `diff --git a/f b/f\n--- a/f\n+++ b/f\n${body}`;
    expect(() => parseUnifiedDiff(text)).toThrow(DiffParseError);
    try {
      parseUnifiedDiff(text);
    } catch (error) {
      expect((error as DiffParseError).lineNumber).toBe(lineNumber);
    }
  });

  it("throws on a hunk before any file header", () => {
    expect(() => parseUnifiedDiff("@@ -1 +1 @@\n-a\n+b\n")).toThrow(/before any file header/);
  });
});
