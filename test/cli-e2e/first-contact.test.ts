import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_SPECS } from "../../src/cli/command-specs.js";
import { columnWidth } from "../../src/cli/wrap-text.js";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelRequest, FakeReply } from "../fakes/model-script.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { type GadflyRun, runGadfly, runGadflyInTerminal } from "./run-gadfly.js";

/*
 * What a developer meets the first time they run gadfly: it reviews only what they meant (no
 * default branch is an error naming --base, no change costs nothing, a subdirectory means the
 * repository), every command has its own help, and the output fits their terminal.
 */

const KEY = "sk-first-contact-3c9e";
const APP_FILE = "src/app/session.ts";

let sandbox: Sandbox;
let openai: FakeOpenAIServer;
let configPath: string;
const repositories: GitRepository[] = [];

/** Reads the file it is asked about, then finds nothing: a real tool turn, then an answer. */
function reviewer(request: FakeModelRequest): FakeReply {
  if (!request.messages.some((message) => message.role === "assistant")) {
    return { toolCalls: [{ name: "read_file", arguments: { path: APP_FILE } }] };
  }
  return { text: "VERDICT: No material issues found\n```gadfly-findings\n[]\n```" };
}

beforeAll(async () => {
  sandbox = await createSandbox();
  openai = await startFakeOpenAIServer({ apiKey: KEY });
  openai.script("gpt-test", reviewer);
  configPath = join(sandbox.root, "config.yml");
  await writeFile(
    configPath,
    `providers:
  - name: openai
    type: openai
    baseURL: ${openai.url}/v1
    apiKeyEnv: E2E_OPENAI_KEY
models:
  - { id: "gpt-test", provider: openai }
review:
  lenses: [security]
  timeoutSeconds: 30
crossExamination:
  enabled: false
`,
  );
});

afterAll(async () => {
  await Promise.all([
    openai?.close(),
    sandbox?.remove(),
    ...repositories.map((repository) => repository.remove()),
  ]);
});

async function repository(branch = "main"): Promise<GitRepository> {
  const created = await createGitRepository(branch);
  repositories.push(created);
  await created.write(APP_FILE, "export const ttl = 60;\n");
  await created.write("AGENTS.md", "Sessions expire: never raise the TTL above an hour.\n");
  created.commit("Sessions");
  return created;
}

const env = () => ({ ...sandbox.env, E2E_OPENAI_KEY: KEY });

function review(cwd: string, ...extra: string[]): Promise<GadflyRun> {
  return runGadfly(
    ["review", "--config", configPath, "--format", "json", "--no-progress", ...extra],
    { cwd, env: env() },
  );
}

describe("gadfly review reviews only what the user meant", () => {
  it("finds no default branch: a one-line error naming --base, and no model call", async () => {
    // A clone whose only branch is `trunk`, with no remote.
    const repo = await repository("trunk");
    await repo.write(APP_FILE, "export const ttl = 3600;\n");
    const calls = openai.requests.length;
    const run = await review(repo.root);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^gadfly: no default branch to compare with \(.*\): pass --base REF/,
    );
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(openai.requests.length).toBe(calls);

    // As the message says: --base HEAD reviews the uncommitted change, that file only.
    const withBase = await review(repo.root, "--base", "HEAD");
    expect(withBase.stderr).toBe("");
    expect(withBase.code).toBe(0);
    const first = openai.requests.slice(calls)[0];
    const listing = JSON.stringify(first?.messages);
    expect(listing).toContain(APP_FILE);
    expect(listing).not.toContain("AGENTS.md (added");
  }, 30_000);

  it("finds nothing changed: says so, calls no model, writes no report and exits 0", async () => {
    const repo = await repository();
    const calls = openai.requests.length;
    const clean = await review(repo.root);
    const head = repo.git("rev-parse", "--short=7", "HEAD").trim();
    expect(clean).toEqual({
      code: 0,
      stdout: "",
      stderr: `gadfly: nothing to review: no change between ${head} and the working tree\n`,
    });

    // A change made only of files no reviewer is given is nothing to review either.
    await repo.write("assets/logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0xff]));
    const binary = await review(repo.root);
    expect(binary.code).toBe(0);
    expect(binary.stdout).toBe("");
    expect(binary.stderr).toBe(
      `gadfly: nothing to review: 1 changed file between ${head} and the working tree, none a reviewer is given: assets/logo.png (binary file)\n`,
    );
    expect(openai.requests.length).toBe(calls);
  }, 30_000);

  it("run from a subdirectory, reviews the whole repository's change, as from its root", async () => {
    const repo = await repository();
    repo.git("checkout", "--quiet", "-b", "topic");
    await repo.write(APP_FILE, "export const ttl = 7200;\n");
    repo.commit("Longer sessions");
    // Untracked, outside the directory the command runs in.
    await repo.write("docs/sessions.md", "Sessions last two hours.\n");
    await mkdir(join(repo.root, "src/app/deep"), { recursive: true });

    const firstRequest = async (cwd: string) => {
      const calls = openai.requests.length;
      const run = await review(cwd);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const requests = openai.requests.slice(calls);
      return { report: JSON.parse(run.stdout) as { headSha: string }, requests };
    };
    const fromRoot = await firstRequest(repo.root);
    const fromDeep = await firstRequest(join(repo.root, "src/app/deep"));
    expect(fromDeep.report.headSha).toBe(fromRoot.report.headSha);
    // The same prompt to the byte: every changed file, named from the root, and the root's
    // conventions (AGENTS.md, read from the base).
    expect(fromDeep.requests[0]?.messages).toEqual(fromRoot.requests[0]?.messages);
    const prompt = JSON.stringify(fromDeep.requests[0]?.messages);
    expect(prompt).toContain(APP_FILE);
    expect(prompt).toContain("docs/sessions.md");
    expect(prompt).toContain("never raise the TTL above an hour");
    // The reviewer's read_file of a root-relative path got the head's file.
    const toolResult = fromDeep.requests
      .flatMap((request) => request.messages)
      .find((message) => message.role === "tool");
    expect(String(toolResult?.content)).toContain("ttl = 7200");
  }, 30_000);
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

describe("gadfly review --demo", () => {
  it("prints the same markdown, byte for byte, every time", async () => {
    const runs = await Promise.all(
      [1, 2].map(() =>
        runGadfly(["review", "--demo", "--no-progress"], { cwd: sandbox.work, env: sandbox.env }),
      ),
    );
    expect(runs[0]?.code).toBe(0);
    expect(runs[0]?.stdout).toContain("<!-- gadfly-consensus -->");
    expect(runs[1]?.stdout).toBe(runs[0]?.stdout);
    // Replayed, so no model time: the footer's tokens and cost, not a duration.
    expect(runs[0]?.stdout).toMatch(/🧾 This round: [\d.]+k tokens in · [\d.]+k out · ≈ \$/);
    expect(runs[0]?.stdout).not.toContain("of model time");
  }, 30_000);
});
