import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActionStep, actionDefinition } from "./action-definition.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const action = actionDefinition(ROOT);

function step(name: string): ActionStep {
  const found = action.runs.steps.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no step "${name}"`);
  return found;
}

type Script = (...parameters: unknown[]) => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...parameters: string[]
) => Script;

/** Runs an actions/github-script step's script as github-script does, against fakes. */
function githubScript(stepName: string): Script {
  const script = step(stepName).with?.script;
  if (typeof script !== "string") throw new Error(`${stepName} has no script`);
  return new AsyncFunction("require", "github", "context", "core", "process", script);
}

interface CoreRecord {
  outputs: Record<string, string>;
  notices: string[];
  failures: string[];
}

function fakeCore() {
  const record: CoreRecord = { outputs: {}, notices: [], failures: [] };
  return {
    record,
    core: {
      setOutput: (name: string, value: string) => {
        record.outputs[name] = value;
      },
      notice: (message: string) => record.notices.push(message),
      setFailed: (message: string) => record.failures.push(message),
    },
  };
}

const REPO = { owner: "acme", repo: "shop" };

describe("action.yml", () => {
  it("is a composite action with the documented inputs and outputs", () => {
    expect(action.name).toBe("Gadfly review");
    expect(action.description.length).toBeGreaterThan(20);
    expect(action.runs.using).toBe("composite");
    for (const input of ["config", "fail-on", "github-token", "openai-api-key", "ollama-api-key"]) {
      expect(action.inputs[input]?.description, input).toBeTruthy();
      expect(action.inputs[input]?.required ?? false, input).toBe(false);
    }
    expect(action.inputs.config?.default).toBe("gadfly.config.yml");
    expect(Object.keys(action.outputs).sort()).toEqual(["report", "skipped", "verdict"]);
    for (const run of action.runs.steps.filter((candidate) => candidate.run !== undefined)) {
      // Composite run steps must name their shell.
      expect(run.shell, run.name).toBe("bash");
    }
  });

  it("runs the CLI it ships, installed in its own directory from its lockfile, never a package by name", () => {
    // No published package to pin: a version input would select nothing.
    expect(action.inputs.version).toBeUndefined();
    for (const candidate of action.runs.steps) {
      expect({ step: candidate.name, npx: /\bnpx\b/.test(candidate.run ?? "") }).toEqual({
        step: candidate.name,
        npx: false,
      });
    }
    const install = step("Install the reviewer").run ?? "";
    expect(install).toMatch(
      /cd "\$GITHUB_ACTION_PATH"\n\s*npm ci --include=dev .*\n\s*npm prune --omit=dev/,
    );
    const review = step("Review").run ?? "";
    expect(review).toContain('gadfly=(node "$GITHUB_ACTION_PATH/bin/gadfly.js")');
    expect(review).toMatch(/cd "\$RUNNER_TEMP"\n\s*"\$\{gadfly\[@\]\}" review/);
    expect(review).toContain('--base "origin/$BASE_REF"');
    expect(review).toMatch(/--format markdown --output "\$out\/consensus\.md"/);
    const checkout = action.runs.steps.find((candidate) =>
      candidate.uses?.startsWith("actions/checkout@"),
    );
    expect(checkout?.with?.["fetch-depth"]).toBe(0);
    // The base branch is checked out, never the pull request's head.
    expect(checkout?.with?.ref).toMatch(/^\$\{\{ steps\.target\.outputs\.base-sha \}\}$/);
  });

  it("keys the cached dist/ on what the build reads: the install builds it through prepare", () => {
    // The install step relies on `npm ci` running prepare to compile src/ (dist/ is not
    // committed); the key step hashes the files that build reads. If either changes, both must.
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.prepare).toBe("tsc -p tsconfig.build.json");
    const build = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")) as {
      extends: string;
      include: string[];
    };
    expect(build).toMatchObject({ extends: "./tsconfig.json", include: ["src"] });
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain("dist/");
    const key = step("Compute the install's cache key").run ?? "";
    expect(key).toContain(
      'const files = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];',
    );
    expect(key).toContain('readdirSync("src", { recursive: true, withFileTypes: true })');
    expect(key).toMatch(
      /key=gadfly-action-\$\{RUNNER_OS\}-\$\{RUNNER_ARCH\}-node\$\(node --version\)-/,
    );
  });

  it("caches node_modules and dist/ under one key, restored before the install and saved after it", () => {
    const restore = step("Restore the reviewer's install");
    const save = step("Save the reviewer's install");
    expect(restore.uses).toBe("actions/cache/restore@v4");
    expect(save.uses).toBe("actions/cache/save@v4");
    for (const cache of [restore, save]) {
      expect(cache.with?.path).toMatch(
        /^\$\{\{ steps\.install-key\.outputs\.directory \}\}\/node_modules\n\$\{\{ steps\.install-key\.outputs\.directory \}\}\/dist\n$/,
      );
      expect(cache.with?.key).toMatch(/^\$\{\{ steps\.install-key\.outputs\.key \}\}$/);
    }
    const names = action.runs.steps.map((candidate) => candidate.name);
    expect(names.indexOf("Restore the reviewer's install")).toBeLessThan(
      names.indexOf("Install the reviewer"),
    );
    expect(names.indexOf("Install the reviewer")).toBeLessThan(
      names.indexOf("Save the reviewer's install"),
    );
    expect(names.indexOf("Save the reviewer's install")).toBeLessThan(names.indexOf("Review"));
  });

  it("never expands an expression inside a script: every value reaches it through env", () => {
    for (const candidate of action.runs.steps) {
      const code =
        candidate.run ?? (typeof candidate.with?.script === "string" ? candidate.with.script : "");
      expect({ step: candidate.name, expression: /\$\{\{/.test(code) }).toEqual({
        step: candidate.name,
        expression: false,
      });
    }
  });
});

describe("the step that finds the pull request", () => {
  const find = githubScript("Find the pull request");
  const pull = {
    number: 42,
    base: { ref: "main", sha: "b".repeat(40) },
    head: { sha: "h".repeat(40), repo: { full_name: "acme/shop" } },
  };
  const process = { env: { ALLOWED_ASSOCIATIONS: "OWNER,MEMBER,COLLABORATOR" } };
  const github = (fetched: unknown[]) => ({
    rest: {
      pulls: {
        get: async (parameters: unknown) => {
          fetched.push(parameters);
          return { data: pull };
        },
      },
    },
  });

  it("reviews a pull request from a branch of the repository", async () => {
    const { core, record } = fakeCore();
    const context = { eventName: "pull_request", repo: REPO, payload: { pull_request: pull } };
    await find(undefined, github([]), context, core, process);
    expect(record.outputs).toEqual({
      skip: "false",
      number: "42",
      "base-ref": "main",
      "base-sha": pull.base.sha,
    });
  });

  it("skips a fork's pull request, which gets no secrets, with a notice", async () => {
    const { core, record } = fakeCore();
    const fork = { ...pull, head: { ...pull.head, repo: { full_name: "mallory/shop" } } };
    const context = { eventName: "pull_request", repo: REPO, payload: { pull_request: fork } };
    await find(undefined, github([]), context, core, process);
    expect(record.outputs).toEqual({ skip: "true" });
    expect(record.notices.join()).toMatch(/fork/);
    expect(record.failures).toEqual([]);
  });

  it("on a comment, runs only for an allowed association, and reads the pull request from the API", async () => {
    const comment = (association: string) => ({
      eventName: "issue_comment",
      repo: REPO,
      payload: {
        issue: { number: 42, pull_request: { url: "…" } },
        comment: { author_association: association, body: "@gadfly review" },
      },
    });
    const outsider = fakeCore();
    const outsiderFetched: unknown[] = [];
    await find(undefined, github(outsiderFetched), comment("NONE"), outsider.core, process);
    expect(outsider.record.outputs).toEqual({ skip: "true" });
    expect(outsiderFetched).toEqual([]);

    const maintainer = fakeCore();
    const fetched: unknown[] = [];
    await find(undefined, github(fetched), comment("MEMBER"), maintainer.core, process);
    expect(fetched).toEqual([{ ...REPO, pull_number: 42 }]);
    expect(maintainer.record.outputs.skip).toBe("false");
    expect(maintainer.record.outputs["base-sha"]).toBe(pull.base.sha);
  });

  it("fails on any other event", async () => {
    const { core, record } = fakeCore();
    await find(
      undefined,
      github([]),
      { eventName: "pull_request_target", repo: REPO, payload: {} },
      core,
      process,
    );
    expect(record.failures).toEqual([
      "Gadfly runs on pull_request or issue_comment, not pull_request_target",
    ]);
  });
});

describe("the step that posts the consensus comment", () => {
  const post = githubScript("Post or update the consensus comment");
  const BOT = "github-actions[bot]";
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "gadfly-action-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function postReport(
    markdown: string,
    existing: { id: number; user: { login: string }; body: string }[],
  ) {
    const report = join(directory, "consensus.md");
    await writeFile(report, markdown);
    const calls: [string, Record<string, unknown>][] = [];
    const listComments = () => undefined;
    const github = {
      paginate: async (method: unknown, parameters: Record<string, unknown>) => {
        expect(method).toBe(listComments);
        expect(parameters).toMatchObject({ ...REPO, issue_number: 7 });
        return existing;
      },
      rest: {
        issues: {
          listComments,
          createComment: async (parameters: Record<string, unknown>) =>
            calls.push(["create", parameters]),
          updateComment: async (parameters: Record<string, unknown>) =>
            calls.push(["update", parameters]),
        },
      },
    };
    const process = { env: { REPORT: report, PULL_NUMBER: "7", COMMENT_AUTHOR: BOT } };
    await post(createRequire(import.meta.url), github, { repo: REPO }, fakeCore().core, process);
    return calls;
  }

  const consensus = "<!-- gadfly-consensus -->\n## 🪰 Gadfly review — consensus across 2 models\n";

  it("creates the comment the first time", async () => {
    expect(await postReport(consensus, [])).toEqual([
      ["create", { ...REPO, issue_number: 7, body: consensus.trim() }],
    ]);
  });

  it("edits our own comment in place, never one where someone else planted the marker", async () => {
    const calls = await postReport(consensus, [
      { id: 1, user: { login: "mallory" }, body: "<!-- gadfly-consensus -->\nfake" },
      { id: 2, user: { login: BOT }, body: "<!-- gadfly-consensus -->\nold round" },
    ]);
    expect(calls).toEqual([["update", { ...REPO, comment_id: 2, body: consensus.trim() }]]);
  });

  it("posts per-model detail that did not fit as one comment per model", async () => {
    const overflow = "<!-- gadfly-model:gpt-5.1 -->\n### gpt-5.1 detail\n";
    const calls = await postReport(`${consensus}\n\n${overflow}`, [
      { id: 3, user: { login: BOT }, body: overflow },
    ]);
    expect(calls).toEqual([
      ["create", { ...REPO, issue_number: 7, body: consensus.trim() }],
      ["update", { ...REPO, comment_id: 3, body: overflow.trim() }],
    ]);
  });
});
