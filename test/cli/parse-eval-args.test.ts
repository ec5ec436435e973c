import { describe, expect, it } from "vitest";
import { helpText } from "../../src/cli/help-text.js";
import { parseCliArgs } from "../../src/cli/parse-cli-args.js";

const parse = (argv: string[]) => parseCliArgs(argv, { isTty: true });

describe("the arguments of gadfly eval", () => {
  it("defaults: window 3, every entry, text, progress on", () => {
    expect(parse(["eval", "--dataset", "d.json"])).toEqual({
      kind: "eval",
      options: {
        dataset: "d.json",
        reposDir: null,
        window: 3,
        limit: null,
        resume: null,
        models: null,
        lenses: null,
        configPath: null,
        concurrency: null,
        format: "text",
        output: null,
        recordDir: null,
        replayDir: null,
        progress: true,
        judge: null,
        judgeCache: null,
      },
    });
  });

  it("reads every option its help lists", () => {
    expect(
      parse([
        "eval",
        "--dataset",
        "d.json",
        "--repos",
        "clones",
        "--window",
        "0",
        "--limit",
        "5",
        "--resume",
        "r.jsonl",
        "--models",
        "a,b",
        "--lenses",
        "security",
        "--format",
        "markdown",
        "--replay",
        "rec",
        "--no-progress",
        "--judge",
        "j",
        "--judge-cache",
        "cache",
      ]).kind === "eval",
    ).toBe(true);
    const { options } = parse(["eval", "--dataset", "d", "--judge", "j", "--judge-cache", "c"]) as {
      options: { judge: string | null; judgeCache: string | null };
    };
    expect([options.judge, options.judgeCache]).toEqual(["j", "c"]);
  });

  it.each([
    [["eval"], /needs --dataset FILE/],
    [["eval", "--dataset", "d", "--window", "-1"], /--window/],
    [["eval", "--dataset", "d", "--window", "51"], /^--window must be a whole number from 0 to 50/],
    [["eval", "--dataset", "d", "--limit", "0"], /^--limit must be a whole number from 1/],
    [["eval", "--dataset", "d", "--limit", "2.5"], /^--limit must be/],
    [
      ["eval", "--dataset", "d", "--format", "sarif"],
      /^--format must be one of text, markdown, json/,
    ],
    [["eval", "--dataset", "d", "--record", "a", "--replay", "b"], /cannot be used together/],
    [["eval", "--dataset", "d", "--base", "main"], /--base is not an option of "gadfly eval"/],
    [["review", "--dataset", "d"], /--dataset is not an option of "gadfly review"/],
  ])("refuses %j", (argv, message) => {
    expect(() => parse(argv)).toThrow(message);
  });

  it("has its help, as `gadfly eval --help` and `gadfly help eval`", () => {
    expect(parse(["eval", "--help"])).toEqual({ kind: "help", command: "eval" });
    expect(parse(["help", "eval"])).toEqual({ kind: "help", command: "eval" });
    const help = helpText("eval", 100);
    for (const flag of ["--dataset", "--repos", "--window", "--limit", "--resume", "--format"]) {
      expect(help).toContain(flag);
    }
    expect(helpText(null, 100)).toMatch(/eval +measure review quality/);
  });
});
