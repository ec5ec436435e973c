import { generateKeyPairSync } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWorkerCommand } from "../../src/boot/run-worker-command.js";
import { runCli } from "../../src/cli/main.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/fake-github/index.js";
import { eventually } from "../helpers/eventually.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../helpers/postgres-server.js";

let directory = "";
const CONFIG = [
  "providers:",
  "  - { name: local, type: ollama, host: 'http://127.0.0.1:9' }",
  "models:",
  "  - { id: m, provider: local }",
  "",
].join("\n");

function io(env: Record<string, string>) {
  let errors = "";
  const signals = new EventEmitter();
  return {
    io: {
      env,
      cwd: directory,
      stderr: {
        write: (text: string) => {
          errors += text;
          return true;
        },
      },
      signals: signals as unknown as Pick<NodeJS.Process, "once">,
    },
    errors: () => errors,
    signal: (name: string) => signals.emit(name),
  };
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "gadfly-worker-"));
  await writeFile(join(directory, "worker.yml"), CONFIG);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe("gadfly worker", () => {
  it("refuses to start without PostgreSQL, in one line naming GADFLY_DATABASE_URL (exit 2)", async () => {
    const run = io({});
    expect(await runWorkerCommand({ configPath: "worker.yml" }, run.io)).toBe(2);
    expect(run.errors()).toMatch(
      /^gadfly: environment: GADFLY_DATABASE_URL: the worker role needs GADFLY_DATABASE_URL \(PostgreSQL\)[^\n]*\n$/,
    );
  });

  it("is what the CLI's worker command runs, with its --config", async () => {
    let errors = "";
    const stream = {
      write: (text: string) => {
        errors += text;
        return true;
      },
    } as NodeJS.WritableStream;
    const code = await runCli({
      argv: ["worker", "--config", "missing.yml"],
      env: {},
      cwd: directory,
      stdout: stream,
      stderr: stream,
    });
    expect(code).toBe(2);
    expect(errors).toContain(`${join(directory, "missing.yml")}: file not found`);
  });
});

describe.skipIf(postgresUnavailableReason() !== null)("gadfly worker on PostgreSQL", () => {
  let server: TestPostgres;
  let github: FakeGitHub;

  beforeAll(async () => {
    server = await startTestPostgres();
    github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  });
  afterAll(async () => {
    await github?.close();
    await server?.stop();
  });

  it("serves the operations endpoints, asks who it is, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      type: "pkcs1",
      format: "pem",
    }) as string;
    const run = io({
      GADFLY_DATABASE_URL: await server.createDatabase(),
      GADFLY_DATA_DIR: join(directory, "data"),
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      GHE_HOST: new URL(github.url).host,
      GHE_PROTOCOL: "http",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
    });
    const exit = runWorkerCommand({ configPath: "worker.yml" }, run.io);
    await eventually(
      "the worker to be ready",
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok === true,
      20_000,
    );
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain('gadfly_queue_jobs{state="queued"} 0');
    // No webhook endpoint on a worker.
    expect(
      (await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, { method: "POST" })).status,
    ).toBe(404);
    await eventually(
      "the app's identity",
      () => github.requests({ method: "GET", path: "/app" }).length > 0,
    );

    run.signal("SIGTERM");
    expect(await exit).toBe(0);
    expect(run.errors()).toContain(
      "SIGTERM: shutting down; rounds in flight resume on another worker",
    );
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
