import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";
import { type ProcessResult, runProcess } from "../helpers/run-process.js";
import type { ActionDefinition, ActionStep } from "./action-definition.js";
import {
  type ExpressionContext,
  type ExpressionValue,
  evaluateExpression,
  stringify,
  truthy,
} from "./evaluate-expression.js";
import { readFileCommands } from "./read-file-commands.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const GITHUB_SCRIPT_HOST = join(ROOT, "test/packaging/github-script-host.ts");

/** What a runner has before the action's first step. */
export interface RunnerSetup {
  /** The action's own files (`github.action_path`): what the runner downloads for `uses:`. */
  actionPath: string;
  /** An empty directory for this job: the workspace, RUNNER_TEMP and the runner's files go in it. */
  jobDirectory: string;
  /** Where the simulated actions/checkout fetches from, instead of GITHUB_SERVER_URL/owner/repo. */
  gitRemote: string;
  /** The simulated actions/cache storage, shared between jobs. */
  cacheDirectory: string;
  eventName: string;
  event: object;
  /** owner/name */
  repository: string;
  apiUrl: string;
  serverUrl: string;
  token: string;
  /** The `with:` of the workflow's step. */
  inputs: Record<string, string>;
  /** The job's environment (PATH, HOME, …); the GITHUB_* and RUNNER_* variables are added. */
  env: Record<string, string>;
}

export interface StepRecord {
  name: string;
  id: string | undefined;
  outcome: "success" | "failure" | "skipped";
  outputs: Record<string, string>;
  stdout: string;
  stderr: string;
  milliseconds: number;
}

export interface ActionRun {
  conclusion: "success" | "failure";
  steps: StepRecord[];
  /** The action's outputs, as the calling workflow would read them. */
  outputs: Record<string, string>;
  annotations: { level: string; message: string }[];
  summary: string;
  workspace: string;
  runnerTemp: string;
  actionPath: string;
}

const STATUS_FUNCTION = /\b(success|failure|always|cancelled)\s*\(/;

function stripBraces(condition: string): string {
  const match = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(condition);
  return match?.[1] ?? condition;
}

/** `${{ … }}` inside a string, as the runner expands `env:`, `with:` and output values. */
function interpolate(value: string, context: ExpressionContext): string {
  return value.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) =>
    stringify(evaluateExpression(expression, context)),
  );
}

function annotationsOf(stdout: string): { level: string; message: string }[] {
  const found: { level: string; message: string }[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^::(error|warning|notice)(?: [^:]*)?::(.*)$/.exec(line);
    if (match === null) continue;
    const message = (match[2] ?? "")
      .replace(/%0A/g, "\n")
      .replace(/%0D/g, "\r")
      .replace(/%25/g, "%");
    found.push({ level: match[1] ?? "", message });
  }
  return found;
}

function cacheEntry(cacheDirectory: string, key: string): string {
  return join(cacheDirectory, encodeURIComponent(key));
}

/** Copies a tree, as hard links when the file system allows it (fast; nothing writes into it). */
async function copyTree(from: string, to: string, env: Record<string, string>): Promise<void> {
  await rm(to, { recursive: true, force: true });
  const linked = await runProcess("cp", ["-al", from, to], { cwd: "/", env });
  if (linked.code === 0) return;
  await rm(to, { recursive: true, force: true });
  const copied = await runProcess("cp", ["-a", from, to], { cwd: "/", env });
  if (copied.code !== 0) throw new Error(`cp ${from} ${to}: ${copied.stderr}`);
}

