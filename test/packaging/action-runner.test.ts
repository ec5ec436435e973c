import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import type { FakeReply } from "../fakes/model-script.js";
import { runProcess } from "../helpers/run-process.js";
import { type ActionRun, runCompositeAction } from "./run-composite-action.js";
import { scriptTokenReviewer, tokenReviewerConfig } from "./script-token-reviewer.js";

// action.yml run end to end the way a runner runs it, with no GitHub and no network but
// 127.0.0.1: its github-script steps against the fake GitHub, its bash steps for real (git
// fetch, cache key, install, the reviewer from the action's own directory against the fake
// Ollama, fail-on), actions/checkout, setup-node and the cache simulated (run-composite-action).
//
// No registry: `npm` is a stand-in that logs each call and, for `ci`, lays out what `npm ci`
// (its `prepare` building dist/) and `npm prune --omit=dev` leave behind: the lockfile's
// production packages, hard-linked from this checkout's node_modules, and dist/ compiled from
// the action's src/ (by esbuild, for speed). Any real npm or npx call fails: npm is offline
// with its registry on a closed port, and `npx` is a stand-in that fails loudly.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KEY = "ollama-action-key-21";
const OWNER = "Codertocat";
const REPO = "Hello-World";
const NUMBER = 2;
const BOT = "github-actions[bot]";

let root: string;
/** The action's files, pristine: each job gets its own copy, as each runner downloads it. */
let actionSource: string;
let cacheDirectory: string;
let markers: string;
let npmLog: string;
let jobEnv: Record<string, string>;
let remote: GitRepository;
let baseSha: string;
let headSha: string;
let ollama: FakeOllamaServer;
let attacker: FakeOllamaServer;
let github: FakeGitHub;
let jobCount = 0;

const webhookExamples = createRequire(import.meta.url)("@octokit/webhooks-examples") as {
  name: string;
  examples: Record<string, unknown>[];
}[];

function example(event: string, action: string): Record<string, unknown> {
  const found = webhookExamples
    .find((candidate) => candidate.name === event)
    ?.examples.find((candidate) => candidate.action === action);
  if (found === undefined) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found);
}

/** The `pull_request` payload GitHub sends for an opened PR, pointed at our commits. */
function pullRequestEvent(headRepository = `${OWNER}/${REPO}`): Record<string, unknown> {
  const event = example("pull_request", "opened");
  const pull = event.pull_request as {
    number: number;
    base: { ref: string; sha: string };
    head: { sha: string; repo: { full_name: string } };
  };
  expect(pull.number).toBe(NUMBER);
  pull.base.ref = "main";
  pull.base.sha = baseSha;
  pull.head.sha = headSha;
  pull.head.repo.full_name = headRepository;
  return event;
}

/**
 * The `issue_comment` payload. The package's examples are comments on an issue; on a pull
 * request GitHub adds `issue.pull_request`, as here.
 */
function commentEvent(association: string): Record<string, unknown> {
  const event = example("issue_comment", "created");
  const issue = event.issue as { number: number; pull_request?: unknown };
  issue.number = NUMBER;
  issue.pull_request = {
    url: `${github.apiUrl}/repos/${OWNER}/${REPO}/pulls/${NUMBER}`,
    html_url: `${github.url}/${OWNER}/${REPO}/pull/${NUMBER}`,
    diff_url: `${github.url}/${OWNER}/${REPO}/pull/${NUMBER}.diff`,
    patch_url: `${github.url}/${OWNER}/${REPO}/pull/${NUMBER}.patch`,
    merged_at: null,
  };
  const comment = event.comment as { body: string; author_association: string };
  comment.body = "@gadfly review";
  comment.author_association = association;
  return event;
}

async function runJob(
  eventName: string,
  event: object,
  inputs: Record<string, string>,
): Promise<ActionRun> {
  jobCount++;
  const jobDirectory = join(root, `job-${jobCount}`);
  const actionPath = join(jobDirectory, "_actions", "gadfly");
  await mkdir(dirname(actionPath), { recursive: true });
  const copied = await runProcess("cp", ["-a", actionSource, actionPath], {
    cwd: root,
    env: jobEnv,
  });
  if (copied.code !== 0) throw new Error(copied.stderr);
  await writeFile(npmLog, "");
  return runCompositeAction({
    actionPath,
    jobDirectory,
    gitRemote: remote.root,
    cacheDirectory,
    eventName,
    event,
    repository: `${OWNER}/${REPO}`,
    apiUrl: github.url,
    serverUrl: github.url,
    token: "ghs_job_token",
    inputs,
    env: jobEnv,
  });
}

const npmCalls = async (): Promise<string[]> =>
  (await readFile(npmLog, "utf8")).split("\n").filter((line) => line !== "");

