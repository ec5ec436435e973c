import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import type { LensFinding } from "../../src/findings/schema.js";
import {
  type FakeGitHub,
  type FakeGitHubOptions,
  startFakeGitHub,
} from "../fakes/fake-github/index.js";
import { startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { FakeModelServer } from "../fakes/model-fake-server.js";
import type { FakeModelRequest, FakeReply } from "../fakes/model-script.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** tsx by absolute URL: the app runs with a temporary directory as its working directory. */
export const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
export const WEBHOOK_SECRET = "e2e-webhook-secret";
export const OPENAI_KEY = "sk-e2e-fake-key-0123456789abcdef";

/** The four models of the e2e config: two behind the Ollama fake, two behind the OpenAI fake. */
export const MODELS = [
  { id: "glm-5.2:cloud", provider: "ollama-cloud" },
  { id: "kimi-k2.6:cloud", provider: "ollama-cloud" },
  { id: "gpt-a", provider: "openai" },
  { id: "gpt-b", provider: "openai" },
] as const;

export interface Stack {
  github: FakeGitHub;
  ollama: FakeModelServer;
  openai: FakeModelServer;
  dir: string;
  configPath: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startStack(
  options: {
    review?: string;
    models?: readonly { id: string; provider: string }[];
    /** More top-level keys of the app's config, as YAML (e.g. `threads:`). */
    extraConfig?: string;
    /** The fake GitHub's options beyond the app's identity (e.g. its secondary rate limit). */
    github?: Omit<FakeGitHubOptions, "appId" | "appSlug">;
  } = {},
): Promise<Stack> {
  const github = await startFakeGitHub({ ...options.github, appId: 1, appSlug: "gadfly" });
  const ollama = await startFakeOllamaServer();
  const openai = await startFakeOpenAIServer({ apiKey: OPENAI_KEY });
  const dir = await mkdtemp(join(tmpdir(), "gadfly-e2e-"));
  const configPath = join(dir, "gadfly.config.yml");
  const models = options.models ?? MODELS;
  const review = options.review ?? "  concurrency: 8\n  maxTurns: 6\n  timeoutSeconds: 60";
  await writeFile(
    configPath,
    [
      "providers:",
      "  - name: ollama-cloud",
      "    type: ollama",
      `    host: ${ollama.url}`,
      "  - name: openai",
      "    type: openai",
      `    baseURL: ${openai.url}/v1`,
      "    apiKeyEnv: E2E_OPENAI_KEY",
      "models:",
      ...models.map((model) => `  - { id: "${model.id}", provider: ${model.provider} }`),
      "review:",
      // A push's round starts at once, as the e2e tests expect; a test of the quiet period sets it.
      review.includes("debounceSeconds") ? review : `${review}\n  debounceSeconds: 0`,
      ...(options.extraConfig === undefined ? [] : [options.extraConfig]),
      // The summary is one more model call per round: off unless a test asks for it, so the
      // others' scripted queues and request counts stay about what they test.
      ...(options.extraConfig?.includes("summary:") === true ? [] : ["summary: false"]),
      "",
    ].join("\n"),
  );
  return {
    github,
    ollama,
    openai,
    dir,
    configPath,
    dataDir: join(dir, "data"),
    async close() {
      await Promise.allSettled([github.close(), ollama.close(), openai.close()]);
    },
  };
}

export interface RunningApp {
  url: string;
  webhookUrl: string;
  process: ChildProcess;
  output(): string;
  /** Sends a signal and waits for the process to exit; returns its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs1",
  format: "pem",
}) as string;

/** The app's process, spawned as `npm start` runs it, pointed at the fakes. */
export interface SpawnedApp {
  process: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * `env` adds to or overrides the app's environment; a variable given as
 * undefined is left out (e.g. WEBHOOK_SECRET, to see the app refuse to start).
 */
export async function spawnApp(
  stack: Stack,
  env: Record<string, string | undefined> = {},
): Promise<SpawnedApp> {
  const port = await freePort();
  const githubHost = new URL(stack.github.url).host;
  const child = spawn(process.execPath, ["--import", TSX_LOADER, join(ROOT, "src/main.ts")], {
    cwd: stack.dir,
    env: withoutUndefined({
      PATH: process.env.PATH ?? "",
      HOME: stack.dir,
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      GHE_HOST: githubHost,
      GHE_PROTOCOL: "http",
      GADFLY_CONFIG: stack.configPath,
      GADFLY_DATA_DIR: stack.dataDir,
      GADFLY_BOARD_INTERVAL_MS: "100",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      NODE_ENV: "test",
      E2E_OPENAI_KEY: OPENAI_KEY,
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return { process: child, port, output: () => output, exited };
}

/** Starts the app as users run it (the same entry as `npm start`), pointed at the fakes. */
export async function startApp(
  stack: Stack,
  env: Record<string, string | undefined> = {},
): Promise<RunningApp> {
  const spawned = await spawnApp(stack, env);
  const { process: child, exited } = spawned;
  const url = `http://127.0.0.1:${spawned.port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`the app exited early:\n${spawned.output()}`);
    try {
      return (await fetch(`${url}/ping`)).ok;
    } catch {
      return false;
    }
  }, 20_000).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw new Error(`the app did not answer /ping: ${String(error)}\n${spawned.output()}`);
  });
  return {
    url,
    webhookUrl: `${url}/api/github/webhooks`,
    process: child,
    output: spawned.output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

function withoutUndefined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Polls until the condition holds (e2e tests wait on real processes; bounded). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * A reviewer that behaves like a real agent: it reads a changed file first,
 * then answers with its findings; a verify (or repair) turn repeats them.
 */
export function reviewerScript(
  findings: (model: string, lens: string) => readonly LensFinding[],
  readPath: string,
): (request: FakeModelRequest) => FakeReply {
  return (request) => {
    const lens = request.lens ?? "unknown";
    const last = request.messages.at(-1);
    const sawTool = request.messages.some((message) => message.role === "tool");
    if (!sawTool && last?.role === "user") {
      return { toolCalls: [{ name: "read_file", arguments: { path: readPath } }] };
    }
    const mine = findings(request.model, lens);
    const verdict = mine.some((finding) => finding.severity === "high")
      ? "Significant issues"
      : mine.length > 0
        ? "Minor issues"
        : "No material issues found";
    const prose =
      last?.role === "user"
        ? `I re-checked ${mine.length === 1 ? "the finding" : "each finding"} against the source. All survive.`
        : `Reviewed ${readPath} through the ${lens} lens.`;
    return { text: renderLensAnswer(verdict, mine, prose) };
  };
}

export function scriptAll(stack: Stack, script: (request: FakeModelRequest) => FakeReply): void {
  for (const model of MODELS) {
    (model.provider === "openai" ? stack.openai : stack.ollama).script(model.id, script);
  }
}
