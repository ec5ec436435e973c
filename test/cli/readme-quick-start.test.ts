import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/parse-cli-args.js";
import { STARTER_PROVIDERS } from "../../src/cli/starter-providers.js";

/*
 * The README's Quick start is what a new user types: every `gadfly` command in it must be one
 * the CLI accepts, in the order the issue asks for, with the names the tools really show.
 * test/cli-e2e/first-run.e2e.test.ts runs steps 3 to 6 against the fakes.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const quickStart = readme.slice(
  readme.indexOf("## Quick start"),
  readme.indexOf("\n## ", readme.indexOf("## Quick start") + 1),
);

describe("the README's Quick start", () => {
  it("goes demo → CLI on your repository → registering the App → installing it → the first review", () => {
    const steps = [...quickStart.matchAll(/^\*\*(\d)\. (.+?)\*\*/gm)].map((match) => match[2]);
    expect(steps).toEqual([
      "See a whole review, offline, no keys.",
      "Review a change in your own repository with your models.",
      "Register the GitHub App.",
      "Install it on a repository.",
      "Configure the models, and check everything.",
      "The first review.",
    ]);
  });

  it("only uses gadfly commands and options the CLI accepts", () => {
    const commands = [
      ...quickStart.matchAll(/npm exec (?:--prefix \S+ )?-- gadfly ([^#`\n]*)/g),
    ].map((match) => (match[1] ?? "").trim());
    expect(commands).toEqual([
      "review --demo",
      "init --config ~/.config/gadfly/config.yml",
      "review",
      "init",
      "doctor",
    ]);
    for (const command of commands) {
      expect(() => parseCliArgs(command.split(/\s+/), { isTty: true }), command).not.toThrow();
    }
  });

  it("names the providers init offers and the button Probot's setup page shows", () => {
    const probotView = readFileSync(join(ROOT, "node_modules/probot/lib/views/setup.js"), "utf8");
    const button = /\*([^*]+)\*: GitHub creates the App/.exec(quickStart)?.[1];
    expect(button).toBeDefined();
    expect(probotView).toContain(`>${button}</button>`);
    const flag = /`--providers ([a-z,-]+)`/.exec(quickStart)?.[1] ?? "";
    const offered = STARTER_PROVIDERS.map((provider) => provider.id);
    expect(flag.split(",").length).toBeGreaterThan(1);
    for (const id of flag.split(",")) expect(offered).toContain(id);
  });
});
