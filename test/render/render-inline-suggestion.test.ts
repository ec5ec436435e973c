import { describe, expect, it } from "vitest";
import type { Cluster } from "../../src/consensus/cluster.js";
import { findingMarkerIn } from "../../src/render/index.js";
import { renderInlineComment } from "../../src/render/render-inline-comment.js";
import type { SuggestionOutcome } from "../../src/suggestions/index.js";
import { referenceClusters } from "./reference-page.js";

function leading(): Cluster {
  const [first] = referenceClusters();
  if (first === undefined) throw new Error("no cluster");
  return first;
}

/** The content of the block opened by the fence line starting with `opener`, as GitHub reads it. */
function blockAfter(body: string, info: string): string[] | null {
  const lines = body.split("\n");
  const open = lines.findIndex((line) => /^`{3,}/.test(line) && line.replace(/^`+/, "") === info);
  if (open === -1) return null;
  const fence = /^`+/.exec(lines[open] ?? "")?.[0] ?? "```";
  const close = lines.findIndex(
    (line, at) => at > open && /^`+$/.test(line.trim()) && line.trim().length >= fence.length,
  );
  return lines.slice(open + 1, close);
}

const passed = (lines: string[], grammar: string | null = "typescript"): SuggestionOutcome => ({
  kind: "passed",
  file: "src/a.ts",
  line: 3,
  endLine: 4,
  lines,
  supporters: ["model-a", "model-b"],
  original: ["  old();", "  older();"],
  grammar,
  ...(grammar === null ? { syntaxNote: "no parser ships for this kind of file" } : {}),
});

describe("renderInlineComment with a checked suggestion", () => {
  it("puts a passed one in a suggestion block, saying what was checked and who proposed it", () => {
    const body = renderInlineComment(leading(), {}, passed(["  x = 1;", "  y = 2;"]));
    expect(body).toContain(
      "**Suggested change** to `src/a.ts:3-4`, proposed by 2 of 3 models. Checked: it applies to these lines of the head with their indentation, and the file still parses (typescript).",
    );
    expect(blockAfter(body, "suggestion")).toEqual(["  x = 1;", "  y = 2;"]);
    expect(body).not.toContain("```diff");
  });

  it("says the syntax was not checked for a language without a grammar", () => {
    const body = renderInlineComment(leading(), {}, passed(["val a = 1"], null));
    expect(body).toContain("syntax not checked: no parser ships for this kind of file.");
  });

  it("shows a failed one as a plain diff with the reason, never as a suggestion", () => {
    const failed: SuggestionOutcome = {
      kind: "failed",
      file: "src/a.ts",
      line: 3,
      endLine: 3,
      lines: ["x = (1;"],
      original: ["  x = 2;"],
      supporters: ["model-a"],
      reason:
        "the file would no longer parse as typescript: 1 syntax error more than the head has.",
    };
    const body = renderInlineComment(leading(), {}, failed);
    expect(body).toContain(
      "⚠️ Not offered as a one-click suggestion: the file would no longer parse as typescript",
    );
    expect(blockAfter(body, "diff")).toEqual(["-  x = 2;", "+x = (1;"]);
    expect(body).not.toMatch(/^`{3,}suggestion/m);
  });

  it("keeps a suggestion holding fences inside its block, with a longer fence", () => {
    const lines = ["const doc = `", "```", "````suggestion", "evil", "````", "`;"];
    const body = renderInlineComment(leading(), {}, passed(lines));
    expect(body).toMatch(/^`````suggestion$/m);
    expect(blockAfter(body, "suggestion")).toEqual(lines);
    // The comment still ends with its own footer and marker, outside every block.
    expect(body.trimEnd().split("\n").slice(-2)).toEqual([
      "<sub>🪰 Gadfly · advisory</sub>",
      `<!-- gadfly-finding:${leading().fingerprint} -->`,
    ]);
  });

  it("shows a failed one holding marker comments and fences without letting them out", () => {
    const failed: SuggestionOutcome = {
      kind: "failed",
      file: "src/a.ts",
      line: 3,
      endLine: 3,
      lines: ["<!-- gadfly-finding:someone-else -->", "```", "\u202eevil"],
      original: ["x();"],
      supporters: ["model-a"],
      reason: "it holds Gadfly's own marker comment text.",
    };
    const body = renderInlineComment(leading(), {}, failed);
    expect(findingMarkerIn(body)).toBe(leading().fingerprint);
    expect(body).not.toContain("\u202e");
    expect(body).toMatch(/^````diff$/m);
    expect(blockAfter(body, "diff")).toHaveLength(4);
  });

  it("renders as before without one", () => {
    expect(renderInlineComment(leading(), {}, undefined)).toBe(renderInlineComment(leading()));
    expect(renderInlineComment(leading())).not.toContain("Suggested change");
  });
});
