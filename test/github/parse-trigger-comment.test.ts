import { describe, expect, it } from "vitest";
import { parseTriggerComment } from "../../src/github/parse-trigger-comment.js";

describe("parseTriggerComment", () => {
  it.each([
    ["the phrase alone", "@gadfly review", true],
    ["any case", "@Gadfly Review", true],
    ["with words after", "@gadfly review please, after the rename", true],
    ["with punctuation", "@gadfly review.", true],
    ["on a later line", "Fixed both.\n\n@gadfly review", true],
    ["indented", "   @gadfly review", true],
    ["CRLF", "thanks\r\n@gadfly review\r\n", true],
    ["mid-line", "Could someone @gadfly review this?", false],
    ["quoted", "> @gadfly review\nI agree with the above", false],
    ["in a code fence", "Use:\n```\n@gadfly review\n```", false],
    ["a longer word", "@gadfly reviewer", false],
    ["a different phrase", "@gadfly rerun", false],
    ["empty", "", false],
  ])("%s", (_name, body, want) => {
    expect(parseTriggerComment(body, "@gadfly review") !== null).toBe(want);
  });

  it("honours a repo-configured phrase", () => {
    expect(parseTriggerComment("/review now", "/review")).toEqual({ full: false });
    expect(parseTriggerComment("@gadfly review", "/review")).toBeNull();
    expect(parseTriggerComment("/review full", "/review")).toEqual({ full: true });
  });

  it.each([
    ["full", "@gadfly review full", true],
    ["any case", "@Gadfly Review FULL", true],
    ["with words after", "@gadfly review full, please", true],
    ["with punctuation", "@gadfly review full.", true],
    ["CRLF, on a later line", "rebased\r\n@gadfly review full\r\n", true],
    ["a second trigger line asks for full", "@gadfly review\n@gadfly review full", true],
    ["plain", "@gadfly review", false],
    ["a longer word", "@gadfly review fully", false],
    ["a hyphenated word", "@gadfly review full-text search", false],
    ["not the next word", "@gadfly review the full thing", false],
    ["glued to the phrase", "@gadfly review.full", false],
  ])("full: %s", (_name, body, full) => {
    expect(parseTriggerComment(body, "@gadfly review")).toEqual({ full });
  });

  it("asks for nothing when 'full' is only quoted or fenced", () => {
    expect(parseTriggerComment("> @gadfly review full", "@gadfly review")).toBeNull();
    expect(parseTriggerComment("```\n@gadfly review full\n```", "@gadfly review")).toBeNull();
    expect(
      parseTriggerComment("@gadfly review\n```\n@gadfly review full\n```", "@gadfly review"),
    ).toEqual({ full: false });
  });
});
