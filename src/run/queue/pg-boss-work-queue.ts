import { createRequire } from "node:module";
import type pg from "pg";
import type PgBoss from "pg-boss";
import { type Clock, sleep, systemClock, waitAtMost } from "../../time/index.js";
import { MAX_ROUND_ATTEMPTS } from "../round-attempts.js";
import { migrations } from "../store/migrations.js";
import { applyPostgresMigrations } from "../store/postgres-migrations.js";
import { postgresOpenError } from "../store/postgres-open-error.js";
import { createPostgresPool, describePostgresTarget } from "../store/postgres-pool.js";
import { retryOnDeadlock } from "../store/retry-on-deadlock.js";
import { fairPriority } from "./fair-priority.js";
import { JobStopError } from "./job-stop-error.js";
import { pgBossJobSql } from "./pg-boss-job-sql.js";
import { CANCEL_CHANNEL, PostgresCancellationListener } from "./postgres-cancellation-listener.js";
import { roundJobId } from "./round-job-id.js";
import type {
  EnqueueOptions,
  JobHandler,
  QueueDepth,
  RoundJob,
  WorkOptions,
  WorkQueue,
} from "./work-queue.js";

export interface PgBossWorkQueueOptions {
  /** The run store's database (GADFLY_DATABASE_URL). */
  url: string;
  queueName?: string;
  /** pg-boss's schema. */
  schema?: string;
  /**
   * A job whose worker sent no heartbeat for this long is given to another
   * worker. Heartbeats go every third of it.
   */
  visibilityTimeoutMs?: number;
  /** How often an idle worker looks for a job. */
  pollIntervalMs?: number;
  /** Takes of a job before it is given up (the handler sees `lastAttempt`); the round's cap by default. */
  maxAttempts?: number;
  /** Wait before a failed job is taken again. */
  retryDelaySeconds?: number;
  /** Run pg-boss's maintenance here, which hands expired jobs back; at least one process must. */
  supervise?: boolean;
  /** How often maintenance runs; a dead worker's job waits up to this beyond the visibility timeout. */
  maintenanceIntervalSeconds?: number;
  clock?: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  onError?: (error: unknown, context: string) => void;
}

interface Held {
  job: RoundJob;
  jobId: string;
  /** pg-boss's retry_count when taken: identifies this attempt. */
  fence: number;
  controller: AbortController;
  lastBeat: number;
  timer: unknown;
}

type Outcome = "complete" | "fail" | "release";

const DEFAULT_QUEUE = "gadfly-rounds";

/**
 * The WorkQueue over PostgreSQL: pg-boss stores the jobs, hands each to one
 * worker (`FOR UPDATE SKIP LOCKED`) and retries the jobs of workers that
 * died (their expiry passes). Gadfly adds heartbeats that push the expiry
 * while a worker is alive, a fence so a worker that lost its job cannot
 * complete another worker's attempt, cancellation by NOTIFY (with a table
 * the heartbeat reads, for notifications missed), and the fairness priority.
 */
export class PgBossWorkQueue implements WorkQueue {
  private readonly boss: PgBoss;
  private readonly pool: pg.Pool;
  private readonly listener: PostgresCancellationListener;
  private readonly name: string;
  private readonly sql: ReturnType<typeof pgBossJobSql>;
  private readonly visibilityMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly retryDelaySeconds: number;
  private readonly clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  private readonly onError: (error: unknown, context: string) => void;
  private readonly held = new Map<string, Held>();
  private readonly finishing = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private wakeup = new AbortController();
  private loop: Promise<void> | null = null;

  /**
   * Connects, creates what is missing (store tables, pg-boss's schema, the
   * queue) and listens; throws StoreOpenError (without the password) when it cannot.
   */
  static async start(options: PgBossWorkQueueOptions): Promise<PgBossWorkQueue> {
    const clock = options.clock ?? systemClock;
    const onError = options.onError ?? (() => undefined);
    const visibilityMs = options.visibilityTimeoutMs ?? 60_000;
    const pool = createPostgresPool({
      url: options.url,
      maxConnections: 3,
      applicationName: "gadfly-queue",
      onIdleError: (error) => onError(error, "idle connection"),
    });
    const target = describePostgresTarget(options.url);
    // Required here, not at start-up: a deployment on SQLite never loads pg-boss.
    const PgBossClass = createRequire(import.meta.url)("pg-boss") as typeof PgBoss;
    const boss = new PgBossClass({
      connectionString: options.url,
      schema: options.schema ?? "pgboss",
      application_name: "gadfly-pg-boss",
      max: 4,
      schedule: false,
      supervise: options.supervise ?? true,
      maintenanceIntervalSeconds:
        options.maintenanceIntervalSeconds ?? Math.max(1, Math.round(visibilityMs / 2000)),
    });
    boss.on("error", (error) => onError(error, "pg-boss"));
    let listener: PostgresCancellationListener | undefined;
    try {
      await retryOnDeadlock(() => applyPostgresMigrations(pool, target, migrations, clock.now()), {
        clock,
      });
      await boss.start();
      // Another process's pg-boss maintenance can deadlock with the queue's creation (a
      // partition attached to pg-boss's job table): the loser's transaction is rolled back.
      await retryOnDeadlock(() => boss.createQueue(options.queueName ?? DEFAULT_QUEUE), { clock });
      const queue: { current?: PgBossWorkQueue } = {};
      listener = await PostgresCancellationListener.start({
        url: options.url,
        clock,
        onCancel: (roundId, reason) => queue.current?.abortHeld(roundId, reason),
        onReconnect: () => queue.current?.beatAll(),
        onError: (error) => onError(error, "cancellation listener"),
      });
      queue.current = new PgBossWorkQueue(options, { boss, pool, listener, clock, onError });
      return queue.current;
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
      listener: PostgresCancellationListener;
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
    this.sql = pgBossJobSql(options.schema ?? "pgboss");
    this.visibilityMs = options.visibilityTimeoutMs ?? 60_000;
    this.pollMs = options.pollIntervalMs ?? 1000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? MAX_ROUND_ATTEMPTS);
    this.retryDelaySeconds = options.retryDelaySeconds ?? 10;
  }

