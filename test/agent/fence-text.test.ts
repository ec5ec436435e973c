import { describe, expect, it } from "vitest";
import { fenceText } from "../../src/agent/fence-text.js";

describe("fenceText", () => {
  it("fences with one backtick more than the longest run inside", () => {
    expect(fenceText("a ```` b ` c", "md")).toBe("`````md\na ```` b ` c\n`````");
    expect(fenceText("plain")).toBe("```\nplain\n```");
  });

  it("takes model text with half a million backtick runs (a spread of them overflowed the stack)", () => {
    const text = "`a".repeat(500_000);
    expect(fenceText(text).startsWith("```\n`a`a")).toBe(true);
  });
});
