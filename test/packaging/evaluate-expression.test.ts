import { describe, expect, it } from "vitest";
import { type ExpressionContext, evaluateExpression } from "./evaluate-expression.js";

// The runner test trusts this evaluator with action.yml's `if:` lines: these are the GitHub
// semantics those lines depend on.

const context = (status: "success" | "failure" = "success"): ExpressionContext => ({
  status,
  contexts: {
    inputs: { comment: "true", "fail-on": "" },
    steps: { target: { outputs: { skip: "false", "base-ref": "main" } }, cache: { outputs: {} } },
    github: { event_name: "pull_request" },
  },
});

describe("evaluateExpression", () => {
  it("compares strings ignoring case, and a missing output as null", () => {
    expect(evaluateExpression("steps.target.outputs.skip == 'FALSE'", context())).toBe(true);
    expect(evaluateExpression("steps.cache.outputs.cache-hit", context())).toBe(null);
    expect(evaluateExpression("steps.cache.outputs.cache-hit != 'true'", context())).toBe(true);
    expect(evaluateExpression("steps.nothing.outputs.x == ''", context())).toBe(true);
  });

  it("returns an operand from && and ||, and negates truthiness with !", () => {
    expect(evaluateExpression("inputs.fail-on || 'none'", context())).toBe("none");
    expect(evaluateExpression("inputs.comment && steps.target.outputs.base-ref", context())).toBe(
      "main",
    );
    expect(evaluateExpression("!inputs.fail-on", context())).toBe(true);
    expect(
      evaluateExpression(
        "(github.event_name == 'issue_comment') || (1 < 2 && 'a' != 'b')",
        context(),
      ),
    ).toBe(true);
  });

  it("answers the status functions from the job's status", () => {
    expect(evaluateExpression("success()", context("failure"))).toBe(false);
    expect(evaluateExpression("failure() && always()", context("failure"))).toBe(true);
    expect(evaluateExpression("cancelled()", context())).toBe(false);
  });

  it("refuses what it does not simulate rather than guess", () => {
    expect(() => evaluateExpression("hashFiles('package-lock.json')", context())).toThrow(
      /not simulated/,
    );
    expect(() => evaluateExpression("vars.X", context())).toThrow(/unknown context vars/);
    expect(() => evaluateExpression("inputs.comment ==", context())).toThrow();
  });
});