  async enqueue(job: RoundJob, options: EnqueueOptions = {}): Promise<boolean> {
    const delayMs = Math.max(0, Math.round(options.delayMs ?? 0));
    const { rows } = await this.pool.query<{ backlog: number }>(this.sql.backlog, [
      this.name,
      String(job.installationId),
    ]);
    const id = await this.boss.send(this.name, job, {
      id: roundJobId(job.roundId),
      priority: fairPriority(rows[0]?.backlog ?? 0),
      expireInSeconds: Math.max(1, Math.ceil(this.visibilityMs / 1000)),
      retryLimit: this.maxAttempts - 1,
      retryDelay: this.retryDelaySeconds,
      // Relative to the database's clock (pg-boss adds it to now()), so a receiver's clock skew
      // does not shift the quiet period. A string: pg-boss reads a number of seconds only above 0.
      ...(delayMs > 0 ? { startAfter: `${delayMs / 1000} seconds` } : {}),
    });
    if (id === null) await this.bringForward(job.roundId, delayMs);
    this.wake();
    return id !== null;
  }

  /** A job already queued but not yet taken starts no later than `delayMs` from now. */
  private async bringForward(roundId: string, delayMs: number): Promise<void> {
    await this.pool.query(this.sql.bringForward, [this.name, roundJobId(roundId), delayMs]);
  }

  async work(handler: JobHandler, options: WorkOptions): Promise<void> {
    if (this.loop !== null) throw new Error("work() was already called on this queue");
    this.loop = this.takeJobs(handler, Math.max(1, options.concurrency));
  }

  async cancel(roundId: string, reason: string): Promise<void> {
    // One statement: the row and the notification commit together.
    await this.pool.query(
      `WITH recorded AS (
         INSERT INTO queue_cancellations (round_id, reason) VALUES ($1, $2)
         ON CONFLICT (round_id) DO NOTHING
       ), pruned AS (
         DELETE FROM queue_cancellations WHERE cancelled_at < now() - interval '7 days'
       )
       SELECT pg_notify($3, $4)`,
      [roundId, reason, CANCEL_CHANNEL, JSON.stringify({ roundId, reason: reason.slice(0, 500) })],
    );
    // A job still waiting out its quiet period is taken now, only to end.
    await this.bringForward(roundId, 0);
    this.wake();
  }

  async depth(): Promise<QueueDepth> {
    const [queued, { rows }] = await Promise.all([
      this.boss.getQueueSize(this.name),
      this.pool.query<{ active: number }>(this.sql.active, [this.name]),
    ]);
    return { queued, active: rows[0]?.active ?? 0 };
  }

