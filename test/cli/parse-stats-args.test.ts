import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/parse-cli-args.js";

const parse = (argv: string[]) => parseCliArgs(argv, { isTty: true });

describe("the arguments of gadfly stats", () => {
  it("defaults to the last 30 days of every repository, as text", () => {
    expect(parse(["stats"])).toEqual({
      kind: "stats",
      options: {
        sinceMs: 30 * 86_400_000,
        since: "30d",
        repository: null,
        format: "text",
        configPath: null,
      },
    });
  });

  it("reads a window in hours, days or weeks, a repository and a format", () => {
    expect(
      parse(["stats", "--since", "12h", "--repo", "octo-org/widgets.js", "--format", "csv"]),
    ).toMatchObject({
      options: {
        sinceMs: 12 * 3_600_000,
        repository: { owner: "octo-org", repo: "widgets.js" },
        format: "csv",
      },
    });
    expect(parse(["stats", "--since", "2w"])).toMatchObject({
      options: { sinceMs: 14 * 86_400_000 },
    });
  });

  it("refuses windows, repositories and formats it cannot use, in one line", () => {
    for (const since of ["0d", "30", "x1d", "1y", "367d", "1.5d"]) {
      expect(() => parse(["stats", "--since", since]), since).toThrow(/^--since must be/);
    }
    for (const repo of ["widgets", "a/b/c", "owner/..", "_x/y", "o/<script>"]) {
      expect(() => parse(["stats", "--repo", repo]), repo).toThrow(/^--repo must be owner\/name/);
    }
    expect(() => parse(["stats", "--format", "sarif"])).toThrow(
      '--format must be one of text, json, csv; got "sarif"',
    );
    expect(() => parse(["review", "--since", "30d"])).toThrow(
      '--since is not an option of "gadfly review"',
    );
  });
});
