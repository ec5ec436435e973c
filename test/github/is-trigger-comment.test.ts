import { describe, expect, it } from "vitest";
import { isTriggerComment } from "../../src/github/is-trigger-comment.js";

describe("isTriggerComment", () => {
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
    expect(isTriggerComment(body, "@gadfly review")).toBe(want);
  });

  it("honours a repo-configured phrase", () => {
    expect(isTriggerComment("/review now", "/review")).toBe(true);
    expect(isTriggerComment("@gadfly review", "/review")).toBe(false);
  });
});
