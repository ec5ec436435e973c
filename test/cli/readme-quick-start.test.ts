import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
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
      "Install the `gadfly` command.",
      "See a whole review, offline, no keys.",
      "Review a change in your own repository with your models.",
      "Register the GitHub App.",
      "Install it on a repository.",
      "Configure the models, and check everything.",
      "The first review.",
    ]);
  });

  it("only uses gadfly commands and options the CLI accepts", () => {
    // Commands as typed at a shell prompt, from any directory: the installed `gadfly`, never
    // `npm exec -- gadfly` (outside the checkout it resolves an unrelated npm package).
    const commands = [...quickStart.matchAll(/^gadfly ([^#`\n]*)/gm)].map((match) =>
      (match[1] ?? "").trim(),
    );
    expect(quickStart).not.toMatch(/^(npm exec|npx)\b[^\n]*\bgadfly\b/m);
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

  it("installs the tarball npm pack makes, under the name and version package.json gives it", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      name: string;
      version: string;
      bin: Record<string, string>;
    };
    expect(quickStart).toContain("npm ci && npm pack ");
    expect(quickStart).toContain(`npm install --global ./${pkg.name}-${pkg.version}.tgz\n`);
    // The one-off command names the package, whose own bin is this program.
    expect(quickStart).toContain(`\`npx ${pkg.name} review\``);
    expect(pkg.bin[pkg.name]).toBe(pkg.bin.gadfly);
  });

  it("lists the events app.yml subscribes the App to, all of them", () => {
    const manifest = parse(readFileSync(join(ROOT, "app.yml"), "utf8")) as {
      default_events: string[];
    };
    const listed = /\(events ([^;]+);/.exec(quickStart)?.[1] ?? "";
    expect([...listed.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]).sort()).toEqual(
      [...manifest.default_events].sort(),
    );
  });
});
