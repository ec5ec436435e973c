import { describe, expect, it } from "vitest";
import type { DiffFile } from "../../src/diff/diff-file.js";
import { exclusionOf } from "../../src/diff/exclusion-of.js";

const file = (path: string, binary: boolean): DiffFile => ({
  path,
  oldPath: path,
  newPath: path,
  status: "modified",
  binary,
  oldMode: null,
  newMode: null,
  similarity: null,
  hunks: [],
  additions: 0,
  deletions: 0,
});
const none = { generated: new Set<string>(), textual: new Set<string>() };

describe("exclusionOf", () => {
  it("calls binary only what git calls binary and whose name is not source", () => {
    expect(exclusionOf(file("assets/logo.png", true), none)).toBe("binary");
    // One NUL byte in a comment does not make a `.js` file binary: it has no text diff, said so.
    expect(exclusionOf(file("src/app.js", true), none)).toBe("not-text");
    // GitHub shows no text diff (a `-diff` attribute) but the head's content has no NUL byte.
    const textual = { ...none, textual: new Set(["bin/install"]) };
    expect(exclusionOf(file("bin/install", true), textual)).toBe("not-text");
    expect(exclusionOf(file("bin/install", true), none)).toBe("binary");
    expect(exclusionOf(file("src/app.js", false), none)).toBeNull();
  });

  it("calls generated only on evidence, and lockfiles by their names", () => {
    expect(exclusionOf(file("build/app.js", false), none)).toBeNull();
    expect(exclusionOf(file("vendor/lib.min.js", false), none)).toBeNull();
    const evidence = { ...none, generated: new Set(["build/app.js"]) };
    expect(exclusionOf(file("build/app.js", false), evidence)).toBe("generated");
    expect(exclusionOf(file("web/package-lock.json", false), none)).toBe("lockfile");
    expect(exclusionOf(file("Cargo.lock", false))).toBe("lockfile");
  });
});
