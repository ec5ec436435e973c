import { describe, expect, it } from "vitest";
import { stripFindingsBlock } from "../../src/findings/findings-block.js";

describe("stripFindingsBlock", () => {
  it("keeps the prose and removes the verdict line and the findings block", () => {
    const text = [
      "I've verified all three findings against the actual source.",
      "",
      "**VERDICT: Minor issues**",
      "````gadfly-findings",
      "[",
      "",
      "]",
      "````",
      "All survive.",
    ].join("\n");
    expect(stripFindingsBlock(text)).toBe(
      "I've verified all three findings against the actual source.\n\nAll survive.",
    );
  });

  it("keeps other code blocks and removes a json block used as the findings", () => {
    const text = "See:\n```ts\nconst a = 1;\n```\nVERDICT: Minor issues\n```json\n[]\n```";
    expect(stripFindingsBlock(text)).toBe("See:\n```ts\nconst a = 1;\n```");
  });

  it("removes an unclosed block to the end", () => {
    expect(stripFindingsBlock("Note.\n```gadfly-findings\n[{")).toBe("Note.");
  });
});
