import { describe, expect, it } from "vitest";
import {
  conventionReads,
  cursorRuleDirectory,
  isConventionPath,
} from "../../src/run/convention-reads.js";
import { conventionScope } from "../../src/run/convention-scope.js";
import { conventionsFor } from "../../src/run/repository-conventions.js";

const AVAILABLE = [
  "AGENTS.md",
  "CONTRIBUTING.md",
  "packages/api/AGENTS.md",
  "packages/api/src/CLAUDE.md",
  "packages/web/GEMINI.md",
  "packages/web/.cursorrules",
  "docs/REVIEW.md",
  ".github/copilot-instructions.md",
  ".github/instructions/ts.instructions.md",
  ".cursor/rules/sql.mdc",
];

const budget = () => ({ steps: 1_000_000 });

describe("isConventionPath", () => {
  it("keeps the convention names at any depth and the rule files in their directories only", () => {
    expect(AVAILABLE.every(isConventionPath)).toBe(true);
    for (const path of [
      "src/agents.md",
      "AGENTS.md.bak",
      "CONTRIBUTING/x.md",
      "pkg/CONTRIBUTING.md",
      "pkg/.github/copilot-instructions.md",
      "docs/ts.instructions.md",
      ".github/instructions/.instructions.md",
      "src/.cursor/rules/.mdc",
      "src/.cursor/rules.mdc",
      "src/cursor/rules/a.mdc",
    ]) {
      expect(isConventionPath(path), path).toBe(false);
    }
  });
});

describe("nested .cursor/rules", () => {
  it("are convention files, governing the folder that holds them", () => {
    expect(isConventionPath("src/.cursor/rules/a.mdc")).toBe(true);
    expect(isConventionPath("packages/web/.cursor/rules/ui/forms.mdc")).toBe(true);
    expect(cursorRuleDirectory(".cursor/rules/a.mdc")).toBe("");
    expect(cursorRuleDirectory("packages/web/.cursor/rules/ui/forms.mdc")).toBe("packages/web");
    expect(cursorRuleDirectory("a/.cursor/rules/b/.cursor/rules/c.mdc")).toBe("a/.cursor/rules/b");
    expect(cursorRuleDirectory("packages/web/rules/a.mdc")).toBeNull();
  });

  it("are read only when a changed file is under their folder", () => {
    const available = ["packages/web/.cursor/rules/ui.mdc", "packages/api/.cursor/rules/db.mdc"];
    expect(conventionReads(available, ["packages/web/src/form.tsx"], 20).paths).toEqual([
      "packages/web/.cursor/rules/ui.mdc",
    ]);
    expect(conventionReads(available, ["README.md"], 20).paths).toEqual([]);
  });

  it("match their globs from their folder, and alwaysApply means the files under it", () => {
    const globs = {
      path: "packages/web/.cursor/rules/ui.mdc",
      text: "---\nglobs: src/**/*.tsx\n---\nUse the design system.",
    };
    const changed = ["packages/web/src/form.tsx", "src/other.tsx", "packages/api/src/x.tsx"];
    expect(conventionScope(globs, changed, budget())).toEqual({
      applies: true,
      scope: "globs src/**/*.tsx under packages/web/: applies to packages/web/src/form.tsx",
      text: "Use the design system.",
    });
    expect(conventionScope(globs, ["src/other.tsx"], budget()).applies).toBe(false);
    const always = {
      path: "packages/web/.cursor/rules/all.mdc",
      text: "---\nalwaysApply: true\n---\nBe kind.",
    };
    expect(conventionScope(always, changed, budget())).toEqual({
      applies: true,
      scope: "applies to the files under packages/web/ (alwaysApply: packages/web/src/form.tsx)",
      text: "Be kind.",
    });
    expect(conventionScope(always, ["src/other.tsx"], budget()).applies).toBe(false);
  });
});

describe("conventionReads", () => {
  it("reads the directory files above each changed file, root first, then the repository-wide and rule files", () => {
    const reads = conventionReads(AVAILABLE, ["packages/api/src/handlers/user.ts"], 20);
    expect(reads).toEqual({
      paths: [
        "AGENTS.md",
        "packages/api/AGENTS.md",
        "packages/api/src/CLAUDE.md",
        ".github/copilot-instructions.md",
        "CONTRIBUTING.md",
        ".cursor/rules/sql.mdc",
        ".github/instructions/ts.instructions.md",
      ],
      leftOut: [],
    });
  });

  it("reads no directory's files that no changed file is under", () => {
    const reads = conventionReads(AVAILABLE, ["packages/web/app.tsx", "README.md"], 20);
    expect(reads.paths).toContain("packages/web/GEMINI.md");
    expect(reads.paths).toContain("packages/web/.cursorrules");
    expect(reads.paths).not.toContain("packages/api/AGENTS.md");
    expect(reads.paths).not.toContain("docs/REVIEW.md");
  });

  it("bounds the number of files read, and names what it left out", () => {
    const many = Array.from({ length: 30 }, (_, index) => `d${index}/AGENTS.md`);
    const changed = many.map((path) => path.replace("AGENTS.md", "x.ts"));
    const reads = conventionReads(["AGENTS.md", ...many], changed, 20);
    expect(reads.paths).toHaveLength(20);
    expect(reads.paths[0]).toBe("AGENTS.md");
    expect(reads.leftOut).toHaveLength(11);
  });

  it("walks each directory once, however many files share it", () => {
    const changed = Array.from({ length: 10_000 }, (_, index) => `a/b/c/d/e/f${index}.ts`);
    const reads = conventionReads(["a/b/AGENTS.md", "a/b/c/d/e/CLAUDE.md"], changed, 20);
    expect(reads.paths).toEqual(["a/b/AGENTS.md", "a/b/c/d/e/CLAUDE.md"]);
  });
});

