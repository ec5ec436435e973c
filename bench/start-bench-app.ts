import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import {
  OPENAI_KEY,
  ROOT,
  type Stack,
  TSX_LOADER,
  WEBHOOK_SECRET,
  waitFor,
} from "../test/e2e/harness.js";
import { npmStartNodeArgs } from "./npm-start-node-args.js";

export interface BenchApp {
  pid: number;
  webhookUrl: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

let privateKey: string | undefined;

/**
 * Starts the app process pointed at the stack's fakes, with the environment the e2e harness
 * gives it, from either the built JavaScript (`entry`, as `npm start` runs) or the TypeScript
 * through tsx (as the e2e tests run). Unlike the harness it leaves every setting at the app's
 * default unless `env` says otherwise: the status board's interval is 2 s here, not 100 ms.
 * Node runs with `nodeArgs` if given, else with the flags `npm start` gives it (package.json's
 * start script): a bench measures the process users run unless it says otherwise.
 */
export async function startBenchApp(
  stack: Stack,
  options: { entry?: string; env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<BenchApp> {
  privateKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    type: "pkcs1",
    format: "pem",
  }) as string;
  const port = await freePort();
  const argv = [
    ...(options.nodeArgs ?? npmStartNodeArgs()),
    ...(options.entry === undefined
      ? ["--import", TSX_LOADER, join(ROOT, "src/main.ts")]
      : [options.entry]),
  ];
  const child = spawn(process.execPath, argv, {
    cwd: stack.dir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: stack.dir,
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      GHE_HOST: new URL(stack.github.url).host,
      GHE_PROTOCOL: "http",
      GADFLY_CONFIG: stack.configPath,
      GADFLY_DATA_DIR: stack.dataDir,
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      NODE_ENV: "production",
      E2E_OPENAI_KEY: OPENAI_KEY,
      // The full-diff baseline of a prompt comparison (src/boot/round-dependencies.ts).
      ...(process.env.GADFLY_BENCH_PROMPT_STYLE === undefined
        ? {}
        : { GADFLY_BENCH_PROMPT_STYLE: process.env.GADFLY_BENCH_PROMPT_STYLE }),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    // The last 1 MB is plenty to diagnose a failure; a long run must not grow this forever.
    output = (output + chunk.toString()).slice(-1_000_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A benchmark that dies half-way must not leave its app running.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`the app exited early:\n${output}`);
    try {
      return (await fetch(`${url}/ping`)).ok;
    } catch {
      return false;
    }
  }, 30_000);
  if (child.pid === undefined) throw new Error("the app has no pid");
  return {
    pid: child.pid,
    webhookUrl: `${url}/api/github/webhooks`,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      process.off("exit", killOnExit);
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
