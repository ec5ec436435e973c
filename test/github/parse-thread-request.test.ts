import { describe, expect, it } from "vitest";
import { MAX_QUESTION_CHARS } from "../../src/agent/answer-question.js";
import { parseThreadRequest } from "../../src/github/parse-thread-request.js";

describe("parseThreadRequest", () => {
  it("reads `@gadfly recheck` and a question with the lines after it", () => {
    expect(parseThreadRequest("@gadfly recheck", "@gadfly")).toEqual({ kind: "recheck" });
    expect(parseThreadRequest("  @Gadfly RECHECK.", "@gadfly")).toEqual({ kind: "recheck" });
    expect(parseThreadRequest("thanks!\n@gadfly why is this\na problem?", "@gadfly")).toEqual({
      kind: "question",
      question: "why is this\na problem?",
    });
    // "recheck" followed by words is a question about re-checking, not the command.
    expect(parseThreadRequest("@gadfly recheck what exactly?", "@gadfly")?.kind).toBe("question");
  });

  it("leaves the feedback commands, the review trigger, quotes, fences and other words alone", () => {
    for (const body of [
      "@gadfly dismiss not a bug",
      "@gadfly false-positive",
      "@gadfly undismiss",
      "@gadfly review",
      "> @gadfly why is this a problem?",
      "```\n@gadfly why?\n```",
      "@gadflyx why?",
      "@gadfly",
      "no mention here",
    ]) {
      expect(parseThreadRequest(body, "@gadfly")).toBeNull();
    }
  });

  it("bounds a flood of a question", () => {
    const question = parseThreadRequest(`@gadfly ${"why? ".repeat(10_000)}`, "@gadfly");
    expect(question?.kind).toBe("question");
    expect(question?.kind === "question" && question.question.length).toBe(MAX_QUESTION_CHARS);
  });
});
