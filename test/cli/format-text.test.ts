import { describe, expect, it } from "vitest";
import { formatText } from "../../src/cli/format-text.js";
import { applyChallenges, type Consensus } from "../../src/consensus/index.js";
import type { NotReviewed } from "../../src/run/round-status.js";
import { sampleConsensus } from "../builders/consensus.js";

const NOT_REVIEWED: NotReviewed[] = [{ path: "package-lock.json", reason: "generated" }];
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching our escape codes is the point.
const OUR_COLOURS = /\x1b\[[0-9;]*m/g;

describe("formatText", () => {
  it("renders the verdict, ranked findings, models and files not reviewed", () => {
    const text = formatText(sampleConsensus(), { color: false, notReviewed: NOT_REVIEWED });
    const lines = text.split("\n");
    expect(lines[0]).toBe("Gadfly review — consensus across 2 models");
    expect(lines[1]).toBe(
      "Verdict: Significant issues · 3 findings (1 with multi-model agreement)",
    );
    expect(text).toContain("  1. HIGH   SQL built from user input [2/2]\n");
    expect(text).toContain("     src/db.ts:12-14 · security · a/model, b/model\n");
    // The whole explanation (main.ts wraps it to the terminal), never cut.
    expect(text).toContain(
      "     The query concatenates `name`.\n     An attacker controls it.\n     Use a parameter.\n",
    );
    expect(text).toContain("See the docs.");
    const single = text.indexOf("Single-model findings (lower confidence)");
    expect(single).toBeGreaterThan(text.indexOf("1. HIGH"));
    expect(single).toBeLessThan(text.indexOf("2. MEDIUM Off by one in the loop [1/2]"));
    expect(text).toContain("./dir with space/a#b?.ts:3 · correctness · a/model");
    expect(text).toContain("  c/model (c-provider) — no lens completed · 0/2 lenses done\n");
    expect(text).toContain("    correctness failed: timed out after 900 s\n");
    expect(text).toContain("    correctness cancelled\n");
    expect(text).toContain("Not reviewed (1)\n  package-lock.json — generated\n");
    expect(text.endsWith("\n")).toBe(true);
  });

  it("has no escape sequence at all without colour, even from hostile model text", () => {
    const text = formatText(sampleConsensus(), { color: false, notReviewed: NOT_REVIEWED });
    expect(text).not.toContain("\x1b");
    expect(text).not.toContain("\u202e");
    expect(text).not.toContain("\r");
    expect(text).toContain("3. NIT    Evil title [1/2]");
    // A bare carriage return would overwrite the line on screen: it becomes a line break.
    expect(text).toContain("     Body red\n     end\n");
  });

  it("with colour, adds only its own SGR codes: removing them gives the plain text", () => {
    const plain = formatText(sampleConsensus(), { color: false, notReviewed: NOT_REVIEWED });
    const coloured = formatText(sampleConsensus(), { color: true, notReviewed: NOT_REVIEWED });
    expect(coloured).toContain("\x1b[1;31mHIGH  \x1b[0m");
    expect(coloured).toContain("\x1b[33mMEDIUM\x1b[0m");
    expect(coloured).toContain("\x1b[1;31mSignificant issues\x1b[0m");
    expect(coloured).not.toContain("\x1b[2J");
    expect(coloured).not.toContain("\x1b]0;");
    expect(coloured.replace(OUR_COLOURS, "")).toBe(plain);
  });

  it("keeps a long explanation line whole: not cut at 160 characters", () => {
    const consensus = sampleConsensus();
    const [first] = consensus.clusters;
    if (first === undefined) throw new Error("fixture");
    const long = `Begin ${"word ".repeat(80)}end.`;
    first.representative = { ...first.representative, body: long };
    const text = formatText(consensus, { color: false, notReviewed: [] });
    expect(text).toContain(long);
  });

  it("shows as many body lines as asked", () => {
    const text = formatText(sampleConsensus(), { color: false, notReviewed: [], bodyLines: 1 });
    expect(text).toContain("     The query concatenates `name`.\n     …\n");
    expect(text).not.toContain("An attacker controls it.");
    expect(text).not.toContain("Not reviewed");
  });

  it("says so when there is no finding, or no model completed", () => {
    const none = {
      ...sampleConsensus(),
      clusters: [],
      modelCount: 0,
      verdict: "No material issues found" as const,
    };
    const text = formatText(none, { color: false, notReviewed: [] });
    expect(text).toContain("Verdict: No material issues found · 0 findings");
    expect(text).toContain("No model completed a review.");
    expect(text).not.toContain("Findings\n");
    expect(text).not.toContain("Single-model");
  });

  describe("cross-examination", () => {
    /** fp-odd (a's) confirmed by b; fp-hostile (b's) refuted by a with hostile text: disputed. */
    function crossExamined(reason: string): Consensus {
      const consensus = sampleConsensus();
      return {
        ...consensus,
        clusters: applyChallenges(consensus.clusters, [
          {
            fingerprint: "fp-odd",
            model: "b/model",
            verdict: "confirm",
            reason: "yes",
            checked: null,
          },
          { fingerprint: "fp-hostile", model: "a/model", verdict: "refute", reason, checked: null },
        ]),
      };
    }

    it("counts a confirmation as agreement and lists a disputed finding apart, with why", () => {
      const text = formatText(crossExamined("The title is fine."), {
        color: false,
        notReviewed: [],
      });
      expect(text.split("\n")[1]).toBe(
        "Verdict: Significant issues · 3 findings (2 with multi-model agreement, 1 disputed)",
      );
      expect(text).toContain("  2. MEDIUM Off by one in the loop [2/2]\n");
      expect(text).toContain(
        "./dir with space/a#b?.ts:3 · correctness · a/model · confirmed by b/model on challenge\n",
      );
      expect(text).not.toContain("Single-model findings");
      const disputed = text.indexOf("Disputed findings (refuted on cross-examination)");
      expect(disputed).toBeGreaterThan(text.indexOf("2. MEDIUM"));
      expect(text.slice(disputed)).toContain("3. NIT    Evil title [1/2 disputed]");
      expect(text).toContain("     lib/x.ts:7 · naming · b/model · refuted by a/model\n");
      expect(text).toContain("     refuted by a/model: The title is fine.\n");
    });

    it("keeps a hostile refutation to one short line without escape sequences", () => {
      const reason = `\x1b[2J\x1b]0;pwned\x07bad\r\nnext\u202e ${"x".repeat(10_000)}`;
      const text = formatText(crossExamined(reason), { color: false, notReviewed: [] });
      expect(text).not.toContain("\x1b");
      expect(text).not.toContain("\u202e");
      expect(text).not.toContain("\r");
      const line = text.split("\n").find((l) => l.includes("refuted by a/model:")) ?? "";
      expect(line.length).toBeLessThan(200);
      expect(line.endsWith("…")).toBe(true);
      const coloured = formatText(crossExamined(reason), { color: true, notReviewed: [] });
      expect(coloured.replace(OUR_COLOURS, "")).toBe(text);
    });
  });
});
