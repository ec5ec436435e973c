import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { type GadflyRun, runGadfly } from "./run-gadfly.js";

// Nothing listens on port 9 (discard): a config error must stop the CLI before any call.
const CONFIG = `providers:
  - name: local-ollama
    type: ollama
    host: http://127.0.0.1:9
  - name: openai
    type: openai
    baseURL: http://127.0.0.1:9/v1
    apiKeyEnv: E2E_MISSING_OPENAI_KEY
models:
  - { id: "local-model", provider: local-ollama }
  - { id: "remote-model", provider: openai }
`;

let sandbox: Sandbox;
let repository: GitRepository;
let configPath: string;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  await repository.write("a.txt", "one\n");
  repository.commit("first");
  configPath = join(sandbox.root, "gadfly.config.yml");
  await writeFile(configPath, CONFIG);
});

afterAll(async () => {
  await Promise.all([repository?.remove(), sandbox?.remove()]);
});

/** A user error: one line on stderr, `gadfly: …`, no stack trace, nothing on stdout, exit 2. */
function expectUserError(run: GadflyRun, mentions: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  const lines = run.stderr.split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe("");
  expect(lines[0]).toMatch(/^gadfly: /);
  expect(lines[0]).toMatch(mentions);
  expect(run.stderr).not.toMatch(/\bat .+:\d+:\d+|internal error/);
}

describe("gadfly's user errors", () => {
  it("rejects an unknown flag", async () => {
    const run = await runGadfly(["review", "--frobnicate"], {
      cwd: sandbox.work,
      env: sandbox.env,
    });
    expectUserError(run, /unknown option --frobnicate/);
  });

  it("rejects a bad value and conflicting flags", async () => {
    expectUserError(
      await runGadfly(["review", "--format", "yaml"], { cwd: sandbox.work, env: sandbox.env }),
      /--format must be one of/,
    );
    expectUserError(
      await runGadfly(["review", "--demo", "--replay", "x"], {
        cwd: sandbox.work,
        env: sandbox.env,
      }),
      /--demo cannot be used with --replay/,
    );
  });

  it("rejects a directory that is not a git repository", async () => {
    const run = await runGadfly(["review", "--config", configPath, "--no-progress"], {
      cwd: sandbox.work,
      env: { ...sandbox.env, E2E_MISSING_OPENAI_KEY: "set" },
    });
    expectUserError(run, /not a git repository/);
  });

  it("rejects an unknown ref", async () => {
    const run = await runGadfly(
      ["review", "--config", configPath, "--base", "no-such-branch", "--no-progress"],
      { cwd: repository.root, env: { ...sandbox.env, E2E_MISSING_OPENAI_KEY: "set" } },
    );
    expectUserError(run, /unknown ref: no-such-branch/);
  });

  it("names the missing API key variable and the field that asks for it", async () => {
    const run = await runGadfly(["review", "--config", configPath, "--no-progress"], {
      cwd: repository.root,
      env: sandbox.env,
    });
    expectUserError(run, /providers\[1\]\.apiKeyEnv: E2E_MISSING_OPENAI_KEY is not set/);
    // Set but blank counts as missing too.
    const blank = await runGadfly(["review", "--config", configPath, "--no-progress"], {
      cwd: repository.root,
      env: { ...sandbox.env, E2E_MISSING_OPENAI_KEY: " " },
    });
    expectUserError(blank, /E2E_MISSING_OPENAI_KEY is not set/);
  });

  it("rejects a missing config file", async () => {
    const run = await runGadfly(["review", "--config", "nowhere.yml", "--no-progress"], {
      cwd: repository.root,
      env: sandbox.env,
    });
    expectUserError(run, /nowhere\.yml: file not found/);
  });

  it("rejects --demo with --config, and a replay directory that does not exist", async () => {
    expectUserError(
      await runGadfly(["review", "--demo", "--config", configPath], {
        cwd: sandbox.work,
        env: sandbox.env,
      }),
      /--demo cannot be used with --config/,
    );
    expectUserError(
      await runGadfly(
        ["review", "--config", configPath, "--replay", "no-such-dir", "--no-progress"],
        {
          cwd: repository.root,
          env: sandbox.env,
        },
      ),
      /--replay: no such directory: .*no-such-dir/,
    );
  });

  it("never reports a review that no model completed as clean: one line, exit 3", async () => {
    await repository.write("a.txt", "two\n");
    const run = await runGadfly(
      [
        "review",
        "--config",
        configPath,
        "--models",
        "local-model",
        "--lenses",
        "security",
        "--format",
        "json",
        "--no-progress",
      ],
      { cwd: repository.root, env: sandbox.env },
    );
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^gadfly: no model completed the review \(.+\)\n$/);
  }, 30_000);

  it("redacts the environment's secrets from an internal error", async () => {
    // An output path that is a directory named after the secret: the EISDIR message quotes it.
    const secret = "cli-webhook-secret-4d1f9";
    const token = `ghp_${"A1b2C3d4".repeat(5)}`;
    const output = join(sandbox.root, `out-${secret}-${token}`);
    await mkdir(output, { recursive: true });
    const run = await runGadfly(
      ["review", "--demo", "--no-progress", "--format", "json", "--output", output],
      { cwd: sandbox.work, env: { ...sandbox.env, WEBHOOK_SECRET: secret } },
    );
    expect(run.code).toBe(70);
    expect(run.stderr).toMatch(/^gadfly: internal error: EISDIR/);
    expect(run.stderr).toContain("out-");
    expect(run.stderr).not.toContain(secret);
    expect(run.stderr).not.toContain(token);
  }, 30_000);

  it("--help prints the usage and exits 0", async () => {
    const run = await runGadfly(["--help"], { cwd: sandbox.work, env: sandbox.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Usage: gadfly <command> \[options\]\n/);
    expect(run.stdout).toMatch(/^ {2}review +review a local git change/m);
  });
});
