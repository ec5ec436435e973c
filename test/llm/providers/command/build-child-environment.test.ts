import { describe, expect, it } from "vitest";
import { buildChildEnvironment } from "../../../../src/llm/providers/command/build-child-environment.js";

describe("buildChildEnvironment", () => {
  it("copies the base variables and the listed names, nothing else, skipping unset ones", () => {
    expect(
      buildChildEnvironment(
        {
          PATH: "/bin",
          HOME: "/home/g",
          ANTHROPIC_API_KEY: "k",
          PRIVATE_KEY: "p",
          WEBHOOK_SECRET: "w",
        },
        ["ANTHROPIC_API_KEY", "NOT_SET"],
      ),
    ).toEqual({ PATH: "/bin", HOME: "/home/g", ANTHROPIC_API_KEY: "k" });
  });
});
