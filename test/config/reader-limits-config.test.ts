import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { AppConfig } from "../../src/config/schema.js";

const yaml = (readers: string) => `
providers:
  - name: cloud
    type: openai
models:
  - { id: big, provider: cloud }
${readers}`;

describe("readers in the app config", () => {
  it("is on by default: 3 rounds per PR and 10 per author a day, 10 minutes apart, half the daily caps", () => {
    expect(parseConfigText("gadfly.config.yml", yaml(""), AppConfig).readers).toEqual({
      roundsPerPullRequest: 3,
      roundsPerAuthor: 10,
      minIntervalSeconds: 600,
      dailyShare: 0.5,
    });
  });

  it("takes what the operator sets, 0 turning a limit off", () => {
    const config = parseConfigText(
      "gadfly.config.yml",
      yaml("readers:\n  roundsPerPullRequest: 0\n  minIntervalSeconds: 60\n  dailyShare: 0.2\n"),
      AppConfig,
    );
    expect(config.readers).toEqual({
      roundsPerPullRequest: 0,
      roundsPerAuthor: 10,
      minIntervalSeconds: 60,
      dailyShare: 0.2,
    });
  });

  it("names the field of a bad value, and refuses an unknown one", () => {
    const issues = (text: string) => {
      try {
        parseConfigText("gadfly.config.yml", text, AppConfig);
      } catch (error) {
        if (error instanceof ConfigError) return error.issues.map((issue) => issue.path);
        throw error;
      }
      return [];
    };
    expect(issues(yaml("readers:\n  roundsPerPullRequest: -1\n"))).toEqual([
      "readers.roundsPerPullRequest",
    ]);
    expect(issues(yaml("readers:\n  minIntervalSeconds: 1.5\n"))).toEqual([
      "readers.minIntervalSeconds",
    ]);
    expect(issues(yaml("readers:\n  roundsPerDay: 3\n"))).toHaveLength(1);
    // A share is a fraction of the caps: above 0 (readers would get nothing), at most the whole.
    for (const share of ["0", "1.5", "-0.1", '"half"']) {
      expect(issues(yaml(`readers:\n  dailyShare: ${share}\n`))).toEqual(["readers.dailyShare"]);
    }
  });
});
