// Runs one `actions/github-script` step the way github-script@v7 does, as its own process:
// the script is the body of an async function given `require`, `github` (an authenticated
// Octokit on GITHUB_API_URL), `context` (from the GITHUB_* variables and the event file) and
// `core`; its inputs come as INPUT_* variables, its outputs go to the GITHUB_OUTPUT file, a
// thrown error or core.setFailed fails the step. `exec`, `glob` and `io` are not provided
// (the action's scripts use none; using one fails the step loudly).
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";

const env = process.env;
const input = (name: string): string =>
  (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();

/** `::command::message`, escaped as @actions/core escapes it. */
function command(name: string, message: string): void {
  const escaped = message.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  process.stdout.write(`::${name}::${escaped}\n`);
}

function appendFileCommand(file: string | undefined, name: string, value: string): void {
  if (file === undefined || file === "") throw new Error(`no file for ${name}`);
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

const toText = (value: unknown): string =>
  value === undefined || value === null
    ? ""
    : typeof value === "string"
      ? value
      : JSON.stringify(value);

const core = {
  getInput: (name: string) => input(name),
  setOutput: (name: string, value: unknown) =>
    appendFileCommand(env.GITHUB_OUTPUT, name, toText(value)),
  exportVariable: (name: string, value: unknown) => {
    process.env[name] = toText(value);
    appendFileCommand(env.GITHUB_ENV, name, toText(value));
  },
  setSecret: (secret: string) => command("add-mask", secret),
  debug: (message: string) => command("debug", message),
  info: (message: string) => process.stdout.write(`${message}\n`),
  notice: (message: unknown) => command("notice", toText(message)),
  warning: (message: unknown) => command("warning", toText(message)),
  error: (message: unknown) => command("error", toText(message)),
  setFailed: (message: unknown) => {
    process.exitCode = 1;
    command("error", message instanceof Error ? message.message : toText(message));
  },
};

const [owner = "", repo = ""] = (env.GITHUB_REPOSITORY ?? "").split("/");
const payload = env.GITHUB_EVENT_PATH
  ? (JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8")) as Record<string, unknown>)
  : {};
const context = {
  payload,
  eventName: env.GITHUB_EVENT_NAME,
  sha: env.GITHUB_SHA,
  ref: env.GITHUB_REF,
  workflow: env.GITHUB_WORKFLOW,
  action: env.GITHUB_ACTION,
  actor: env.GITHUB_ACTOR,
  job: env.GITHUB_JOB,
  runNumber: Number(env.GITHUB_RUN_NUMBER),
  runId: Number(env.GITHUB_RUN_ID),
  apiUrl: env.GITHUB_API_URL,
  serverUrl: env.GITHUB_SERVER_URL,
  graphqlUrl: env.GITHUB_GRAPHQL_URL,
  repo: { owner, repo },
  get issue() {
    const source = (payload.issue ?? payload.pull_request ?? payload) as { number?: number };
    return { owner, repo, number: source.number };
  },
};

const token = input("github-token");
const github = new Octokit({
  ...(token === "" ? {} : { auth: token }),
  baseUrl: env.GITHUB_API_URL ?? "https://api.github.com",
  userAgent: "actions/github-script",
});

// github-script resolves a bare module name from the working directory (the workspace).
const workspaceRequire = createRequire(join(process.cwd(), "github-script.cjs"));

type Script = (...parameters: unknown[]) => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...parameters: string[]
) => Script;

try {
  const script = new AsyncFunction(
    "require",
    "__original_require__",
    "github",
    "octokit",
    "context",
    "core",
    input("script"),
  );
  const result = await script(workspaceRequire, workspaceRequire, github, github, context, core);
  core.setOutput(
    "result",
    input("result-encoding") === "string" ? toText(result) : (JSON.stringify(result) ?? ""),
  );
} catch (error) {
  core.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  core.setFailed(`Unhandled error: ${String(error)}`);
}
