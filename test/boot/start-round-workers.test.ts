import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startRoundWorkers } from "../../src/boot/start-round-workers.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import type { ClaimedRound, StopReason } from "../../src/run/index.js";
import { MAX_ROUND_ATTEMPTS, retryDelayMs } from "../../src/run/index.js";
import { InMemoryWorkQueue } from "../../src/run/queue/in-memory-work-queue.js";
import { RoundRegistry } from "../../src/run/round-registry.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import type { RoundMetricState } from "../../src/server/gadfly-metrics.js";
import { sampleLensReport } from "../builders/lens-report.js";
import { eventually } from "../helpers/eventually.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { roundDependencies } from "../helpers/round-dependencies.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";
import { claimRound } from "../run/store/helpers/claim-round.js";

const LEASE_MS = 60_000;
let temporary: TemporaryStoreDirectory;
let clock: FakeClock;
let store: SqliteRunStore;
let queue: InMemoryWorkQueue;
let registry: RoundRegistry;
let rounds: RoundMetricState[];
/** What each run saw: the claimed round, the client's installation, and why it stopped. */
let runs: { claimed: ClaimedRound; installation: unknown; stop: StopReason | null }[];
let errors: string[];

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  clock = new FakeClock(Date.now());
  store = temporary.track(await SqliteRunStore.open(temporary.path, clock));
  queue = new InMemoryWorkQueue({ clock });
  registry = new RoundRegistry();
  rounds = [];
  runs = [];
  errors = [];
});
afterEach(async () => {
  await queue.stop(1000);
  await temporary.remove();
});

type RunJob = NonNullable<Parameters<typeof startRoundWorkers>[0]["runJob"]>;

/** Rounds that run until their lease stops them; then they end as the runner would. */
const holdUntilStopped: RunJob = async (octokit, claimed) => {
  const run = {
    claimed,
    installation: (octokit as unknown as { installationId: number }).installationId,
    stop: null as StopReason | null,
  };
  runs.push(run);
  const { lease } = claimed;
  if (!lease.signal.aborted) {
    await new Promise((resolve) => lease.signal.addEventListener("abort", resolve, { once: true }));
  }
  run.stop = lease.reason();
};

function start(runJob: RunJob = holdUntilStopped, client?: GitHubClient) {
  const deps = roundDependencies(
    { store, dataDir: temporary.directory },
    { queue, registry, clock },
  );
  return startRoundWorkers({
    queue,
    concurrency: 2,
    store,
    registry,
    installationClient: async (installationId) =>
      client ?? ({ installationId } as unknown as GitHubClient),
    dependencies: async () => deps,
    leaseMs: LEASE_MS,
    singleProcess: true,
    clock,
    metrics: { round: (state) => rounds.push(state) },
    onError: (error, context) => errors.push(`${context}: ${String(error)}`),
    runJob,
  });
}

async function queuedRound(pullNumber: number, headSha = `sha-${pullNumber}`) {
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId: 42,
    pullNumber,
    headSha,
    trigger: { kind: "push", deliveryId: `d-${pullNumber}-${headSha}` },
  });
  return round;
}