describe("conventionScope", () => {
  it("says a nested directory's file governs the files under it", () => {
    const scope = conventionScope(
      { path: "packages/api/AGENTS.md", text: "Use zod." },
      ["packages/api/a.ts", "packages/api-client/b.ts", "packages/api/c/d.ts"],
      budget(),
    );
    expect(scope).toEqual({
      applies: true,
      scope: "applies to the files under packages/api/ (packages/api/a.ts, packages/api/c/d.ts)",
      text: "Use zod.",
    });
  });

  it("honours applyTo, with a name-only glob at any depth, and drops the front matter", () => {
    const file = {
      path: ".github/instructions/ts.instructions.md",
      text: '---\napplyTo: "**/*.ts,docs/**"\n---\nNo default exports.\n',
    };
    expect(conventionScope(file, ["src/a.ts", "README.md"], budget())).toEqual({
      applies: true,
      scope: "applyTo **/*.ts, docs/**: applies to src/a.ts",
      text: "No default exports.\n",
    });
    expect(conventionScope(file, ["src/a.py"], budget()).applies).toBe(false);
    const nameOnly = {
      path: ".github/instructions/py.instructions.md",
      text: "---\napplyTo: '*.py'\n---\nx",
    };
    expect(conventionScope(nameOnly, ["deep/down/a.py"], budget()).applies).toBe(true);
    const none = { path: ".github/instructions/x.instructions.md", text: "No front matter." };
    expect(conventionScope(none, ["a.ts"], budget())).toMatchObject({ applies: false });
  });

  it("honours a .mdc rule's globs and alwaysApply, and applies neither-kind rules nowhere", () => {
    const globs = {
      path: ".cursor/rules/sql.mdc",
      text: '---\ndescription: SQL\nglobs: [db/**, "*.sql"]\nalwaysApply: false\n---\nParameterise.',
    };
    expect(conventionScope(globs, ["db/q.ts"], budget()).applies).toBe(true);
    expect(conventionScope(globs, ["x/y.sql"], budget()).applies).toBe(true);
    expect(conventionScope(globs, ["src/a.ts"], budget()).applies).toBe(false);
    const always = { path: ".cursor/rules/all.mdc", text: "---\nalwaysApply: true\n---\nBe kind." };
    expect(conventionScope(always, ["src/a.ts"], budget())).toEqual({
      applies: true,
      scope: "applies to the whole repository (alwaysApply)",
      text: "Be kind.",
    });
    const manual = { path: ".cursor/rules/manual.mdc", text: "---\ndescription: by hand\n---\nx" };
    expect(conventionScope(manual, ["src/a.ts"], budget()).applies).toBe(false);
    // A glob outside the safe subset matches nothing rather than compiling a RegExp.
    const hostile = { path: ".cursor/rules/h.mdc", text: "---\nglobs: +(a|b)*\n---\nx" };
    expect(conventionScope(hostile, ["a"], budget()).applies).toBe(false);
  });
});

describe("conventionsFor with nested and rule files", () => {
  it("shows each block with what it applies to, leaves out what applies to nothing, and says what the file bound left out", () => {
    const conventions = conventionsFor({
      files: [
        { path: "AGENTS.md", text: "Root rule.", cut: false },
        { path: "packages/api/AGENTS.md", text: "API rule.", cut: false },
        { path: ".cursor/rules/sql.mdc", text: "---\nglobs: db/**\n---\nSQL rule.", cut: false },
        { path: "d1/AGENTS.md", text: "", cut: false, leftOut: true },
      ],
      instructions: [],
      changedPaths: ["packages/api/x.ts"],
    });
    expect(conventions).toEqual([
      { source: "AGENTS.md", scope: "applies to the whole repository", text: "Root rule." },
      {
        source: "packages/api/AGENTS.md",
        scope: "applies to the files under packages/api/ (packages/api/x.ts)",
        text: "API rule.",
      },
      {
        source: "d1/AGENTS.md",
        text: "",
        note: "[cut] left out: at most 20 convention files are read for one change, and the ones above used them.",
      },
    ]);
  });
});
