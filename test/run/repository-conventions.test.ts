import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "../../src/diff/parse-unified-diff.js";
import { prepareChangeSet } from "../../src/run/prepare-change-set.js";
import { conventionsFor, conventionText } from "../../src/run/repository-conventions.js";

/*
 * Which conventions a change gets, and within which bounds: instructions by the changed
 * paths, files and instructions each cut to 16 KB, all to 32 KB, always with a note.
 */

const instructions = [
  { paths: ["db/migrations/**"], text: "Migrations must be reversible." },
  { paths: ["docs/**", "src/**/*.ts"], text: "Public functions need a doc comment." },
  { paths: ["legacy/**"], text: "Legacy code: no new dependencies." },
];

describe("conventionsFor", () => {
  it("gives an instruction only when one of its globs matches a changed path", () => {
    const conventions = conventionsFor({
      files: [],
      instructions,
      changedPaths: ["src/api/user.ts", "lib/moved.ts", "legacy/moved.ts"],
    });
    expect(conventions.map((convention) => [convention.source, convention.text])).toEqual([
      [
        ".github/gadfly.yml instructions[1] (default branch)",
        "Public functions need a doc comment.",
      ],
      [".github/gadfly.yml instructions[2] (default branch)", "Legacy code: no new dependencies."],
    ]);
    expect(conventionsFor({ files: [], instructions, changedPaths: ["README.md"] })).toEqual([]);
  });

  it("puts the instructions before the files, and bounds each and all, with a note for each cut", () => {
    const conventions = conventionsFor({
      files: [
        { path: "AGENTS.md", text: "a".repeat(100), cut: true },
        { path: "REVIEW.md", text: "r".repeat(100), cut: false },
        { path: "CONTRIBUTING.md", text: "c", cut: false },
        { path: "CLAUDE.md", text: "  \n", cut: false },
      ],
      instructions: [{ paths: ["**"], text: "i".repeat(70) }],
      changedPaths: ["x.ts"],
      limits: { fileBytes: 60, totalBytes: 150 },
    });
    expect(conventions).toEqual([
      {
        source: ".github/gadfly.yml instructions[0] (default branch)",
        text: "i".repeat(60),
        note: "[cut] only its first 60 bytes are shown: each file is bounded to 60 bytes.",
      },
      {
        source: "AGENTS.md",
        scope: "applies to the whole repository",
        text: "a".repeat(60),
        note: "[cut] only its first 60 bytes are shown: each file is bounded to 60 bytes.",
      },
      {
        source: "REVIEW.md",
        scope: "applies to the whole repository",
        text: "r".repeat(30),
        note: "[cut] only its first 30 bytes are shown: the conventions are bounded to 150 bytes in all.",
      },
      {
        source: "CONTRIBUTING.md",
        text: "",
        note: "[cut] left out: the conventions are bounded to 150 bytes in all, and the ones above used them.",
      },
    ]);
  });

  it("cuts on a character boundary", () => {
    expect(conventionText(Buffer.from("aé€"), 3)).toEqual({ text: "aé", cut: true });
    expect(conventionText(Buffer.from("aé€"), 5)).toEqual({ text: "aé", cut: true });
    expect(conventionText(Buffer.from("aé€"), 6)).toEqual({ text: "aé€", cut: false });
  });
});

describe("prepareChangeSet", () => {
  it("carries the conventions of the changed paths into the change set", () => {
    const diff = [
      "diff --git a/db/migrations/001.sql b/db/migrations/001.sql",
      "--- a/db/migrations/001.sql",
      "+++ b/db/migrations/001.sql",
      "@@ -1 +1 @@",
      "-a",
      "+b",
      "",
    ].join("\n");
    const change = prepareChangeSet({
      title: "t",
      description: "",
      headSha: "h",
      files: parseUnifiedDiff(diff),
      workspaceDir: "/tmp",
      ignore: [],
      diffBudgetChars: 10_000,
      conventionFiles: [{ path: "CONTRIBUTING.md", text: "Keep commits small.", cut: false }],
      instructions,
    });
    expect(change.conventions?.map((convention) => convention.text)).toEqual([
      "Migrations must be reversible.",
      "Keep commits small.",
    ]);
  });
});