  async stop(graceMs: number): Promise<void> {
    if (!this.stopping.signal.aborted) {
      this.stopping.abort();
      for (const held of this.held.values()) this.abort(held, new JobStopError("shutdown"));
    }
    // The loop ends within one fetch; after it, no job is taken here, so `finishing` is complete.
    await this.loop?.catch(() => undefined);
    await waitAtMost(Promise.allSettled([...this.finishing]), graceMs, this.clock);
    // Handlers still running past the grace period: their jobs go back now, for another worker.
    await Promise.allSettled([...this.held.values()].map((held) => this.finish(held, "release")));
    await this.listener.close();
    await this.boss.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  private async takeJobs(handler: JobHandler, concurrency: number): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const waitSignal = AbortSignal.any([this.stopping.signal, this.wakeup.signal]);
      if (this.held.size >= concurrency) {
        await this.pause(waitSignal);
        continue;
      }
      const jobs = await this.boss
        .fetch<RoundJob>(this.name, { batchSize: 1, includeMetadata: true })
        .catch((error: unknown) => {
          this.onError(error, "fetch");
          return [];
        });
      const job = jobs[0];
      if (job === undefined) {
        await this.pause(waitSignal);
        continue;
      }
      if (this.stopping.signal.aborted) {
        // Taken while stop() began: straight back to the queue, unstarted.
        this.track(this.settle(job.id, job.retryCount, "release"));
        return;
      }
      this.start(job, handler);
    }
  }

  /** One poll interval, cut short by a stop or a wake-up: either way the loop looks again. */
  private async pause(waitSignal: AbortSignal): Promise<void> {
    await sleep(this.pollMs, { signal: waitSignal, clock: this.clock }).catch(() => {});
  }

  private start(job: PgBoss.JobWithMetadata<RoundJob>, handler: JobHandler): void {
    const held: Held = {
      job: job.data,
      jobId: job.id,
      fence: job.retryCount,
      controller: new AbortController(),
      lastBeat: this.clock.now(),
      timer: null,
    };
    if (!isRoundJob(job.data)) {
      // Not ours to run, and retrying cannot fix it: completed so it leaves the queue.
      this.onError(new Error(`job ${job.id} carries no round`), "take");
      this.track(this.settle(held.jobId, held.fence, "complete"));
      return;
    }
    this.held.set(held.job.roundId, held);
    const taken = {
      job: held.job,
      attempt: job.retryCount + 1,
      lastAttempt: job.retryCount >= job.retryLimit,
      signal: held.controller.signal,
    };
    const run = async (): Promise<void> => {
      // The first beat also catches a cancellation recorded before the job was taken.
      await this.beat(held);
      if (JobStopError.of(held.controller.signal)?.kind === "lost") return;
      let outcome: "complete" | "fail" = "complete";
      try {
        await handler(taken);
      } catch (error) {
        this.onError(error, `round ${held.job.roundId}`);
        outcome = "fail";
      }
      const stop = JobStopError.of(held.controller.signal);
      await this.finish(held, stop?.kind === "shutdown" ? "release" : outcome);
    };
    this.track(run());
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => this.onError(error, "finishing a job"))
      .finally(() => {
        this.finishing.delete(tracked);
        this.wake();
      });
    this.finishing.add(tracked);
  }

  /** Extends the attempt's lease; aborts the handler when the job was lost or cancelled. */
  private async beat(held: Held): Promise<void> {
    if (this.held.get(held.job.roundId) !== held) return;
    try {
      const { rows } = await this.pool.query<{ held: number; cancelled: string | null }>(
        this.sql.heartbeat,
        [this.name, held.jobId, this.visibilityMs, held.fence, held.job.roundId],
      );
      const row = rows[0];
      if (row === undefined || row.held === 0) {
        this.abort(held, new JobStopError("lost"));
        this.forget(held);
        return;
      }
      held.lastBeat = this.clock.now();
      if (row.cancelled !== null) this.abort(held, new JobStopError("cancelled", row.cancelled));
    } catch (error) {
      this.onError(error, "heartbeat");
      // Past the visibility timeout another worker may hold the job: stop rather than race it.
      if (this.clock.now() - held.lastBeat >= this.visibilityMs) {
        this.abort(held, new JobStopError("lost"));
        this.forget(held);
        return;
      }
    }
    if (this.held.get(held.job.roundId) === held) {
      held.timer = this.clock.setTimeout(() => void this.beat(held), this.visibilityMs / 3);
    }
  }

  /** Completes, fails or releases the attempt, if this worker still holds it. */
  private async finish(held: Held, outcome: Outcome): Promise<void> {
    if (this.forget(held)) await this.settle(held.jobId, held.fence, outcome);
  }

  /** Writes the attempt's outcome, fenced: nothing happens if another attempt holds the job now. */
  private async settle(jobId: string, fence: number, outcome: Outcome): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      // The row lock keeps maintenance from expiring the attempt between the check and the write.
      const locked = await client.query(this.sql.lockAttempt, [this.name, jobId, fence]);
      if (locked.rowCount === 1) {
        const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
        if (outcome === "complete") await this.boss.complete(this.name, jobId, {}, { db });
        else {
          await this.boss.fail(this.name, jobId, { outcome }, { db });
          if (outcome === "release") await client.query(this.sql.retryNow, [this.name, jobId]);
        }
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Stops tracking the attempt here; false when it was no longer tracked. */
  private forget(held: Held): boolean {
    this.clock.clearTimeout(held.timer);
    if (this.held.get(held.job.roundId) !== held) return false;
    this.held.delete(held.job.roundId);
    return true;
  }

  private abort(held: Held, reason: JobStopError): void {
    if (!held.controller.signal.aborted) held.controller.abort(reason);
  }

  private abortHeld(roundId: string, reason: string): void {
    const held = this.held.get(roundId);
    if (held !== undefined) this.abort(held, new JobStopError("cancelled", reason));
  }

  /** After the listener reconnects: notifications may have been missed, so look now. */
  private beatAll(): void {
    for (const held of this.held.values()) {
      this.clock.clearTimeout(held.timer);
      void this.beat(held);
    }
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
