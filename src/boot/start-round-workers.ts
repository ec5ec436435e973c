import type {
  GitHubClient,
  RoundDependencies,
  RoundRegistry,
  StopReason,
} from "../github/index.js";
import { abandonRound, resumeUnfinishedRounds, runRoundJob } from "../github/index.js";
import type { JobStopError, WorkQueue } from "../run/queue/index.js";
import { createRoundJobHandler } from "../run/queue/index.js";
import type { RunStore } from "../run/store/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { Clock } from "../time/index.js";

export interface RoundWorkersOptions {
  queue: WorkQueue;
  /** Round jobs this process runs at once. */
  concurrency: number;
  store: RunStore;
  registry: RoundRegistry;
  /** A client acting as the app's installation (tokens are fetched and cached by Probot). */
  installationClient: (installationId: number) => Promise<GitHubClient>;
  /** Everything a round needs, resolved when a job is taken (the app's identity included). */
  dependencies: () => Promise<RoundDependencies>;
  metrics?: Pick<GadflyMetrics, "round">;
  /** Every round run here, settled when it ends: for tests and shutdown. */
  onRound?: (done: Promise<void>) => void;
  /**
   * A push's quiet period (`review.debounceSeconds`): a round still waiting for pushes to
   * settle when the process stopped waits out the rest of it. None: resumed at once.
   */
  quietPeriod?: { debounceSeconds: number; clock: Pick<Clock, "now"> };
  /** Runs one round; `runRoundJob` (tests pass their own). */
  runJob?: typeof runRoundJob;
}

/**
 * Starts taking round jobs, then queues again every round a crash or a deploy
 * left unfinished. A job runs its round through `runRoundJob`; the job's stop
 * signal reaches the round through the registry: `cancelled` ends it as
 * cancelled, `shutdown` and `lost` stop it without a trace. Resolves with the
 * number of rounds queued again.
 */
export async function startRoundWorkers(options: RoundWorkersOptions): Promise<number> {
  const { store, registry, metrics } = options;
  const runJob = options.runJob ?? runRoundJob;
  const handler = createRoundJobHandler({
    store,
    runRound: async (round, finished, resumed) => {
      const run = (async () => {
        try {
          const deps = await options.dependencies();
          const octokit = await options.installationClient(round.installationId);
          metrics?.round(resumed ? "resumed" : "started");
          await runJob(octokit, { round, finished, resumed }, deps);
          const ended = await store.findRound(round.id);
          if (
            ended?.state === "completed" ||
            ended?.state === "failed" ||
            ended?.state === "cancelled"
          ) {
            metrics?.round(ended.state);
          }
        } finally {
          registry.discard(round.id);
        }
      })();
      options.onRound?.(run.catch(() => undefined));
      await run;
    },
    stopRound: (roundId, stop) => registry.stop(roundId, stopReasonOf(stop)),
    abandonRound: async (round, failure) => {
      try {
        const deps = await options.dependencies();
        await abandonRound(
          await options.installationClient(round.installationId),
          round,
          failure,
          deps,
        );
      } finally {
        // Recorded even when GitHub is what keeps failing (then the check cannot be completed).
        await store.finishRound(round.id, { state: "failed", failure });
      }
    },
  });
  await options.queue.work(handler, { concurrency: options.concurrency });
  const quiet = options.quietPeriod;
  return resumeUnfinishedRounds(
    store,
    options.queue,
    quiet === undefined
      ? undefined
      : { debounceMs: quiet.debounceSeconds * 1000, now: quiet.clock.now() },
  );
}

function stopReasonOf(stop: JobStopError): StopReason {
  switch (stop.kind) {
    case "cancelled":
      return { kind: "cancelled", reason: stop.message };
    case "shutdown":
      return { kind: "shutdown" };
    case "lost":
      return { kind: "lost" };
  }
}
