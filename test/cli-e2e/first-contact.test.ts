import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_SPECS } from "../../src/cli/command-specs.js";
import { columnWidth } from "../../src/cli/wrap-text.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { runGadfly, runGadflyInTerminal } from "./run-gadfly.js";

/*
 * What a developer meets the first time they run gadfly: every command has its own help, and
 * the output fits their terminal.
 */

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox();
});

afterAll(async () => {
  await sandbox?.remove();
});

describe("gadfly's help", () => {
  it.each(COMMAND_SPECS.map((spec) => spec.name))(
    "`gadfly %s --help` is that command's own help, as `gadfly help` gives it",
    async (name) => {
      const spec = COMMAND_SPECS.find((candidate) => candidate.name === name);
      const run = await runGadfly([name, "--help"], { cwd: sandbox.work, env: sandbox.env });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout.startsWith(`Usage: gadfly ${name} `)).toBe(true);
      for (const option of spec?.options ?? []) expect(run.stdout).toContain(option.flag);
      // Not another command's options.
      if (name !== "review") expect(run.stdout).not.toContain("--fail-on");
      const viaHelp = await runGadfly(["help", name], { cwd: sandbox.work, env: sandbox.env });
      expect(viaHelp).toEqual(run);
    },
    30_000,
  );

  it("`gadfly help` lists every command; an unknown one is a usage error", async () => {
    const run = await runGadfly(["help"], { cwd: sandbox.work, env: sandbox.env });
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith("Usage: gadfly <command> [options]\n")).toBe(true);
    for (const spec of COMMAND_SPECS) {
      const summary = spec.summary.replace(/[()]/g, "\\$&");
      expect(run.stdout).toMatch(new RegExp(`^ {2}${spec.name} +${summary}$`, "m"));
    }
    expect(await runGadfly(["--help"], { cwd: sandbox.work, env: sandbox.env })).toEqual(run);
    const unknown = await runGadfly(["help", "reveiw"], { cwd: sandbox.work, env: sandbox.env });
    expect(unknown).toEqual({
      code: 2,
      stdout: "",
      stderr: 'gadfly: unknown command "reveiw" (see gadfly --help)\n',
    });
  });
});

/** Whitespace made single spaces: what wrapping may change, and nothing else. */
const words = (text: string) => text.replace(/\s+/g, " ").trim();
const widest = (text: string) => Math.max(...text.split("\n").map(columnWidth));

describe("gadfly's output and the terminal's width", () => {
  it("wraps its help to an 80-column terminal; a pipe gets one line per paragraph and option", async () => {
    const terminal = await runGadflyInTerminal(["review", "--help"], {
      cwd: sandbox.work,
      env: sandbox.env,
      columns: 80,
    });
    const piped = await runGadfly(["review", "--help"], { cwd: sandbox.work, env: sandbox.env });
    expect(terminal.code).toBe(0);
    expect(widest(terminal.stdout)).toBeLessThanOrEqual(80);
    expect(widest(piped.stdout)).toBeGreaterThan(80);
    expect(piped.stdout).toMatch(
      /^ {2}--base REF +compare against REF .*HEAD for the uncommitted/m,
    );
    expect(words(terminal.stdout)).toBe(words(piped.stdout));
  }, 30_000);

  it("fits the text report to an 80-column terminal and loses no word of it", async () => {
    const args = ["review", "--demo", "--format", "text", "--no-progress"];
    const terminal = await runGadflyInTerminal(args, {
      cwd: sandbox.work,
      env: { ...sandbox.env, NO_COLOR: "1" },
      columns: 80,
    });
    const piped = await runGadfly(args, { cwd: sandbox.work, env: sandbox.env });
    expect(terminal.code).toBe(0);
    expect(piped.code).toBe(0);
    expect(widest(terminal.stdout)).toBeLessThanOrEqual(80);
    expect(widest(piped.stdout)).toBeGreaterThan(80);
    expect(words(terminal.stdout)).toBe(words(piped.stdout));
    // A finding's wrapped title goes on under its text, not at the margin.
    expect(terminal.stdout).toMatch(/^ {3}1\. HIGH .*\n {6}\[3\/4\]$/m);
  }, 30_000);
});