describe("startRoundWorkers", () => {
  it("runs a woken round under a lease with its installation's client; a newer push stops it, superseded", async () => {
    await start();
    const round = await queuedRound(1);
    await queue.enqueue({ roundId: round.id, installationId: 42 });
    await eventually("the round to run", () => registry.has(round.id));
    expect(runs[0]?.installation).toBe(42);
    expect(runs[0]?.claimed.resumed).toBe(false);

    await queuedRound(1, "bbb2220");
    await queue.hint(round.id);
    await eventually("the round to stop", () => !registry.has(round.id));
    expect(runs[0]?.stop).toEqual({ kind: "superseded", by: "bbb2220" });
    await eventually("the metrics", () => rounds.length === 2);
    expect(rounds).toEqual(["started", "cancelled"]);
  });

  it("hands its rounds back on shutdown, due at once, without spending an attempt", async () => {
    await start();
    const round = await queuedRound(1);
    await queue.enqueue({ roundId: round.id, installationId: 42 });
    await eventually("the round to run", () => registry.has(round.id));
    await queue.stop(1000);
    expect(runs[0]?.stop).toEqual({ kind: "shutdown" });
    expect(await store.findRound(round.id)).toMatchObject({ state: "queued", attempts: 0 });
    expect(await store.claimRound(round.id, { owner: "next", leaseMs: 1 })).toMatchObject({
      kind: "claimed",
      tookOver: false,
      round: { attempts: 0, leaseEpoch: 2 },
    });
  });

  it("wakes at start the rounds a crash left, takes them over, and resumes them with the lenses they saved", async () => {
    const crashed = await queuedRound(1);
    await claimRound(store, crashed.id, "the-process-that-died");
    await store.saveLensReport(crashed.id, sampleLensReport());
    const waiting = await queuedRound(2);

    expect((await start()).woken).toBe(2);
    await eventually("both rounds to run", () => runs.length === 2);
    const resumed = runs.find((run) => run.claimed.round.id === crashed.id);
    expect(resumed?.claimed.resumed).toBe(true);
    // The crash spent an attempt; the round that was only waiting spent none.
    expect(resumed?.claimed.round.attempts).toBe(1);
    expect(resumed?.claimed.finished.map((report) => report.lens)).toEqual(["security"]);
    expect(runs.find((run) => run.claimed.round.id === waiting.id)?.claimed.round.attempts).toBe(0);
    expect(rounds.sort()).toEqual(["resumed", "started"]);
  });

  it("retries a round that could not start after a backoff, then gives it up with its check completed", async () => {
    const round = await queuedRound(1);
    await store.setArtifacts(round.id, { checkRunId: 7 });
    const updates: { check_run_id: number; conclusion?: string; output?: { title?: string } }[] =
      [];
    const client = {
      rest: {
        checks: {
          update: async (request: (typeof updates)[number]) => {
            updates.push(request);
            return { data: {} };
          },
        },
        issues: {
          updateComment: async () => ({ data: { id: 1, html_url: "" } }),
          createComment: async () => ({ data: { id: 1, html_url: "" } }),
          listComments: async () => ({ data: [] }),
        },
      },
      paginate: async () => [],
    } as unknown as GitHubClient;
    let starts = 0;
    await start(async () => {
      starts++;
      throw new Error("GitHub is down");
    }, client);
    await queue.enqueue({ roundId: round.id, installationId: 42 });
    await eventually("the first start", () => starts === 1);
    await eventually(
      "the retry recorded",
      async () => (await store.findRound(round.id))?.attempts === 1,
    );
    // Not before its backoff.
    await clock.advanceAndSettle(retryDelayMs(1) - 1);
    expect(starts).toBe(1);
    await clock.advanceAndSettle(1);
    await eventually("the second start", () => starts === 2);
    await eventually(
      "the second retry",
      async () => (await store.findRound(round.id))?.attempts === 2,
    );
    await clock.advanceAndSettle(retryDelayMs(2));
    await eventually("given up", async () => (await store.findRound(round.id))?.state === "failed");
    expect(starts).toBe(MAX_ROUND_ATTEMPTS);
    expect(await store.findRound(round.id)).toMatchObject({
      failure: `gave up after ${MAX_ROUND_ATTEMPTS} attempts`,
    });
    expect(updates.at(-1)).toMatchObject({
      check_run_id: 7,
      conclusion: "neutral",
      output: { title: "Gadfly could not finish this review" },
    });
    expect(errors.filter((error) => error.includes("could not start"))).toHaveLength(
      MAX_ROUND_ATTEMPTS,
    );
  });

  it("does nothing with a wake-up for a round held by a live worker, or one that ended", async () => {
    await start();
    const held = await queuedRound(1);
    await claimRound(store, held.id, "another-live-worker");
    await queue.enqueue({ roundId: held.id, installationId: 42 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toEqual([]);
    expect((await store.findRound(held.id))?.leaseEpoch).toBe(1);
  });
});
