import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { GitHubClient, RoundDependencies } from "../github/index.js";
import { giveUpRound, runRoundJob, sweepInterruptedAnswers } from "../github/index.js";
import type { RoundRegistry, Sweeper } from "../run/index.js";
import { createRoundWorker, startSweeper } from "../run/index.js";
import type { WorkQueue } from "../run/queue/index.js";
import type { RunStore } from "../run/store/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { Clock } from "../time/index.js";

export interface RoundWorkers {
  /** Rounds the first sweep woke (due at start: interrupted, handed back, left queued). */
  woken: number;
  /** Stops sweeping (the queue's own stop stops the rounds). */
  stop(): void;
}

/**
 * Starts taking round wake-ups, then wakes every round the store says is due: those a crash or a
 * deploy interrupted, those handed back, those whose wake-up was lost. A wake-up runs its round
 * through `runRoundJob` under a lease (`createRoundWorker`); the store's state machine decides its
 * fate, the queue only dispatches. With `singleProcess` (SQLite) every lease held by another owner
 * belonged to this process's predecessor: it ended with it, so its rounds are taken over at once.
 */
export async function startRoundWorkers(options: {
  queue: WorkQueue;
  /** Rounds this process runs at once. */
  concurrency: number;
  store: RunStore;
  registry: RoundRegistry;
  /** A client acting as the app's installation (tokens are fetched and cached by Probot). */
  installationClient: (installationId: number) => Promise<GitHubClient>;
  /** Everything a round needs, resolved when a wake-up is taken (the app's identity included). */
  dependencies: () => Promise<RoundDependencies>;
  /** A lease unrenewed for this long is taken over; renewed every third of it. */
  leaseMs: number;
  singleProcess: boolean;
  clock: Clock;
  metrics?: Pick<GadflyMetrics, "round">;
  /** Every round run here, settled when it ends: for tests and shutdown. */
  onRound?: (done: Promise<void>) => void;
  onError: (error: unknown, context: string) => void;
  /** Runs one round; `runRoundJob` (tests pass their own). */
  runJob?: typeof runRoundJob;
}): Promise<RoundWorkers> {
  const { store, queue, metrics } = options;
  const runJob = options.runJob ?? runRoundJob;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const handler = createRoundWorker({
    store,
    queue,
    registry: options.registry,
    owner,
    leaseMs: options.leaseMs,
    clock: options.clock,
    onError: options.onError,
    run: async (claimed) => {
      const run = (async () => {
        const deps = await options.dependencies();
        const octokit = await options.installationClient(claimed.round.installationId);
        metrics?.round(claimed.resumed ? "resumed" : "started");
        await runJob(octokit, claimed, deps);
        const ended = await store.findRound(claimed.round.id);
        if (
          ended?.state === "completed" ||
          ended?.state === "failed" ||
          ended?.state === "cancelled"
        ) {
          metrics?.round(ended.state);
        }
      })();
      options.onRound?.(run.catch(() => undefined));
      await run;
    },
    giveUp: async (claimed, failure) => {
      const deps = await options.dependencies();
      await giveUpRound(
        await options.installationClient(claimed.round.installationId),
        claimed,
        failure,
        deps,
      );
      metrics?.round("failed");
    },
  });
  await queue.work(handler, options.concurrency, (roundId) => options.registry.hint(roundId));
  if (options.singleProcess) await store.expireLeases(owner);
  const sweeper: Sweeper = startSweeper({
    store,
    queue,
    clock: options.clock,
    intervalMs: Math.max(1000, Math.round(options.leaseMs / 2)),
    onError: (error) => options.onError(error, "sweeping due rounds"),
    // Thread answers whose process died: said in their threads by whichever worker sweeps first.
    alsoSweep: async () =>
      sweepInterruptedAnswers(await options.dependencies(), options.installationClient),
  });
  return { woken: await sweeper.sweep(), stop: () => sweeper.stop() };
}
