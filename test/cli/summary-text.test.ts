import { describe, expect, it } from "vitest";
import { summaryText } from "../../src/cli/summary-text.js";

const bold = (text: string) => `[${text}]`;

describe("the summary in the CLI's text report", () => {
  it("says whose description it is, with the model's lines and groups, escape sequences stripped", () => {
    const lines = summaryText(
      {
        state: "written",
        model: "m1",
        lines: ["Adds \x1b[31mred\x1b[0m pagination."],
        groups: [{ label: "API", files: ["src/a.ts", "src/b.ts"] }],
        verdictLinesDropped: 0,
      },
      bold,
    );
    expect(lines).toEqual([
      "",
      "[What this change does] (m1's description, not a verdict)",
      "  Adds red pagination.",
      "  · API: src/a.ts, src/b.ts",
    ]);
  });

  it("says why it is unavailable, and nothing when it is off", () => {
    expect(
      summaryText({ state: "unavailable", model: null, reason: "a budget cap was reached" }, bold),
    ).toEqual(["", "[Summary unavailable] — a budget cap was reached"]);
    expect(summaryText(undefined, bold)).toEqual([]);
  });
});
