import { describe, expect, it } from "vitest";
import {
  MAX_SUGGESTION_CHARS,
  parseLensAnswer,
  renderLensAnswer,
} from "../../src/findings/index.js";
import { lensFinding } from "../builders/finding.js";

function answer(entry: Record<string, unknown>): string {
  const base = { file: "src/a.ts", line: 3, end_line: 4, severity: "low", title: "T", body: "B" };
  return `VERDICT: Minor issues\n\`\`\`gadfly-findings\n${JSON.stringify([{ ...base, ...entry }])}\n\`\`\`\n`;
}

describe("the findings block's optional suggestion", () => {
  it("is kept as the replacement text, and a block without one parses as before", () => {
    const parsed = parseLensAnswer(answer({ suggestion: "  x = 1;\n  y = 2;" }));
    expect(parsed.findings?.[0]?.suggestion).toBe("  x = 1;\n  y = 2;");
    expect(parsed.problems).toEqual([]);
    const without = parseLensAnswer(answer({}));
    expect(without.findings?.[0]).not.toHaveProperty("suggestion");
  });

  it("reads the aliases and unwraps one fence a model put around it", () => {
    const fenced = parseLensAnswer(answer({ suggested_code: "```ts\n  x = 1;\n```" }));
    expect(fenced.findings?.[0]?.suggestion).toBe("  x = 1;");
    // Only a fence around the whole text: one inside the code stays.
    const inside = parseLensAnswer(answer({ suggestion: "a = `\n```\n`" }));
    expect(inside.findings?.[0]?.suggestion).toBe("a = `\n```\n`");
  });

  it("keeps the finding and says why when the suggestion cannot be used", () => {
    for (const [value, why] of [
      [42, "not a string"],
      ["x".repeat(MAX_SUGGESTION_CHARS + 1), `longer than ${MAX_SUGGESTION_CHARS} characters`],
    ] as const) {
      const parsed = parseLensAnswer(answer({ suggestion: value }));
      expect(parsed.findings).toHaveLength(1);
      expect(parsed.findings?.[0]).not.toHaveProperty("suggestion");
      expect(parsed.problems).toEqual([`suggestion left out (finding 1, src/a.ts:3): ${why}`]);
    }
  });

  it("round-trips through the contract's own shape", () => {
    const finding = lensFinding({ line: 2, endLine: 3, suggestion: "\tz();\n" });
    const parsed = parseLensAnswer(renderLensAnswer("Minor issues", [finding]));
    expect(parsed.findings).toEqual([finding]);
  });
});