function stepOutcomes(run: ActionRun): Record<string, string> {
  return Object.fromEntries(run.steps.map((step) => [step.name, step.outcome]));
}

/** A failure's story: every step that ran, with what it printed. */
function explain(run: ActionRun): string {
  return run.steps
    .filter((step) => step.outcome !== "skipped")
    .map((step) => `## ${step.name}: ${step.outcome}\n${step.stdout}\n${step.stderr}`)
    .join("\n");
}

/** This checkout's files (tracked, or new and not ignored), as the runner downloads the action at a ref. */
async function copyActionFiles(to: string): Promise<void> {
  const tracked = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: ROOT, encoding: "utf8" },
  )
    .split("\0")
    .filter(
      (path) => path !== "" && existsSync(join(ROOT, path)) && lstatSync(join(ROOT, path)).isFile(),
    );
  for (const path of tracked) {
    await mkdir(dirname(join(to, path)), { recursive: true });
    await copyFile(join(ROOT, path), join(to, path));
  }
}

/** What the stand-in `npm ci` leaves: production packages and a built dist/. */
async function prepareInstall(to: string): Promise<void> {
  const lock = JSON.parse(readFileSync(join(actionSource, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const production = Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith("node_modules/") && entry.dev !== true)
    .map(([path]) => path)
    .filter((path) => !path.slice("node_modules/".length).includes("node_modules/"))
    .filter((path) => existsSync(join(ROOT, path)));
  expect(production).toContain("node_modules/better-sqlite3");
  await mkdir(to, { recursive: true });
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const linked = await runProcess("cp", ["-al", "--parents", ...production, to], {
    cwd: ROOT,
    env,
  });
  if (linked.code !== 0) {
    const copied = await runProcess("cp", ["-a", "--parents", ...production, to], {
      cwd: ROOT,
      env,
    });
    if (copied.code !== 0) throw new Error(copied.stderr);
  }
  const sources = readdirSync(join(actionSource, "src"), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => join(actionSource, "src", path));
  await build({
    entryPoints: sources,
    outbase: join(actionSource, "src"),
    outdir: join(to, "dist"),
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "error",
  });
}

const NPM_STANDIN = `#!/bin/bash
# Stand-in for npm (no registry in tests): logs the call; \`ci\` lays out the prepared install.
printf '%s %s\\n' "$PWD" "$*" >> "$NPM_LOG"
case "$1" in
  ci)
    rm -rf node_modules dist
    cp -al "$PREPARED_INSTALL/node_modules" node_modules 2>/dev/null || cp -a "$PREPARED_INSTALL/node_modules" node_modules
    cp -a "$PREPARED_INSTALL/dist" dist ;;
  prune) ;;
  *) echo "npm stand-in: unexpected npm $*" >&2; exit 97 ;;
esac
`;

const NPX_STANDIN = `#!/bin/sh
echo "npx stand-in: npx $* (the action must run its own code, not fetch a package by name)" >&2
exit 97
`;

/** Files of the pull request that leave a marker if anything executes them. */
function hostileFiles(markerDirectory: string): Record<string, string> {
  const touch = (name: string) =>
    `node -e "require('fs').writeFileSync('${join(markerDirectory, name)}', '')"`;
  const js = (name: string) =>
    `require("fs").writeFileSync(${JSON.stringify(join(markerDirectory, name))}, "");\n`;
  return {
    "package.json": JSON.stringify({
      name: "pwn",
      version: "1.0.0",
      bin: { gadfly: "bin/gadfly.js" },
      scripts: Object.fromEntries(
        ["preinstall", "install", "postinstall", "prepare", "prepack"].map((script) => [
          script,
          touch(`package-json-${script}`),
        ]),
      ),
    }),
    ".npmrc": "script-shell=./evil.sh\nnode-options=--require ./evil.cjs\n",
    "evil.sh": `#!/bin/sh\n${touch("evil-sh")}\n`,
    "evil.cjs": js("evil-cjs"),
    "bin/gadfly.js": js("bin-gadfly"),
    "node_modules/yaml/package.json": JSON.stringify({ name: "yaml", main: "index.js" }),
    "node_modules/yaml/index.js": js("node-modules-yaml"),
    // Read from the base branch, never from here: this would send the key elsewhere.
    "gadfly.config.yml": tokenReviewerConfig(attacker.url),
  };
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "gadfly-action-runner-")));
  actionSource = join(root, "action-source");
  cacheDirectory = join(root, "cache");
  markers = join(root, "markers");
  npmLog = join(root, "npm.log");
  const standins = join(root, "standins");
  const home = join(root, "home");
  await Promise.all(
    [actionSource, cacheDirectory, markers, standins, home].map((path) =>
      mkdir(path, { recursive: true }),
    ),
  );
  await copyActionFiles(actionSource);
  await prepareInstall(join(root, "prepared-install"));
  await writeFile(join(standins, "npm"), NPM_STANDIN);
  await writeFile(join(standins, "npx"), NPX_STANDIN);
  await Promise.all([chmod(join(standins, "npm"), 0o755), chmod(join(standins, "npx"), 0o755)]);

  ollama = await startFakeOllamaServer({ apiKey: KEY });
  scriptTokenReviewer(ollama);
  attacker = await startFakeOllamaServer({});
  attacker.script("glm-test", (): FakeReply => ({ text: "VERDICT: No material issues found" }));

  // The repository on "GitHub": main, the pull request's head under refs/pull/N/head (and as
  // a branch of the same repository, as for a same-repository pull request).
  remote = await createGitRepository();
  await remote.write("gadfly.config.yml", tokenReviewerConfig(ollama.url));
  await remote.write("src/token.ts", "export const token = () => '';\n");
  baseSha = remote.commit("base");
  remote.git("checkout", "--quiet", "-b", "feature");
  await remote.write("src/token.ts", "export const token = () =>\n  Math.random().toString(16);\n");
  for (const [path, content] of Object.entries(hostileFiles(markers))) {
    await remote.write(path, content, {
      executable: path.endsWith(".sh") || path.startsWith("bin/"),
    });
  }
  headSha = remote.commit("pull request");
  remote.git("checkout", "--quiet", "main");
  remote.git("update-ref", `refs/pull/${NUMBER}/head`, headSha);

  github = await startFakeGitHub({ appSlug: "github-actions" });
  github.addRepo({ owner: OWNER, name: REPO });
  const pull = github.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: NUMBER,
    files: [{ path: "src/token.ts", base: "export const token = () => '';\n", head: "x\n" }],
  });
  github.updatePullRequest(pull, { baseSha, headSha });

  jobEnv = {
    PATH: `${standins}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
    GIT_CEILING_DIRECTORIES: root,
    // No registry: a real npm call would fail at once instead of reaching the network.
    npm_config_offline: "true",
    npm_config_registry: "http://127.0.0.1:9/",
    NPM_LOG: npmLog,
    PREPARED_INSTALL: join(root, "prepared-install"),
  };
}, 60_000);

afterAll(async () => {
  await Promise.all([ollama?.close(), attacker?.close(), github?.close(), remote?.remove()]);
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe("action.yml, run as a runner runs it", () => {
  it("has markers that work: the pull request's files leave one when executed", async () => {
    const bin = join(root, "pull-request-bin.cjs");
    await writeFile(bin, remote.git("show", `${headSha}:bin/gadfly.js`));
    execFileSync(process.execPath, [bin]);
    const manifest = JSON.parse(remote.git("show", `${headSha}:package.json`)) as {
      scripts: Record<string, string>;
    };
    execFileSync("sh", ["-c", manifest.scripts.prepare ?? "false"]);
    expect(readdirSync(markers).sort()).toEqual(["bin-gadfly", "package-json-prepare"]);
    await Promise.all(readdirSync(markers).map((name) => rm(join(markers, name))));
  });

  it("on a pull request: installs itself (cache miss), reviews, comments, summarises", async () => {
    const before = ollama.callCount("glm-test");
    const run = await runJob("pull_request", pullRequestEvent(), { "ollama-api-key": KEY });
    expect(run.conclusion, explain(run)).toBe("success");
    expect(stepOutcomes(run)).toEqual({
      "Find the pull request": "success",
      "Check out the base branch": "success",
      "Fetch the pull request's commits (as data, never checked out)": "success",
      "Set up Node": "success",
      "Compute the install's cache key": "success",
      "Restore the reviewer's install": "success",
      "Install the reviewer": "success",
      "Save the reviewer's install": "success",
      Review: "success",
      "Post or update the consensus comment": "success",
      "Apply fail-on": "skipped",
    });
    // Installed in the action's own directory, from its lockfile: never a package by name.
    expect(await npmCalls()).toEqual([
      `${run.actionPath} ci --include=dev --no-audit --no-fund`,
      `${run.actionPath} prune --omit=dev --no-audit --no-fund`,
    ]);
    const key = run.steps.find((step) => step.id === "install-key")?.outputs.key ?? "";
    expect(key).toMatch(
      new RegExp(`^gadfly-action-Linux-X64-node${process.version}-[0-9a-f]{32}$`),
    );
    expect(readdirSync(cacheDirectory)).toEqual([encodeURIComponent(key)]);

    expect(run.outputs).toEqual({
      verdict: "Significant issues",
      report: join(run.runnerTemp, "gadfly", "consensus.md"),
      skipped: "false",
    });
    // One review: a tool turn and the answer, with the key; the tool read the PR's commit.
    expect(ollama.callCount("glm-test") - before).toBe(2);
    expect(ollama.unauthorized).toBe(0);
    const toolResult = ollama.requests.at(-1)?.messages.find((message) => message.role === "tool");
    expect(String(toolResult?.content)).toContain("Math.random()");

    const comments = github.comments({ owner: OWNER, repo: REPO, number: NUMBER });
    expect(comments.map((comment) => comment.user.login)).toEqual([BOT]);
    const body = comments[0]?.body ?? "";
    expect(body.split("\n", 1)[0]).toBe("<!-- gadfly-consensus -->");
    expect(body).toContain("Token from Math.random");
    expect(run.summary).toContain("<!-- gadfly-consensus -->");
    expect(run.summary).toContain("Token from Math.random");
    expect(github.validationErrors).toEqual([]);

    // The workspace is the base, with the PR's commits only as objects.
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: run.workspace, env: jobEnv, encoding: "utf8" }).trim();
    expect(git("rev-parse", "HEAD")).toBe(baseSha);
    expect(git("rev-parse", "refs/gadfly/pull-head")).toBe(headSha);
    expect(existsSync(join(run.workspace, ".npmrc"))).toBe(false);
    expect(git("status", "--porcelain")).toBe("");
  }, 60_000);

  it("on a maintainer's comment: reuses the cached install, edits the comment in place, applies fail-on", async () => {
    const [first] = github.comments({ owner: OWNER, repo: REPO, number: NUMBER });
    const run = await runJob("issue_comment", commentEvent("MEMBER"), {
      "ollama-api-key": KEY,
      "fail-on": "high",
    });
    expect(run.conclusion, explain(run)).toBe("failure");
    expect(stepOutcomes(run)).toMatchObject({
      "Restore the reviewer's install": "success",
      "Install the reviewer": "skipped",
      "Save the reviewer's install": "skipped",
      Review: "success",
      "Post or update the consensus comment": "success",
      "Apply fail-on": "failure",
    });
    expect(await npmCalls()).toEqual([]);
    // The review ran from what the cache restored into this job's fresh copy of the action.
    expect(existsSync(join(run.actionPath, "dist", "cli", "main.js"))).toBe(true);
    expect(existsSync(join(run.actionPath, "node_modules", "better-sqlite3"))).toBe(true);
    // The pull request is read from the API on a comment (the payload has no base SHA).
    expect(
      github.requests({ method: "GET", path: `/repos/${OWNER}/${REPO}/pulls/${NUMBER}` }),
    ).toHaveLength(1);
    expect(run.outputs.verdict).toBe("Significant issues");
    const comments = github.comments({ owner: OWNER, repo: REPO, number: NUMBER });
    expect(comments.map((comment) => comment.id)).toEqual([first?.id]);
    expect(github.requests({ method: "PATCH", path: "/repos/*/*/issues/comments/*" })).toHaveLength(
      1,
    );
    expect(run.annotations).toContainEqual({
      level: "error",
      message: "Gadfly found a finding of severity high or higher (fail-on: high)",
    });
  }, 60_000);

  it("skips a commenter who may not run a review, and a fork's pull request, before anything runs", async () => {
    const calls = ollama.callCount("glm-test");
    const gets = github.requests({
      method: "GET",
      path: `/repos/${OWNER}/${REPO}/pulls/${NUMBER}`,
    }).length;
    const outsider = await runJob("issue_comment", commentEvent("NONE"), { "ollama-api-key": KEY });
    const fork = await runJob("pull_request", pullRequestEvent("mallory/Hello-World"), {
      "ollama-api-key": KEY,
    });
    for (const run of [outsider, fork]) {
      expect(run.conclusion, explain(run)).toBe("success");
      expect(run.outputs).toEqual({ verdict: "", report: "", skipped: "true" });
      expect(
        run.steps.filter((step) => step.outcome !== "skipped").map((step) => step.name),
      ).toEqual(["Find the pull request"]);
      expect(readdirSync(run.workspace)).toEqual([]);
    }
    expect(outsider.annotations.map((annotation) => annotation.message)).toEqual([
      "Gadfly: no review: the commenter's association (NONE) may not run a review",
    ]);
    expect(fork.annotations.map((annotation) => annotation.message).join()).toMatch(/fork/);
    expect(ollama.callCount("glm-test")).toBe(calls);
    expect(
      github.requests({ method: "GET", path: `/repos/${OWNER}/${REPO}/pulls/${NUMBER}` }),
    ).toHaveLength(gets);
    expect(await npmCalls()).toEqual([]);
  }, 60_000);

  it("never executed a file of the pull request, nor read its config", () => {
    expect(jobCount).toBeGreaterThan(0);
    expect(readdirSync(markers)).toEqual([]);
    expect(attacker.requests).toEqual([]);
  });
});
