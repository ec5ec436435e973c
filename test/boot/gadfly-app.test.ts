import { createServer as createNetServer } from "node:net";
import pino from "pino";
import { Probot, Server } from "probot";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { gadflyApp } from "../../src/boot/gadfly-app.js";
import { AppConfig } from "../../src/config/schema.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { RoundRegistry } from "../../src/run/round-registry.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { createGadflyMetrics } from "../../src/server/gadfly-metrics.js";
import { createOperationsHandler } from "../../src/server/operations-handler.js";
import { systemClock } from "../../src/time/clock.js";
import {
  deliver,
  type FakeGitHub,
  pullRequestEvent,
  startFakeGitHub,
} from "../fakes/fake-github/index.js";
import { probotCredentials } from "../fakes/fake-github/probot-credentials.js";
import { eventually } from "../helpers/eventually.js";
import { RecordingQueue } from "../helpers/recording-queue.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

/* The app as a receiver only (GADFLY_ROLE=web): it queues rounds, runs none, and serves the operations endpoints on its port. */

const SECRET = "webhook-secret";
let github: FakeGitHub;
let server: Server;
let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let url = "";
/** Records jobs; `failNextEnqueue` makes the next enqueue fail, as a queue outage would. */
class FlakyQueue extends RecordingQueue {
  failNextEnqueue = false;
  override async enqueue(...args: Parameters<RecordingQueue["enqueue"]>): Promise<boolean> {
    if (this.failNextEnqueue) {
      this.failNextEnqueue = false;
      throw new Error("queue unavailable");
    }
    return super.enqueue(...args);
  }
}
const queue = new FlakyQueue();
/** The app's log lines (JSON), to check what a failed delivery leaves. */
const logLines: { msg?: string; delivery?: string; round?: string }[] = [];

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
  store = temporary.track(await SqliteRunStore.open(temporary.path));
  const { privateKey, Octokit } = probotCredentials(github.apiUrl);
  const log = pino(
    { level: "info" },
    { write: (line: string) => void logLines.push(JSON.parse(line)) },
  );
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
  // The default quiet period: the job waits 30 s, and the board says so at once.
  expect(queue.delays).toEqual([{ roundId: job?.roundId, delayMs: 30_000 }]);
  const comments = github.comments(pr);
  expect(comments).toHaveLength(1);
  expect(comments[0]?.body).toContain("<!-- gadfly-status-board -->");
  expect(comments[0]?.body).toContain("Waiting for pushes to settle");
  expect((await store.findRound(job?.roundId ?? ""))?.artifacts.statusCommentId).toBe(
    comments[0]?.id,
  );
  const metrics = await (await fetch(`${url}/metrics`)).text();
  expect(metrics).toContain('gadfly_queue_jobs{state="queued"} 1');
});

it("fails a delivery whose GitHub call fails (500), and runs its redelivery instead of skipping it as a duplicate", async () => {
  github.addRepo({ owner: "octo-org", name: "flaky", ownerType: "Organization" });
  const pr = github.addPullRequest({
    owner: "octo-org",
    repo: "flaky",
    files: [{ path: "a.js", base: "a\n", head: "b\n" }],
  });
  const event = pullRequestEvent("opened", pr);
  const webhooks = `${url}/api/github/webhooks`;
  github.failNext("GET", "/repos/octo-org/flaky/pulls/*", 502, { times: 5 });
  const failed = await deliver(webhooks, event, SECRET);
  expect(failed.status).toBe(500);
  expect(
    logLines.some((line) => line.msg === "webhook handler failed" && line.delivery === event.id),
  ).toBe(true);
  const before = queue.enqueued.length;
  github.clearFaults();

  // GitHub's "Redeliver": the same delivery id.
  const redelivered = await deliver(webhooks, event, SECRET);
  expect(redelivered.status).toBeLessThan(300);
  await eventually("the round to be queued", () => queue.enqueued.length === before + 1);
  expect(logLines.some((line) => line.msg === "round started" && line.delivery === event.id)).toBe(
    true,
  );
  // Once handled, the same delivery again is a duplicate: nothing new.
  expect((await deliver(webhooks, event, SECRET)).status).toBeLessThan(300);
  expect(queue.enqueued.length).toBe(before + 1);
});

it("a redelivery after a failure that left a round behind joins that round, never a second one", async () => {
  github.addRepo({ owner: "octo-org", name: "partial", ownerType: "Organization" });
  const pr = github.addPullRequest({
    owner: "octo-org",
    repo: "partial",
    files: [{ path: "a.js", base: "a\n", head: "b\n" }],
  });
  const event = pullRequestEvent("opened", pr);
  const webhooks = `${url}/api/github/webhooks`;
  const before = queue.enqueued.length;
  // The round is stored, then queueing its job fails.
  queue.failNextEnqueue = true;
  expect((await deliver(webhooks, event, SECRET)).status).toBe(500);
  expect(queue.enqueued.length).toBe(before);

  const redelivered = await deliver(webhooks, event, SECRET);
  expect(redelivered.status).toBeLessThan(300);
  await eventually("the round's job to be queued", () => queue.enqueued.length === before + 1);
  const joined = logLines.find(
    (line) =>
      line.msg === "joined the round already running for this head" && line.delivery === event.id,
  );
  expect(joined?.round).toBe(queue.enqueued.at(-1)?.roundId);
  expect(logLines.some((line) => line.msg === "round started" && line.delivery === event.id)).toBe(
    false,
  );
});
