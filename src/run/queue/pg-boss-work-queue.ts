import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { type Clock, sleep, systemClock, waitAtMost } from "../../time/index.js";
import { postgresOpenError } from "../store/postgres-open-error.js";
import { createPostgresPool, describePostgresTarget } from "../store/postgres-pool.js";
import { deadlockRetries, retryOnDeadlock } from "../store/retry-on-deadlock.js";
import { wakePriority } from "./fair-priority.js";
import { HINT_CHANNEL, PostgresHintListener } from "./postgres-hint-listener.js";
import type { EnqueueOptions, JobHandler, QueueDepth, RoundJob, WorkQueue } from "./work-queue.js";

export interface PgBossWorkQueueOptions {
  /** The run store's database (GADFLY_DATABASE_URL). */
  url: string;
  queueName?: string;
  /**
   * pg-boss's schema. Not pg-boss 10's `pgboss`: pg-boss 12 cannot migrate that schema, and it
   * need not — wake-ups carry no state (the rounds do, in the store), so a new queue starts empty
   * and the sweeper wakes every round the store says is due.
   */
  schema?: string;
  /** How often an idle worker looks for a wake-up. */
  pollIntervalMs?: number;
  /** Run pg-boss's maintenance here (deleting old wake-ups); at least one process must. */
  supervise?: boolean;
  clock?: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  onError?: (error: unknown, context: string) => void;
}

const DEFAULT_QUEUE = "gadfly-rounds";
export const DEFAULT_QUEUE_SCHEMA = "gadfly_queue";

/**
 * The WorkQueue over PostgreSQL: pg-boss stores the wake-ups and hands each to one worker
 * (`FOR UPDATE SKIP LOCKED`), in the order of the fairness priority, at most one waiting per
 * round (the `short` policy, keyed by round id). A wake-up is completed as soon as it is taken:
 * the round's lease in the store is what says a worker holds it, so pg-boss never retries, fails
 * or expires anything that matters, and a shutdown spends nothing of it. Hints go by NOTIFY.
 */
export class PgBossWorkQueue implements WorkQueue {
  private readonly boss: PgBoss;
  private readonly pool: pg.Pool;
  private readonly listener: PostgresHintListener;
  private readonly name: string;
  private readonly jobTable: string;
  private readonly pollMs: number;
  private readonly clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  private readonly onError: (error: unknown, context: string) => void;
  private readonly running = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private onHint: ((roundId: string) => void) | undefined;
  private wakeup = new AbortController();
  private loop: Promise<void> | null = null;

  /** Connects, creates pg-boss's schema and the queue, and listens; throws StoreOpenError. */
  static async start(options: PgBossWorkQueueOptions): Promise<PgBossWorkQueue> {
    const clock = options.clock ?? systemClock;
    const onError = options.onError ?? (() => undefined);
    const pool = createPostgresPool({
      url: options.url,
      maxConnections: 2,
      applicationName: "gadfly-queue",
      onIdleError: (error) => onError(error, "idle connection"),
    });
    const target = describePostgresTarget(options.url);
    // Imported here, not at start-up: a deployment on SQLite never loads pg-boss.
    const { PgBoss: PgBossClass } = await import("pg-boss");
    const schema = options.schema ?? DEFAULT_QUEUE_SCHEMA;
    const boss = new PgBossClass({
      connectionString: options.url,
      schema,
      application_name: "gadfly-pg-boss",
      max: 3,
      schedule: false,
      supervise: options.supervise ?? true,
      registerInstance: false,
    });
    boss.on("error", (error) => onError(error, "pg-boss"));
    let listener: PostgresHintListener | undefined;
    try {
      await boss.start();
      // Another process's maintenance can deadlock with the queue's creation: retried.
      const name = options.queueName ?? DEFAULT_QUEUE;
      await retryOnDeadlock(
        () => boss.createQueue(name, { policy: "short" }),
        deadlockRetries(clock),
      );
      const holder: { queue?: PgBossWorkQueue } = {};
      listener = await PostgresHintListener.start({
        url: options.url,
        clock,
        onHint: (roundId) => holder.queue?.onHint?.(roundId),
        onError: (error) => onError(error, "hint listener"),
      });
      holder.queue = new PgBossWorkQueue(options, { boss, pool, listener, clock, onError });
      return holder.queue;
    } catch (error) {
      await listener?.close();
      await boss.stop({ graceful: false, close: true }).catch(() => undefined);
      await pool.end().catch(() => undefined);
      throw postgresOpenError(target, error);
    }
  }

  private constructor(
    options: PgBossWorkQueueOptions,
    parts: {
      boss: PgBoss;
      pool: pg.Pool;
      listener: PostgresHintListener;
      clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
      onError: (error: unknown, context: string) => void;
    },
  ) {
    this.boss = parts.boss;
    this.pool = parts.pool;
    this.listener = parts.listener;
    this.clock = parts.clock;
    this.onError = parts.onError;
    this.name = options.queueName ?? DEFAULT_QUEUE;
    this.jobTable = `${quoteIdentifier(options.schema ?? DEFAULT_QUEUE_SCHEMA)}.job`;
    this.pollMs = options.pollIntervalMs ?? 1000;
  }

