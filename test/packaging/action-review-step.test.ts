import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { actionDefinition } from "./action-definition.js";
import { scriptTokenReviewer, tokenReviewerConfig } from "./script-token-reviewer.js";

// The action's Review step alone, run by bash as a runner would, with this checkout as the
// action's directory and its CLI run from source (tsx): checks the script itself (arguments,
// keys, outputs, fail-on). action-runner.test.ts runs the whole action.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const KEY = "ollama-action-key-77";
const action = actionDefinition(ROOT);
const reviewStep = action.runs.steps.find((step) => step.name === "Review");

let sandbox: string;
let repository: GitRepository;
let ollama: FakeOllamaServer;

beforeAll(async () => {
  sandbox = await mkdtemp(join(tmpdir(), "gadfly-action-step-"));

  ollama = await startFakeOllamaServer({ apiKey: KEY });
  scriptTokenReviewer(ollama);

  // The checkout the action makes: the base branch in the working tree, the pull request's
  // commits only under refs/gadfly/pull-head, origin/main as fetched.
  repository = await createGitRepository();
  await repository.write("gadfly.config.yml", tokenReviewerConfig(ollama.url));
  await repository.write("src/token.ts", "export const token = () => '';\n");
  repository.commit("base");
  repository.git("checkout", "--quiet", "-b", "feature");
  await repository.write(
    "src/token.ts",
    "export const token = () =>\n  Math.random().toString(16);\n",
  );
  repository.commit("pull request");
  repository.git("checkout", "--quiet", "main");
  repository.git("update-ref", "refs/remotes/origin/main", "main");
  repository.git("update-ref", "refs/gadfly/pull-head", "feature");
  repository.git("branch", "--quiet", "-D", "feature");
});

afterAll(async () => {
  await Promise.all([
    ollama?.close(),
    repository?.remove(),
    rm(sandbox, { recursive: true, force: true }),
  ]);
});

/** `${{ inputs.x }}` and `${{ steps.target.outputs.y }}`, as the runner expands them in `env:`. */
function expand(value: string, inputs: Record<string, string>): string {
  const defaults = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? ""]),
  );
  const scope: Record<string, string> = {
    ...Object.fromEntries(
      Object.entries({ ...defaults, ...inputs }).map(([name, input]) => [`inputs.${name}`, input]),
    ),
    "steps.target.outputs.base-ref": "main",
  };
  return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    const found = scope[expression];
    if (found === undefined) throw new Error(`unexpected expression ${expression}`);
    return found;
  });
}

interface StepRun {
  code: number | null;
  stderr: string;
  outputs: Record<string, string>;
  runnerTemp: string;
}

async function runReviewStep(
  inputs: Record<string, string>,
  jobEnv: Record<string, string> = {},
): Promise<StepRun> {
  if (reviewStep?.run === undefined) throw new Error("no Review step");
  const run = await mkdtemp(join(sandbox, "run-"));
  const runnerTemp = join(run, "temp");
  await mkdir(runnerTemp);
  const files = {
    script: join(run, "step.sh"),
    output: join(run, "output"),
    summary: join(run, "summary"),
  };
  await writeFile(files.script, reviewStep.run);
  await Promise.all([writeFile(files.output, ""), writeFile(files.summary, "")]);
  const stepEnv = Object.fromEntries(
    Object.entries(reviewStep.env ?? {}).map(([name, value]) => [name, expand(value, inputs)]),
  );
  const env = {
    ...repository.env,
    PATH: process.env.PATH ?? "",
    GITHUB_ACTION_PATH: ROOT,
    GADFLY_FROM_SOURCE: "1",
    NODE_OPTIONS: `--import=${TSX_LOADER}`,
    CI: "true",
    RUNNER_TEMP: runnerTemp,
    GITHUB_WORKSPACE: repository.root,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    ...jobEnv,
    ...stepEnv,
  };
  const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", files.script], {
      cwd: repository.root,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
  const outputs = Object.fromEntries(
    (await readFile(files.output, "utf8"))
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  return { ...result, outputs, runnerTemp };
}

describe("the action's Review step", () => {
  it("reviews the pull request's commits once, then derives the JSON from the recordings", async () => {
    const before = ollama.callCount("glm-test");
    const step = await runReviewStep({ "ollama-api-key": KEY });
    expect(step.stderr).not.toMatch(/gadfly: /);
    expect(step.code).toBe(0);
    // One review (a tool turn and the answer): the JSON run replayed it without a model call.
    expect(ollama.callCount("glm-test") - before).toBe(2);
    expect(ollama.unauthorized).toBe(0);
    // The tool read the pull request's commit, not the base checked out in the working tree.
    const toolResult = ollama.requests.at(-1)?.messages.find((message) => message.role === "tool");
    expect(String(toolResult?.content)).toContain("Math.random()");
    expect(step.outputs).toEqual({
      "threshold-reached": "false",
      verdict: "Significant issues",
      report: join(step.runnerTemp, "gadfly", "consensus.md"),
    });
    const markdown = await readFile(step.outputs.report ?? "", "utf8");
    expect(markdown.startsWith("<!-- gadfly-consensus -->")).toBe(true);
    expect(markdown).toContain("Token from Math.random");
  });

  it("keeps a key set in the job's env when the key input is empty, and reports fail-on", async () => {
    const step = await runReviewStep({ "fail-on": "high" }, { OLLAMA_API_KEY: KEY });
    expect(step.stderr).not.toMatch(/gadfly: /);
    expect(step.code).toBe(0);
    expect(step.outputs["threshold-reached"]).toBe("true");
  });

  it("fails with the CLI's one-line error when no key is given at all", async () => {
    const step = await runReviewStep({});
    expect(step.code).toBe(2);
    expect(step.stderr).toMatch(/^gadfly: .*OLLAMA_API_KEY is not set/m);
    expect(step.outputs).toEqual({});
  });
});
