import { describe, expect, it } from "vitest";
import {
  applyReplacement,
  checkSuggestion,
  headFile,
  type SuggestionCandidate,
  type SuggestionOutcome,
  SyntaxChecker,
} from "../../src/suggestions/index.js";
import { headRead, indexWithHunks, LANGUAGE_SAMPLES } from "./suggestion-fixtures.js";

const syntax = new SyntaxChecker();

function candidate(file: string, line: number, endLine: number, text: string): SuggestionCandidate {
  return { file, line, endLine, text, supporters: ["model-a"] };
}

/** Checks `text` for lines line..endLine of `head`, the whole file one hunk unless given. */
function check(
  file: string,
  head: string,
  line: number,
  endLine: number,
  text: string,
  hunks: [number, number][] = [[1, head.split("\n").length]],
  checker = syntax,
): Promise<SuggestionOutcome> {
  return checkSuggestion(
    candidate(file, line, endLine, text),
    headRead(head),
    indexWithHunks(file, hunks),
    checker,
  );
}

function reasonOf(outcome: SuggestionOutcome): string {
  return outcome.kind === "failed" ? outcome.reason : "(passed)";
}

describe("checkSuggestion on each shipped language", () => {
  for (const sample of LANGUAGE_SAMPLES) {
    it(`passes a fix that keeps ${sample.grammar} parsing, and applies it to that line only`, async () => {
      const outcome = await check(sample.file, sample.text, sample.line, sample.line, sample.good);
      expect(outcome).toMatchObject({ kind: "passed", grammar: sample.grammar });
      const lines = sample.text.split("\n");
      lines[sample.line - 1] = sample.good;
      expect(applyReplacement(headFile(sample.text), sample.line, sample.line, outcome.lines)).toBe(
        lines.join("\n"),
      );
    });

    it(`refuses a fix that breaks ${sample.grammar} syntax, saying so`, async () => {
      const outcome = await check(
        sample.file,
        sample.text,
        sample.line,
        sample.line,
        sample.broken,
      );
      expect(outcome.kind).toBe("failed");
      expect(reasonOf(outcome)).toMatch(
        new RegExp(
          `no longer parse as ${sample.grammar}: \\d+ syntax errors? more than the head has`,
        ),
      );
    });
  }

  it("compares with the head's own errors: a head that already fails to parse can still be fixed, unchecked", async () => {
    const head = "let a = [1, 2;\nconst y = 2;\n";
    const passed = await check("a.js", head, 2, 2, "const y = 3;");
    // Passed, but not claimed parse-checked: a new error could hide inside the head's own.
    expect(passed).toMatchObject({
      kind: "passed",
      grammar: null,
      syntaxNote:
        "the head file already has 1 syntax error as javascript, so a new one could hide among them",
    });
    const failed = await check("a.js", head, 2, 2, "const y = ;");
    expect(reasonOf(failed)).toBe(
      "the file would no longer parse as javascript: 1 syntax error more than the head has (first at line 2).",
    );
  });
});

describe("checkSuggestion: what GitHub can apply", () => {
  const head = "a();\nb();\nc();\nd();\ne();\nf();\n";

  it("refuses a range that spans two hunks of the diff, naming both", async () => {
    const outcome = await check("x.ts", head, 2, 5, "b2();\ne2();", [
      [1, 3],
      [5, 6],
    ]);
    expect(reasonOf(outcome)).toBe(
      "lines 2–5 span two hunks of the diff (1–3 and 5–6), and GitHub applies a suggestion only within one.",
    );
    const adjacent = await check("x.ts", head, 2, 5, "b2();\ne2();", [
      [1, 3],
      [4, 6],
    ]);
    expect(reasonOf(adjacent)).toBe(
      "lines 2–5 span two hunks of the diff (1–3 and 4–6), and GitHub applies a suggestion only within one.",
    );
  });

  it("refuses lines outside the diff, and lines past the end of the file", async () => {
    expect(reasonOf(await check("x.ts", head, 5, 5, "e2();", [[1, 3]]))).toContain(
      "not all inside the diff",
    );
    expect(reasonOf(await check("x.ts", head, 9, 9, "z();", [[1, 20]]))).toBe(
      "the head file has 6 lines, so lines 9 do not exist.",
    );
  });

  it("refuses a suggestion that repeats the line above or below its range", async () => {
    const above = await check("x.ts", head, 3, 3, "b();\nc2();");
    expect(reasonOf(above)).toContain("its first line repeats line 2, just above");
    const below = await check("x.ts", head, 3, 3, "c2();\nd();");
    expect(reasonOf(below)).toContain("its last line repeats line 4, just below");
    // A lone brace is not called a duplicate (it may legitimately repeat); an extra one is
    // caught by the parse instead.
    const braces = "if (a) {\n  if (b) {\n    x();\n  }\n}\n";
    expect((await check("y.ts", braces, 3, 3, "    y();\n  }")).kind).toBe("failed");
    expect((await check("y.ts", braces, 3, 3, "    y();")).kind).toBe("passed");
  });

  it("refuses a diff written instead of code, the code as it is, and hidden characters", async () => {
    expect(reasonOf(await check("x.ts", head, 3, 3, "-c();\n+c2();"))).toContain("reads as a diff");
    expect(reasonOf(await check("x.ts", head, 3, 3, "c();"))).toBe(
      "it is the code as it already is.",
    );
    expect(reasonOf(await check("x.ts", head, 3, 3, "c(/*\u202e*/);"))).toContain(
      "invisible or bidirectional control characters",
    );
    expect(reasonOf(await check("x.ts", head, 3, 3, "c(); // <!-- gadfly-finding:other -->"))).toBe(
      "it holds Gadfly's own marker comment text.",
    );
    expect(reasonOf(await check("x.ts", head, 3, 3, "c2();\rd();"))).toBe(
      "it holds a carriage return inside a line.",
    );
  });

  it("deletes lines with an empty suggestion", async () => {
    const outcome = await check("x.ts", head, 3, 4, "");
    expect(outcome).toMatchObject({ kind: "passed", lines: [] });
    expect(applyReplacement(headFile(head), 3, 4, [])).toBe("a();\nb();\ne();\nf();\n");
  });
});

