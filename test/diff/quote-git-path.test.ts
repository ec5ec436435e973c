import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteGitPath } from "../../src/diff/quote-git-path.js";
import { splitGitHeaderPaths } from "../../src/diff/split-git-header-paths.js";
import { unquoteGitPath } from "../../src/diff/unquote-git-path.js";

describe("quoteGitPath and unquoteGitPath", () => {
  it("match git's quoting", () => {
    expect(quoteGitPath("src/app.ts")).toBe("src/app.ts");
    expect(quoteGitPath("with space.ts")).toBe("with space.ts");
    expect(quoteGitPath("spécial.ts")).toBe('"sp\\303\\251cial.ts"');
    expect(quoteGitPath("spécial.ts", { quoteNonAscii: false })).toBe("spécial.ts");
    expect(quoteGitPath('say "hi"\tnow\\')).toBe('"say \\"hi\\"\\tnow\\\\"');
    expect(quoteGitPath("bell\u0007\u007f")).toBe('"bell\\a\\177"');
  });

  it("decode octal UTF-8 and letter escapes, and report where the string ends", () => {
    expect(unquoteGitPath('"a/sp\\303\\251cial name.ts"\tmore')).toEqual({
      value: "a/spécial name.ts",
      end: 26,
    });
    expect(unquoteGitPath('x "\\346\\227\\245\\n"', 2)).toEqual({ value: "日\n", end: 18 });
  });

  it("refuse malformed quoted strings", () => {
    expect(unquoteGitPath("plain")).toBeNull();
    expect(unquoteGitPath('"unterminated')).toBeNull();
    expect(unquoteGitPath('"bad \\q escape"')).toBeNull();
    expect(unquoteGitPath('"short \\30"')).toBeNull();
  });

  it("round-trip any path (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1 }),
        fc.boolean(),
        (path, quoteNonAscii) => {
          const quoted = quoteGitPath(path, { quoteNonAscii });
          const decoded = quoted.startsWith('"') ? unquoteGitPath(quoted)?.value : quoted;
          expect(decoded).toBe(path);
        },
      ),
    );
  });
});

describe("splitGitHeaderPaths", () => {
  it.each([
    ["a/x.ts b/x.ts", "x.ts", "x.ts"],
    ["a/my file.ts b/my file.ts", "my file.ts", "my file.ts"],
    ["a/x b/y b/x b/y", "x b/y", "x b/y"],
    ['"a/t\\303\\251.ts" "b/t\\303\\251.ts"', "té.ts", "té.ts"],
    ['a/plain.ts "b/t\\303\\251.ts"', "plain.ts", "té.ts"],
    ['"a/t\\303\\251.ts" b/plain.ts', "té.ts", "plain.ts"],
    ["a/old.ts b/new.ts", "old.ts", "new.ts"],
    ["same.ts same.ts", "same.ts", "same.ts"],
  ])("%s", (names, oldPath, newPath) => {
    expect(splitGitHeaderPaths(names)).toEqual({ oldPath, newPath });
  });

  it("gives up on a line it cannot split", () => {
    expect(splitGitHeaderPaths("onlyonename")).toBeNull();
    expect(splitGitHeaderPaths('"a/unterminated b/x')).toBeNull();
  });
});
