import { describe, expect, it } from "vitest";
import { mentionOf, parseFeedbackCommand } from "../../src/github/parse-feedback-command.js";

describe("parseFeedbackCommand", () => {
  it("reads dismiss with its reason, false-positive and undismiss, case-insensitively", () => {
    expect(
      parseFeedbackCommand("@gadfly dismiss intended: the token is public", "@gadfly"),
    ).toEqual({
      kind: "dismiss",
      reason: "intended: the token is public",
    });
    expect(parseFeedbackCommand("@Gadfly DISMISS", "@gadfly")).toEqual({
      kind: "dismiss",
      reason: null,
    });
    expect(parseFeedbackCommand("thanks!\n@gadfly false-positive", "@gadfly")).toEqual({
      kind: "false_positive",
      reason: null,
    });
    expect(parseFeedbackCommand("@gadfly undismiss.", "@gadfly")).toEqual({
      kind: "undismiss",
      reason: null,
    });
  });

  it("ignores quotes, code fences, other words and other mentions", () => {
    expect(parseFeedbackCommand("> @gadfly dismiss", "@gadfly")).toBeNull();
    expect(parseFeedbackCommand("```\n@gadfly dismiss\n```", "@gadfly")).toBeNull();
    expect(parseFeedbackCommand("@gadfly dismissive", "@gadfly")).toBeNull();
    expect(parseFeedbackCommand("@gadfly review", "@gadfly")).toBeNull();
    expect(parseFeedbackCommand("@gadflyx dismiss", "@gadfly")).toBeNull();
    expect(parseFeedbackCommand("please @gadfly dismiss", "@gadfly")).toBeNull();
  });

  it("bounds the reason", () => {
    const command = parseFeedbackCommand(`@gadfly dismiss ${"x".repeat(5000)}`, "@gadfly");
    expect(command?.reason?.length).toBe(500);
  });

  it("takes the mention from the trigger phrase", () => {
    expect(mentionOf("@gadfly review")).toBe("@gadfly");
    expect(mentionOf("  /bot please ")).toBe("/bot");
  });
});