describe("checkSuggestion: indentation and line endings", () => {
  const indented = "class A {\n  run() {\n    go();\n  }\n}\n";

  it("refuses a suggestion that lost its indentation", async () => {
    const outcome = await check("a.ts", indented, 3, 3, "go(1);");
    expect(reasonOf(outcome)).toBe(
      "its first line is indented by nothing where line 3 is indented by 4 spaces.",
    );
    expect((await check("a.ts", indented, 3, 3, "    go(1);")).kind).toBe("passed");
  });

  it("in a file indented with tabs, refuses spaces and passes tabs", async () => {
    const go = "package a\n\nfunc F() {\n\tif x {\n\t\ty()\n\t}\n}\n";
    const spaces = await check("a.go", go, 4, 6, "\tif x {\n        z()\n\t}");
    expect(reasonOf(spaces)).toBe(
      "its line 2 is indented with spaces where the file indents with tabs.",
    );
    const tabs = await check("a.go", go, 4, 6, "\tif x {\n\t\tz()\n\t}");
    expect(tabs).toMatchObject({ kind: "passed", grammar: "go" });
  });

  it("keeps a CRLF file's line endings on every line, the new ones included", async () => {
    const crlf = "def f():\r\n    x = 1\r\n    return x\r\n";
    const outcome = await check("a.py", crlf, 2, 2, "    x = 2\r\n    y = 3\r\n");
    expect(outcome).toMatchObject({ kind: "passed", lines: ["    x = 2", "    y = 3"] });
    expect(applyReplacement(headFile(crlf), 2, 2, outcome.lines)).toBe(
      "def f():\r\n    x = 2\r\n    y = 3\r\n    return x\r\n",
    );
  });

  it("keeps a mixed file's untouched endings byte for byte", () => {
    const mixed = "a\r\nb\nc\r\nd\n";
    expect(applyReplacement(headFile(mixed), 3, 3, ["C"])).toBe("a\r\nb\nC\r\nd\n");
  });

  it("keeps a last line without a newline without one", async () => {
    const last = "const a = 1;\nconst b = 2;";
    const outcome = await check("a.ts", last, 2, 2, "const b = 3;\n");
    expect(outcome).toMatchObject({ kind: "passed", lines: ["const b = 3;"] });
    expect(applyReplacement(headFile(last), 2, 2, outcome.lines)).toBe(
      "const a = 1;\nconst b = 3;",
    );
    expect(applyReplacement(headFile(last), 2, 2, ["const b = 3;", "const c = 4;"])).toBe(
      "const a = 1;\nconst b = 3;\nconst c = 4;",
    );
  });
});

describe("checkSuggestion: a language without a grammar", () => {
  it("passes without a parse, and says its syntax was not checked", async () => {
    const outcome = await check("build.kts", "val a = 1\nval b = 2\n", 2, 2, "val b = (");
    expect(outcome).toMatchObject({ kind: "passed", grammar: null });
    expect(outcome.kind === "passed" ? outcome.syntaxNote : "").toContain("not checked");
  });
});

describe("SyntaxChecker loads grammars lazily", () => {
  it("loads only Go for a Go-only change, once however many files", async () => {
    const loads: string[] = [];
    const real = new SyntaxChecker();
    const checker = new SyntaxChecker(async (grammar) => {
      loads.push(grammar);
      const { readFile } = await import("node:fs/promises");
      const { createRequire } = await import("node:module");
      const { dirname, join } = await import("node:path");
      const main = createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm");
      return readFile(join(dirname(main), `tree-sitter-${grammar}.wasm`));
    });
    expect(real.loadedGrammars()).toEqual([]);
    for (const file of ["a.go", "b/c.go", "d.go"]) {
      expect(await checker.count(file, "package a\n")).toMatchObject({ grammar: "go", errors: 0 });
    }
    expect(await checker.count("README.md", "# hi")).toBeNull();
    expect(loads).toEqual(["go"]);
    expect(checker.loadedGrammars()).toEqual(["go"]);
  });
});
