import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { checkLensAnswer } from "../../src/agent/check-lens-answer.js";
import { finalOutput } from "../../src/agent/finalize.js";
import { extractFencedBlocks } from "../../src/findings/extract-fenced-blocks.js";
import {
  containsFindingsBlock,
  removeFindingsBlocks,
  stripFindingsBlock,
} from "../../src/findings/findings-block.js";
import { normalizeFinding } from "../../src/findings/normalize-finding.js";
import { report } from "../helpers/report.js";

/*
 * Every scan over model text must be linear: the pull request can make a model emit anything,
 * and before these bounds a 40,000-character line took seconds. Each shape below made one of
 * the old regular expressions backtrack quadratically (or is a classic trap: long runs, many
 * openers, no closers). The test times every scanner on 40k, 400k and 4M characters of it and
 * checks growth, not speed: a linear scan grows about 10x per step, a quadratic one 100x.
 * Bounds are generous (machines differ 2.5x, and this one is shared).
 */

/** Everything that reads a lens answer, as the review does it. */
function scanAll(text: string): void {
  extractFencedBlocks(text);
  checkLensAnswer(text);
  removeFindingsBlocks(text);
  stripFindingsBlock(text);
  containsFindingsBlock(text);
  finalOutput(text, [{ role: "assistant", content: "An earlier answer. ".repeat(20) }]);
}

const SHAPES: Record<string, (size: number) => string> = {
  "fence, spaces, backtick": (size) => `\`\`\`${" ".repeat(size)}\``,
  "fence, word, backtick": (size) => `\`\`\`${"a".repeat(size)}\``,
  "one line of backticks": (size) => "`".repeat(size),
  "tildes then a backtick": (size) => `${"~".repeat(size)}\``,
  "openers, never closed": (size) => "```x\n".repeat(size / 5),
  "findings openers": (size) => "```gadfly-findings\n".repeat(size / 19),
  "verdict, dots": (size) => `VERDICT: a${".".repeat(size)}x`,
  "verdict, spaces, #": (size) => `VERDICT: a${" #".repeat(size / 2)}x`,
  "sources, brackets": (size) => `Sources:\n${"[".repeat(size)}`,
  "sources, open links": (size) => `Sources:\n${"[a](".repeat(size / 4)}`,
  "trailing brackets": (size) => `${"[".repeat(size)}]`,
  "block of commas": (size) => `\`\`\`gadfly-findings\n[${", ".repeat(size / 2)}x\n\`\`\``,
  "block of comment openers": (size) => `\`\`\`gadfly-findings\n[${"/*".repeat(size / 2)}\n\`\`\``,
};

const SIZES = [40_000, 400_000, 4_000_000];
/** A linear scan grows 10x per step; allow noise up to 4x that, far below quadratic's 100x. */
const MAX_GROWTH = 40;
/**
 * Below this a timing is mostly noise (a collection, another process on the core): growth is
 * measured from at least this much. A quadratic scan still fails: at 4M characters it takes
 * hours, not seconds.
 */
const FLOOR_MS = 100;
/**
 * Every scanner together over 4M characters of one shape. About 2 s here for the slowest shape
 * (800,000 lines, each split and tested by four scanners) on a loaded machine; quadratic work
 * at this size would take hours.
 */
const MAX_MS_AT_4M = 20_000;

/** The faster of two runs: a pause for garbage collection or a busy core lands in one of them. */
function timeMs(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run++) {
    const started = performance.now();
    scanAll(text);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe("scans over model text", () => {
  it("grow linearly on hostile shapes up to 4M characters", { timeout: 180_000 }, () => {
    scanAll(SHAPES["openers, never closed"]?.(40_000) ?? ""); // warm the JIT
    const rows: string[] = [];
    for (const [name, make] of Object.entries(SHAPES)) {
      const times = SIZES.map((size) => timeMs(make(size)));
      rows.push(
        `${name.padEnd(26)} ${times.map((ms) => `${ms.toFixed(0).padStart(6)}ms`).join(" ")}`,
      );
      for (let step = 1; step < times.length; step++) {
        const growth = (times[step] ?? 0) / Math.max(FLOOR_MS, times[step - 1] ?? 0);
        expect(growth, `${name}: ${SIZES[step - 1]} → ${SIZES[step]} chars`).toBeLessThan(
          MAX_GROWTH,
        );
      }
      expect(times.at(-1), `${name} at 4M chars`).toBeLessThan(MAX_MS_AT_4M);
    }
    report(`shape (chars: ${SIZES.join(", ")})`, ...rows);
  });

  it("normalizes hostile finding fields in linear time", () => {
    const entry = (fields: Record<string, unknown>) => ({
      severity: "high",
      title: "t",
      ...fields,
    });
    const fields: Record<string, (size: number) => Record<string, unknown>> = {
      "file, many colons": (size) => ({ file: `${"a:1".repeat(size / 3)}x` }),
      "file, dashed range": (size) => ({ file: `a:1${" - 1".repeat(size / 4)}x` }),
      "line, spaced range": (size) => ({
        file: "a",
        line: `1${" ".repeat(size)}-${" ".repeat(size)}x`,
      }),
      "path of ./": (size) => ({ file: `${"./".repeat(size / 2)}a`, line: 1 }),
      "body, no sentence end": (size) => ({
        file: "a",
        line: 1,
        title: "",
        body: "a".repeat(size),
      }),
      "huge severity": (size) => ({ file: "a", line: 1, severity: "x".repeat(size) }),
    };
    const sizes = [40_000, 400_000];
    const rows: string[] = [];
    for (const [name, make] of Object.entries(fields)) {
      const times = sizes.map((size) => {
        const raw = entry(make(size));
        const started = performance.now();
        normalizeFinding(raw, 0);
        return performance.now() - started;
      });
      rows.push(
        `${name.padEnd(22)} ${times.map((ms) => `${ms.toFixed(1).padStart(7)}ms`).join(" ")}`,
      );
      expect((times[1] ?? 0) / Math.max(FLOOR_MS, times[0] ?? 0), name).toBeLessThan(MAX_GROWTH);
    }
    report(`finding field (chars: ${sizes.join(", ")})`, ...rows);
  });

  it("still reads what the fences and verdict line say", () => {
    const answer = "Prose.\n\nVERDICT: Minor issues ##\n```gadfly-findings   \n[]\n```";
    expect(extractFencedBlocks(answer)).toEqual([
      { info: "gadfly-findings", content: "[]", closed: true, startLine: 3 },
    ]);
    expect(checkLensAnswer(answer)).toMatchObject({ usable: true, verdict: "Minor issues" });
    // A backtick after the run makes the line prose, not a fence (CommonMark's info string rule).
    expect(extractFencedBlocks("```js `x`\n```")).toEqual([
      { info: "", content: "", closed: false, startLine: 1 },
    ]);
    expect(checkLensAnswer("VERDICT: Significant issues...\n```json\n[]\n```")).toMatchObject({
      usable: true,
      verdict: "Significant issues",
    });
  });
});
