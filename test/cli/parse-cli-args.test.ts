import { describe, expect, it } from "vitest";
import type { ReviewCommandOptions } from "../../src/cli/cli-command.js";
import { helpText } from "../../src/cli/help-text.js";
import { parseCliArgs } from "../../src/cli/parse-cli-args.js";
import { UsageError } from "../../src/cli/usage-error.js";

const TTY = { isTty: true };
const PIPE = { isTty: false };

function review(argv: string[], context = TTY): ReviewCommandOptions {
  const command = parseCliArgs(["review", ...argv], context);
  if (command.kind !== "review") throw new Error(`expected review, got ${command.kind}`);
  return command.options;
}

function usageMessage(argv: string[], context = TTY): string {
  try {
    parseCliArgs(argv, context);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as UsageError).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(argv)}`);
}

describe("parseCliArgs: commands", () => {
  it("recognises help, version and worker", () => {
    expect(parseCliArgs(["--help"], TTY)).toEqual({ kind: "help", command: null });
    expect(parseCliArgs(["-h"], TTY)).toEqual({ kind: "help", command: null });
    expect(parseCliArgs(["help"], TTY)).toEqual({ kind: "help", command: null });
    expect(parseCliArgs(["review", "--help"], TTY)).toEqual({ kind: "help", command: "review" });
    expect(parseCliArgs(["stats", "-h", "--since", "x"], TTY)).toEqual({
      kind: "help",
      command: "stats",
    });
    expect(parseCliArgs(["help", "doctor"], TTY)).toEqual({ kind: "help", command: "doctor" });
    expect(parseCliArgs(["--version"], TTY)).toEqual({ kind: "version" });
    expect(parseCliArgs(["worker"], TTY)).toEqual({ kind: "worker", configPath: null });
    expect(parseCliArgs(["worker", "--config", "w.yml"], TTY)).toEqual({
      kind: "worker",
      configPath: "w.yml",
    });
  });

  it("rejects a missing or unknown command and stray arguments", () => {
    expect(usageMessage([])).toMatch(/^missing command/);
    expect(usageMessage(["reveiw"])).toBe('unknown command "reveiw" (see gadfly --help)');
    expect(usageMessage(["review", "main"])).toBe('unexpected argument "main"');
    expect(usageMessage(["help", "reveiw"])).toBe('unknown command "reveiw" (see gadfly --help)');
    expect(usageMessage(["help", "review", "init"])).toBe('unexpected argument "init"');
    expect(usageMessage(["review", "--help", "x"])).toBe('unexpected argument "x"');
    expect(usageMessage(["worker", "--base", "main"])).toBe(
      '--base is not an option of "gadfly worker"',
    );
  });
});

describe("parseCliArgs: review options", () => {
  it("has defaults for everything", () => {
    expect(review([])).toEqual({
      base: null,
      head: null,
      repoPath: ".",
      models: null,
      lenses: null,
      configPath: null,
      concurrency: null,
      verify: true,
      format: "text",
      output: null,
      failOn: null,
      recordDir: null,
      replayDir: null,
      demo: false,
      progress: true,
    });
  });

  it("reads every flag", () => {
    expect(
      review([
        "--base",
        "origin/main",
        "--head=feature/x",
        "--repo",
        "../other",
        "--models",
        "glm-5.2:cloud, claude-code/opus",
        "--lenses",
        "security,error-handling",
        "--config",
        "my.yml",
        "--concurrency",
        "3",
        "--no-verify",
        "--format",
        "sarif",
        "--output",
        "out.sarif",
        "--fail-on",
        "medium",
        "--record",
        "rec",
        "--no-progress",
      ]),
    ).toEqual({
      base: "origin/main",
      head: "feature/x",
      repoPath: "../other",
      models: ["glm-5.2:cloud", "claude-code/opus"],
      lenses: ["security", "error-handling"],
      configPath: "my.yml",
      concurrency: 3,
      verify: false,
      format: "sarif",
      output: "out.sarif",
      failOn: "medium",
      recordDir: "rec",
      replayDir: null,
      demo: false,
      progress: false,
    });
    expect(review(["--replay", "rec"]).replayDir).toBe("rec");
    expect(review(["--demo"]).demo).toBe(true);
    expect(review(["--fail-on", "high"]).failOn).toBe("high");
  });

  it("defaults the format to text on a terminal and markdown otherwise", () => {
    expect(review([], TTY).format).toBe("text");
    expect(review([], PIPE).format).toBe("markdown");
    // A file is not a terminal either.
    expect(review(["--output", "report.md"], TTY).format).toBe("markdown");
    expect(review(["--format", "text"], PIPE).format).toBe("text");
    for (const format of ["text", "markdown", "json", "sarif"]) {
      expect(review(["--format", format], PIPE).format).toBe(format);
    }
  });

  it("drops duplicate list items, keeping the first order", () => {
    expect(review(["--lenses", "security,correctness,security"]).lenses).toEqual([
      "security",
      "correctness",
    ]);
  });
});

describe("parseCliArgs: usage errors are one clear line", () => {
  it.each([
    [["review", "--bogus"], "unknown option --bogus (see gadfly --help)"],
    [["review", "-x"], "unknown option -x (see gadfly --help)"],
    [["review", "--base"], "--base needs a value"],
    [["review", "--base", "--head", "x"], "--base needs a value"],
    [["review", "--base="], "--base needs a value"],
    [["review", "--base=-rf"], '--base: "-rf" is not a valid git ref'],
    [["review", "--head", "a b"], '--head: "a b" is not a valid git ref'],
    [["review", "--demo=yes"], "--demo does not take a value"],
    [
      ["review", "--format", "html"],
      '--format must be one of text, markdown, json, sarif; got "html"',
    ],
    [["review", "--fail-on", "low"], '--fail-on must be one of high, medium; got "low"'],
    [
      ["review", "--concurrency", "0"],
      '--concurrency must be a whole number from 1 to 64; got "0"',
    ],
    [
      ["review", "--concurrency", "65"],
      '--concurrency must be a whole number from 1 to 64; got "65"',
    ],
    [
      ["review", "--concurrency", "2.5"],
      '--concurrency must be a whole number from 1 to 64; got "2.5"',
    ],
    [
      ["review", "--concurrency", "four"],
      '--concurrency must be a whole number from 1 to 64; got "four"',
    ],
    [["review", "--models", "a,,b"], '--models: empty item in "a,,b" (use a,b,c)'],
    [["review", "--models", ","], '--models: empty item in "," (use a,b,c)'],
    [
      ["review", "--lenses", "Security"],
      "--lenses: \"Security\": a lens id is lowercase letters, digits and '-'",
    ],
    [["review", "--record", "a", "--replay", "b"], "--record and --replay cannot be used together"],
    [["review", "--demo", "--replay", "b"], "--demo cannot be used with --replay"],
    [["review", "--demo", "--base", "main"], "--demo cannot be used with --base"],
    [["review", "--format", "json", "--format", "sarif"], "--format is given more than once"],
    [["review", "--no-verify", "--no-verify"], "--no-verify is given more than once"],
    [["review", "--verify"], "unknown option --verify (see gadfly --help)"],
  ])("%j → %s", (argv, message) => {
    expect(usageMessage(argv)).toBe(message);
  });

  it("never echoes control characters from the command line", () => {
    const message = usageMessage(["review", "--format", "\x1b[2Jevil\nline"]);
    expect([...message].filter((character) => character < " ")).toEqual([]);
    expect(message).toContain("\\u001b[2Jevil\\nline");
  });
});

describe("gadfly help review", () => {
  it("documents every review flag the parser accepts", () => {
    const text = helpText("review", Number.POSITIVE_INFINITY);
    const flags = Object.keys(review([])).length;
    for (const flag of [
      "--base",
      "--head",
      "--repo",
      "--models",
      "--lenses",
      "--config",
      "--concurrency",
      "--no-verify",
      "--format",
      "--output",
      "--fail-on",
      "--record",
      "--replay",
      "--demo",
      "--no-progress",
    ]) {
      expect(text).toContain(flag);
      // Each flag documented is one the parser takes (it would throw on an unknown one).
      const value =
        flag === "--no-verify" || flag === "--demo" || flag === "--no-progress" ? [] : ["x"];
      if (flag === "--concurrency") value[0] = "2";
      if (flag === "--format") value[0] = "json";
      if (flag === "--fail-on") value[0] = "high";
      if (flag === "--lenses") value[0] = "security";
      expect(() => review([flag, ...value])).not.toThrow();
    }
    expect(flags).toBe(15);
  });
});
