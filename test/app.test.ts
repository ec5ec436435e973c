import { createServer as createNetServer } from "node:net";
import pino from "pino";
import { Probot, Server } from "probot";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadLenses } from "../src/agent/load-lenses.js";
import { gadflyApp } from "../src/app.js";
import { AppConfig } from "../src/config/schema.js";
import { RoundRegistry } from "../src/github/round-registry.js";
import { createReviewerLimiter } from "../src/run/reviewer-limiter.js";
import { SqliteRunStore } from "../src/run/store/sqlite-run-store.js";
import { createGadflyMetrics } from "../src/server/gadfly-metrics.js";
import { createOperationsHandler } from "../src/server/operations-handler.js";
import { systemClock } from "../src/time/clock.js";
import {
  deliver,
  type FakeGitHub,
  pullRequestEvent,
  startFakeGitHub,
} from "./fakes/fake-github/index.js";
import { probotCredentials } from "./fakes/fake-github/probot-credentials.js";
import { RecordingQueue } from "./github/helpers/recording-queue.js";
import { eventually } from "./helpers/eventually.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "./helpers/temporary-store-directory.js";

/* The app as a receiver only (GADFLY_ROLE=web): it queues rounds, runs none, and serves the operations endpoints on its port. */

const SECRET = "webhook-secret";
let github: FakeGitHub;
let server: Server;
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let url = "";
const queue = new RecordingQueue();

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

beforeAll(async () => {
  github = await startFakeGitHub({ appId: 1, appSlug: "gadfly" });
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open({ path: temporary.path }));
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  const log = pino({ level: "silent" });
  const port = await freePort();
  server = new Server({
    Probot: Probot.defaults({ appId: 1, privateKey, secret: SECRET, Octokit, log }),
    host: "127.0.0.1",
    port,
    log,
  });
  const metrics = createGadflyMetrics({ queueDepth: () => queue.depth() });
  await server.load(
    gadflyApp({
      config: AppConfig.parse({
        providers: [{ name: "local", type: "ollama" }],
        models: [{ id: "m", provider: "local" }],
      }),
      env: {},
      store,
      limiter: createReviewerLimiter(1),
      registry: new RoundRegistry(),
      lenses: await loadLenses(),
      dataDir: temporary.directory,
      clock: systemClock,
      boardIntervalMs: 100,
      queue,
      workers: null,
      metrics,
      operations: createOperationsHandler({ ready: async () => undefined, metrics }),
    }),
  );
  await server.start();
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.stop();
  await temporary?.remove();
  await github?.close();
});

it("serves /healthz, /readyz and /metrics on the app's own port", async () => {
  const health = await fetch(`${url}/healthz`);
  expect([health.status, await health.text()]).toEqual([200, "ok\n"]);
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  expect(metrics).toContain('gadfly_rounds_total{state="started"} 0');
  expect(metrics).toContain('gadfly_queue_jobs{state="queued"} 0');
  // Probot's own routes still answer.
  expect((await fetch(`${url}/ping`)).status).toBe(200);
});

it("as a receiver only, records the round and queues it without running it", async () => {
  github.addRepo({ owner: "octo-org", name: "api", ownerType: "Organization" });
  const pr = github.addPullRequest({ files: [{ path: "a.js", base: "a\n", head: "b\n" }] });
  const response = await deliver(
    `${url}/api/github/webhooks`,
    pullRequestEvent("opened", pr),
    SECRET,
  );
  expect(response.status).toBeLessThan(300);
  await eventually("the round to be queued", () => queue.enqueued.length === 1);
  const [job] = queue.enqueued;
  expect((await store.findRound(job?.roundId ?? ""))?.state).toBe("queued");
  expect(github.checkRuns(pr.headSha)).toEqual([]);
  expect(github.comments(pr)).toEqual([]);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  expect(metrics).toContain('gadfly_queue_jobs{state="queued"} 1');
});
