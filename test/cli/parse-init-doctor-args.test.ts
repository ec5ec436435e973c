import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/parse-cli-args.js";

const parse = (argv: string[]) => parseCliArgs(argv, { isTty: true });

describe("the arguments of gadfly init and gadfly doctor", () => {
  it("reads init's providers as a list and its config path", () => {
    expect(parse(["init", "--providers", "openai, ollama,openai", "--config", "x.yml"])).toEqual({
      kind: "init",
      options: { configPath: "x.yml", providers: ["openai", "ollama"] },
    });
    expect(parse(["init"])).toEqual({
      kind: "init",
      options: { configPath: null, providers: null },
    });
  });

  it("reads doctor's format, text by default, and refuses another", () => {
    expect(parse(["doctor"])).toEqual({
      kind: "doctor",
      options: { configPath: null, format: "text" },
    });
    expect(parse(["doctor", "--format", "json", "--config", "a.yml"])).toEqual({
      kind: "doctor",
      options: { configPath: "a.yml", format: "json" },
    });
    expect(() => parse(["doctor", "--format", "sarif"])).toThrow(
      '--format must be one of text, json; got "sarif"',
    );
  });

  it("keeps each command's options to itself", () => {
    expect(() => parse(["review", "--providers", "openai"])).toThrow(
      '--providers is not an option of "gadfly review"',
    );
    expect(() => parse(["doctor", "--providers", "openai"])).toThrow(
      '--providers is not an option of "gadfly doctor"',
    );
    expect(() => parse(["init", "--providers", "Open AI"])).toThrow(/--providers: "Open AI"/);
    expect(() => parse([])).toThrow(
      /expected "review", "eval", "init", "doctor", "stats" or "worker"/,
    );
  });
});