  async enqueue(job: RoundJob, options: EnqueueOptions = {}): Promise<boolean> {
    const delayMs = Math.max(0, Math.round(options.delayMs ?? 0));
    const { rows } = await this.pool.query<{ backlog: number }>(
      `SELECT count(*)::int AS backlog FROM ${this.jobTable}
       WHERE name = $1 AND state < 'active' AND data->>'installationId' = $2`,
      [this.name, String(job.installationId)],
    );
    const priority = wakePriority(rows[0]?.backlog ?? 0, options.resume === true);
    const id = await this.boss.send(
      this.name,
      { ...job },
      {
        singletonKey: job.roundId,
        priority,
        // Taken and completed at once: an attempt that dies in between is retried once, and the
        // sweeper wakes the round anyway.
        retryLimit: 1,
        expireInSeconds: 60,
        // Relative to the database's clock, so a receiver's clock skew does not shift the wait.
        ...(delayMs > 0 ? { startAfter: `${delayMs / 1000} seconds` } : {}),
      },
    );
    // One wake-up waits already: it takes the earliest time and the highest priority asked for,
    // so a take-over that meets the round's fresh wake-up still waiting keeps its place ahead (an
    // early one is harmless: the claim finds the round not yet due and wakes it again then).
    if (id === null) {
      await this.pool.query(
        `UPDATE ${this.jobTable}
         SET start_after = LEAST(start_after, now() + $3 * interval '1 millisecond'),
             priority = GREATEST(priority, $4)
         WHERE name = $1 AND singleton_key = $2 AND state < 'active'
           AND (start_after > now() + $3 * interval '1 millisecond' OR priority < $4)`,
        [this.name, job.roundId, delayMs, priority],
      );
    }
    this.wake();
    return id !== null;
  }

  async work(
    handler: JobHandler,
    concurrency: number,
    onHint?: (roundId: string) => void,
  ): Promise<void> {
    if (this.loop !== null) throw new Error("work() was already called on this queue");
    this.onHint = onHint;
    this.loop = this.takeJobs(handler, Math.max(1, concurrency));
  }

  async hint(roundId: string): Promise<void> {
    await this.pool.query("SELECT pg_notify($1, $2)", [HINT_CHANNEL, roundId]);
  }

  async depth(): Promise<QueueDepth> {
    const { rows } = await this.pool.query<{ queued: number }>(
      `SELECT count(*)::int AS queued FROM ${this.jobTable} WHERE name = $1 AND state < 'active'`,
      [this.name],
    );
    return { queued: rows[0]?.queued ?? 0, active: this.running.size };
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping.abort();
    this.wake();
    // The loop ends within one fetch; after it, nothing more is taken here.
    await this.loop?.catch(() => undefined);
    await waitAtMost(Promise.allSettled([...this.running]), graceMs, this.clock);
    await this.listener.close();
    await this.boss.stop({ graceful: false, close: true }).catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  private async takeJobs(handler: JobHandler, concurrency: number): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const waitSignal = AbortSignal.any([this.stopping.signal, this.wakeup.signal]);
      if (this.running.size >= concurrency) {
        await this.pause(waitSignal);
        continue;
      }
      const job = await this.takeOne();
      if (job === null) {
        await this.pause(waitSignal);
        continue;
      }
      this.start(job, handler);
    }
  }

  /** One wake-up, completed as it is taken; null when none is ready (or it carried no round). */
  private async takeOne(): Promise<RoundJob | null> {
    try {
      const [job] = await this.boss.fetch<RoundJob>(this.name, { batchSize: 1 });
      if (job === undefined) return null;
      await this.boss.complete(this.name, { id: job.id, retryCount: job.retryCount });
      if (isRoundJob(job.data))
        return { roundId: job.data.roundId, installationId: job.data.installationId };
      this.onError(new Error(`wake-up ${job.id} carries no round`), "take");
      return null;
    } catch (error) {
      this.onError(error, "fetch");
      return null;
    }
  }

  /** One poll interval, cut short by a stop or a wake-up: either way the loop looks again. */
  private async pause(waitSignal: AbortSignal): Promise<void> {
    await sleep(this.pollMs, { signal: waitSignal, clock: this.clock }).catch(() => {});
  }

  private start(job: RoundJob, handler: JobHandler): void {
    const run: Promise<void> = Promise.resolve()
      .then(() => handler({ job, signal: this.stopping.signal }))
      .catch((error: unknown) => this.onError(error, `round ${job.roundId}`))
      .finally(() => {
        this.running.delete(run);
        this.wake();
      });
    this.running.add(run);
  }

  private wake(): void {
    this.wakeup.abort();
    this.wakeup = new AbortController();
  }
}

function isRoundJob(data: unknown): data is RoundJob {
  if (typeof data !== "object" || data === null) return false;
  const { roundId, installationId } = data as Record<string, unknown>;
  return typeof roundId === "string" && typeof installationId === "number";
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
