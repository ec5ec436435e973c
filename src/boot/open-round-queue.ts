import { hourlyWriteShape, WriteBudget, type WriteLimit } from "../github/index.js";
import {
  createInMemoryModelCallLimiter,
  type ModelCallLimiter,
  type ProviderCap,
} from "../llm/index.js";
import type { WorkQueue } from "../run/queue/index.js";
import {
  InMemoryTokenBuckets,
  InMemoryWorkQueue,
  PgBossWorkQueue,
  PostgresModelCallLimiter,
  PostgresTokenBuckets,
  type TokenBuckets,
} from "../run/queue/index.js";
import { createPostgresPool } from "../run/store/index.js";
import { systemClock } from "../time/index.js";
import type { GitHubWriteSettings } from "./read-scale-settings.js";

export interface RoundQueue {
  queue: WorkQueue;
  /** The per-provider cap on model calls in flight, shared like the queue. */
  modelCalls: ModelCallLimiter;
  /** GitHub's write budget per installation, shared like the queue; null when turned off. */
  githubWrites: WriteBudget | null;
  /**
   * Stops taking rounds, stops the rounds running here (they go back to the
   * queue) waiting up to `graceMs`, then gives back every model-call slot.
   */
  stop(graceMs: number): Promise<void>;
}

export interface OpenRoundQueueOptions {
  /** PostgreSQL for several processes; null: this process only (SQLite mode). */
  databaseUrl: string | null;
  capFor: ProviderCap;
  visibilityTimeoutMs: number;
  githubWrites: GitHubWriteSettings | null;
  onError: (error: unknown, context: string) => void;
}

/**
 * The queue of round jobs, the model-call cap and GitHub's write budget: pg-boss, leased
 * slot rows and token-bucket rows in the shared database, or their in-memory twins (same
 * contract and fairness rule) for one process. Throws StoreOpenError when PostgreSQL
 * cannot be reached.
 */
export async function openRoundQueue(options: OpenRoundQueueOptions): Promise<RoundQueue> {
  const { databaseUrl, capFor, onError } = options;
  if (databaseUrl === null) {
    const queue = new InMemoryWorkQueue({
      onError: (error, job) => onError(error, `round ${job.roundId}`),
    });
    const modelCalls = createInMemoryModelCallLimiter(capFor);
    return {
      queue,
      modelCalls,
      githubWrites: writeBudget(options.githubWrites, new InMemoryTokenBuckets()),
      async stop(graceMs) {
        await queue.stop(graceMs);
        await modelCalls.close();
      },
    };
  }
  const queue = await PgBossWorkQueue.start({ url: databaseUrl, onError });
  const pool = createPostgresPool({
    url: databaseUrl,
    maxConnections: 2,
    applicationName: "gadfly-model-calls",
    onIdleError: (error) => onError(error, "model call slots"),
  });
  const modelCalls = new PostgresModelCallLimiter({
    pool,
    capFor,
    // A dead worker's slots come back when its rounds do.
    leaseMs: options.visibilityTimeoutMs,
    onLeaseLost: (provider) =>
      onError(new Error(`a ${provider} model call slot could not be renewed`), "model call slots"),
  });
  return {
    queue,
    modelCalls,
    // Quick single-statement takes: they share the slots' pool.
    githubWrites: writeBudget(options.githubWrites, new PostgresTokenBuckets(pool)),
    async stop(graceMs) {
      await queue.stop(graceMs);
      await modelCalls.close();
      await pool.end().catch(() => undefined);
    },
  };
}

function writeBudget(
  settings: GitHubWriteSettings | null,
  buckets: TokenBuckets,
): WriteBudget | null {
  if (settings === null) return null;
  const minute = { capacity: settings.burst, perMinute: settings.perMinute };
  return new WriteBudget({
    buckets,
    minute: yielding(minute),
    hour: settings.perHour === null ? null : yielding(hourlyWriteShape(settings.perHour)),
    maxWaitMs: settings.maxWaitMs,
    clock: systemClock,
  });
}

/**
 * A board edit leaves a third of each bucket for the rest (none when it holds 1): in the
 * hourly one too, so when an installation nears GitHub's hourly limit the boards stop first
 * and the consensus comments, reviews and checks still go out (500: 33 of the 100 kept).
 */
function yielding(shape: { capacity: number; perMinute: number }): WriteLimit {
  return {
    shape,
    reserve: Math.min(shape.capacity - 1, Math.max(1, Math.round(shape.capacity / 3))),
  };
}