const pathsOf = (value: string | undefined): string[] =>
  (value ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

interface UsesResult {
  result: ProcessResult;
  outputs: Record<string, string>;
}

type StepEnvironment = {
  env: Record<string, string>;
  with: Record<string, string>;
  setup: RunnerSetup;
  workspace: string;
};

/** The actions the composite uses, simulated; any other `uses:` throws. */
async function simulateUses(uses: string, step: StepEnvironment): Promise<UsesResult> {
  const [name] = uses.split("@");
  const ok = (outputs: Record<string, string> = {}, stdout = ""): UsesResult => ({
    result: { code: 0, stdout, stderr: "" },
    outputs,
  });
  const known = (keys: string[]): void => {
    const unknown = Object.keys(step.with).filter((key) => !keys.includes(key));
    if (unknown.length > 0) throw new Error(`${uses}: unsimulated input(s) ${unknown.join(", ")}`);
  };

  if (name === "actions/github-script") {
    known(["script", "github-token", "result-encoding"]);
    const inputs = Object.fromEntries(
      Object.entries({ "github-token": step.setup.token, ...step.with }).map(([key, value]) => [
        `INPUT_${key.toUpperCase()}`,
        value,
      ]),
    );
    const result = await runProcess(
      process.execPath,
      ["--import", TSX_LOADER, GITHUB_SCRIPT_HOST],
      { cwd: step.workspace, env: { ...step.env, ...inputs } },
    );
    const outputs = readFileCommands(await readFile(step.env.GITHUB_OUTPUT ?? "", "utf8"));
    return { result, outputs };
  }

  if (name === "actions/checkout") {
    // fetch-depth 0: every branch and tag, then the ref detached; persist-credentials false
    // leaves no token behind (the simulation never has one to leave).
    known(["ref", "fetch-depth", "persist-credentials", "token"]);
    if (step.with["fetch-depth"] !== "0") throw new Error("only fetch-depth 0 is simulated");
    const git = async (...args: string[]): Promise<ProcessResult> => {
      const result = await runProcess("git", args, { cwd: step.workspace, env: step.env });
      if (result.code !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
      return result;
    };
    await git("init", "--quiet");
    await git("remote", "add", "origin", step.setup.gitRemote);
    await git(
      "fetch",
      "--quiet",
      "--prune",
      "origin",
      "+refs/heads/*:refs/remotes/origin/*",
      "+refs/tags/*:refs/tags/*",
    );
    await git("checkout", "--quiet", "--force", "--detach", step.with.ref ?? "origin/HEAD");
    return ok();
  }

  if (name === "actions/setup-node") {
    // The node on PATH stays (this machine's); the key step reads its version, as it would.
    known(["node-version"]);
    return ok(
      { "node-version": process.version },
      `setup-node: asked for ${step.with["node-version"]}, using ${process.version}\n`,
    );
  }

  if (name === "actions/cache/restore") {
    known(["path", "key"]);
    const key = step.with.key ?? "";
    const entry = cacheEntry(step.setup.cacheDirectory, key);
    const paths = pathsOf(step.with.path);
    // On a miss actions/cache/restore sets no cache-hit output at all.
    if (!existsSync(entry))
      return ok({ "cache-primary-key": key }, `Cache not found for input keys: ${key}\n`);
    for (const [index, path] of paths.entries()) {
      const saved = join(entry, String(index));
      if (existsSync(saved)) await copyTree(saved, path, step.env);
    }
    return ok({ "cache-primary-key": key, "cache-matched-key": key, "cache-hit": "true" });
  }

  if (name === "actions/cache/save") {
    known(["path", "key"]);
    const key = step.with.key ?? "";
    const entry = cacheEntry(step.setup.cacheDirectory, key);
    const paths = pathsOf(step.with.path);
    if (existsSync(entry))
      return ok({}, `::warning::Cache save failed: a cache for key ${key} exists\n`);
    if (!paths.every((path) => existsSync(path))) {
      return ok(
        {},
        "::warning::Path Validation Error: Path(s) specified in the action for caching do(es) not exist, hence no cache is being saved.\n",
      );
    }
    await mkdir(entry, { recursive: true });
    for (const [index, path] of paths.entries())
      await copyTree(path, join(entry, String(index)), step.env);
    return ok();
  }

  throw new Error(`uses: ${uses} is not simulated`);
}

/**
 * Runs `action.yml`'s composite steps as a runner does: expressions evaluated, `if:` honoured
 * (a failed step skips the rest unless they ask for failure() or always()), `run` steps by
 * `bash --noprofile --norc -eo pipefail` in the workspace, outputs and env through the file
 * commands, `uses` steps simulated (see simulateUses).
 */
export async function runCompositeAction(setup: RunnerSetup): Promise<ActionRun> {
  const action = parse(
    await readFile(join(setup.actionPath, "action.yml"), "utf8"),
  ) as ActionDefinition;
  const workspace = join(setup.jobDirectory, "workspace");
  const runnerTemp = join(setup.jobDirectory, "temp");
  const files = join(setup.jobDirectory, "_runner_file_commands");
  await Promise.all(
    [workspace, runnerTemp, files].map((directory) => mkdir(directory, { recursive: true })),
  );
  const eventPath = join(setup.jobDirectory, "event.json");
  await writeFile(eventPath, JSON.stringify(setup.event));
  const summaryPath = join(setup.jobDirectory, "step-summary.md");
  await writeFile(summaryPath, "");

  const runnerEnv: Record<string, string> = {
    ...setup.env,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: setup.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: setup.repository,
    GITHUB_REPOSITORY_OWNER: setup.repository.split("/")[0] ?? "",
    GITHUB_WORKSPACE: workspace,
    GITHUB_API_URL: setup.apiUrl,
    GITHUB_GRAPHQL_URL: `${setup.apiUrl}/graphql`,
    GITHUB_SERVER_URL: setup.serverUrl,
    GITHUB_ACTOR: "octocat",
    GITHUB_RUN_ID: "1",
    GITHUB_RUN_NUMBER: "1",
    GITHUB_JOB: "review",
    GITHUB_WORKFLOW: "Gadfly",
    GITHUB_ACTION_PATH: setup.actionPath,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    RUNNER_TEMP: runnerTemp,
  };
  const exported: Record<string, string> = {};

  const github: ExpressionValue = {
    token: setup.token,
    action_path: setup.actionPath,
    event_name: setup.eventName,
    event: setup.event as ExpressionValue,
    repository: setup.repository,
    repository_owner: runnerEnv.GITHUB_REPOSITORY_OWNER ?? "",
    workspace,
    server_url: setup.serverUrl,
    api_url: setup.apiUrl,
  };
  const steps: Record<string, ExpressionValue> = {};
  const context: ExpressionContext = {
    status: "success",
    contexts: {
      github,
      steps,
      runner: { os: "Linux", arch: "X64", temp: runnerTemp },
      env: {},
      inputs: {},
    },
  };
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    inputs[name] = setup.inputs[name] ?? interpolate(input.default ?? "", context);
  }
  const unknownInputs = Object.keys(setup.inputs).filter((name) => !(name in action.inputs));
  if (unknownInputs.length > 0)
    throw new Error(`action.yml has no input(s) ${unknownInputs.join(", ")}`);
  context.contexts.inputs = inputs;

  const records: StepRecord[] = [];
  for (const [index, step] of action.runs.steps.entries()) {
    context.contexts.env = { ...exported };
    const condition = stripBraces(step.if ?? "success()");
    const expression = STATUS_FUNCTION.test(condition) ? condition : `success() && (${condition})`;
    const record: StepRecord = {
      name: step.name,
      id: step.id,
      outcome: "skipped",
      outputs: {},
      stdout: "",
      stderr: "",
      milliseconds: 0,
    };
    records.push(record);
    if (truthy(evaluateExpression(expression, context))) {
      const started = performance.now();
      await runStep(step, index, record);
      record.milliseconds = Math.round(performance.now() - started);
      if (record.outcome === "failure") context.status = "failure";
    }
    if (step.id !== undefined) {
      steps[step.id] = {
        outputs: record.outputs,
        outcome: record.outcome,
        conclusion: record.outcome,
      };
    }
  }

  async function runStep(step: ActionStep, index: number, record: StepRecord): Promise<void> {
    const stepFiles = {
      GITHUB_OUTPUT: join(files, `output-${index}`),
      GITHUB_ENV: join(files, `env-${index}`),
      GITHUB_PATH: join(files, `path-${index}`),
      GITHUB_STEP_SUMMARY: join(files, `summary-${index}`),
    };
    await Promise.all(Object.values(stepFiles).map((file) => writeFile(file, "")));
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [
        name,
        interpolate(String(value), context),
      ]),
    );
    const env = { ...runnerEnv, ...exported, ...stepEnv, ...stepFiles };
    let result: ProcessResult;
    if (step.run !== undefined) {
      if (step.shell !== "bash") throw new Error(`${step.name}: only shell: bash is simulated`);
      const script = join(files, `step-${index}.sh`);
      await writeFile(script, interpolate(step.run, context));
      result = await runProcess("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
        cwd: workspace,
        env,
        timeoutMs: 60_000,
      });
      record.outputs = readFileCommands(await readFile(stepFiles.GITHUB_OUTPUT, "utf8"));
    } else if (step.uses !== undefined) {
      const withValues = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([name, value]) => [
          name,
          interpolate(String(value), context),
        ]),
      );
      const simulated = await simulateUses(step.uses, { env, with: withValues, setup, workspace });
      result = simulated.result;
      record.outputs = simulated.outputs;
    } else {
      throw new Error(`${step.name}: neither run nor uses`);
    }
    record.stdout = result.stdout;
    record.stderr = result.stderr;
    record.outcome = result.code === 0 ? "success" : "failure";
    Object.assign(exported, readFileCommands(await readFile(stepFiles.GITHUB_ENV, "utf8")));
    if ((await readFile(stepFiles.GITHUB_PATH, "utf8")) !== "") {
      throw new Error(`${step.name}: GITHUB_PATH is not simulated`);
    }
    await appendFile(summaryPath, await readFile(stepFiles.GITHUB_STEP_SUMMARY, "utf8"));
  }

  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, output]) => [
      name,
      interpolate(output.value, context),
    ]),
  );
  return {
    conclusion: context.status,
    steps: records,
    outputs,
    annotations: records.flatMap((record) => annotationsOf(record.stdout)),
    summary: await readFile(summaryPath, "utf8"),
    workspace,
    runnerTemp,
    actionPath: setup.actionPath,
  };
}
