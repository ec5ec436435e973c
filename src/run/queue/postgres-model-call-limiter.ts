import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type pg from "pg";
import type { ModelCallLimiter, ModelCallSlot, ProviderCap } from "../../llm/index.js";
import { type Clock, sleep, systemClock } from "../../time/index.js";
import { retryOnConnectionLoss } from "../store/postgres-pool.js";

export interface PostgresModelCallLimiterOptions {
  /** A pool on the run store's database (migration 2 created `model_call_slots`). */
  pool: pg.Pool;
  capFor: ProviderCap;
  /**
   * A slot not renewed for this long is free again: a worker that died
   * holding it gives it back after at most this. Renewed every third of it.
   */
  leaseMs?: number;
  /** How often a waiting call looks for a free slot (with jitter). */
  pollMs?: number;
  clock?: Pick<Clock, "setTimeout" | "clearTimeout">;
  random?: () => number;
  /** A held slot could not be renewed (the database was unreachable for longer than the lease). */
  onLeaseLost?: (provider: string) => void;
}

const TAKE = `
  UPDATE model_call_slots SET holder = $3, expires_at = clock_timestamp() + $4 * interval '1 millisecond'
  WHERE (provider, slot) = (
    SELECT provider, slot FROM model_call_slots
    WHERE provider = $1 AND slot < $2 AND (holder IS NULL OR expires_at < clock_timestamp())
    ORDER BY slot LIMIT 1
    FOR UPDATE SKIP LOCKED
  )
  RETURNING slot`;
const RENEW = `
  UPDATE model_call_slots SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
  WHERE provider = $1 AND slot = $2 AND holder = $3`;
const RELEASE = `
  UPDATE model_call_slots SET holder = NULL, expires_at = NULL
  WHERE provider = $1 AND slot = $2 AND holder = $3`;
const ENSURE = `
  INSERT INTO model_call_slots (provider, slot) SELECT $1, generate_series(0, $2::int - 1)
  ON CONFLICT DO NOTHING`;

/**
 * The per-provider cap shared by every worker: one row per slot, taken with
 * `FOR UPDATE SKIP LOCKED` so concurrent takers never wait on each other nor
 * take the same slot, and leased with the database's clock, so workers'
 * clocks never disagree on when a dead worker's slot is free again.
 */
export class PostgresModelCallLimiter implements ModelCallLimiter {
  private readonly pool: pg.Pool;
  private readonly capFor: ProviderCap;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly clock: Pick<Clock, "setTimeout" | "clearTimeout">;
  private readonly random: () => number;
  private readonly onLeaseLost: PostgresModelCallLimiterOptions["onLeaseLost"];
  private readonly ensured = new Map<string, number>();
  private readonly held = new Set<() => Promise<void>>();
  private readonly closing = new AbortController();

  constructor(options: PostgresModelCallLimiterOptions) {
    this.pool = options.pool;
    this.capFor = options.capFor;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.pollMs = options.pollMs ?? 250;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.onLeaseLost = options.onLeaseLost;
    // Every waiter without a signal of its own sleeps on this one: dozens at once are normal,
    // not the leak Node warns of past ten listeners.
    setMaxListeners(0, this.closing.signal);
  }

  async acquire(provider: string, signal?: AbortSignal): Promise<ModelCallSlot> {
    const cap = Math.max(1, Math.trunc(this.capFor(provider)));
    await this.ensureSlots(provider, cap);
    const holder = randomUUID();
    const stop =
      signal === undefined ? this.closing.signal : AbortSignal.any([signal, this.closing.signal]);
    for (;;) {
      stop.throwIfAborted();
      // A connection a database restart ended is replaced: the call waits, it does not fail.
      const { rows } = await retryOnConnectionLoss(() =>
        this.pool.query<{ slot: number }>(TAKE, [provider, cap, holder, this.leaseMs]),
      );
      const slot = rows[0]?.slot;
      if (slot !== undefined) return this.hold(provider, slot, holder);
      // An abort rejects with `stop`'s reason, as the throwIfAborted above would.
      await sleep(this.pollMs * (0.5 + this.random()), { signal: stop, clock: this.clock });
    }
  }

  async close(): Promise<void> {
    this.closing.abort(new Error("the model call limiter is closed"));
    await Promise.allSettled([...this.held].map((release) => release()));
  }

  private async ensureSlots(provider: string, cap: number): Promise<void> {
    if ((this.ensured.get(provider) ?? 0) >= cap) return;
    await retryOnConnectionLoss(() => this.pool.query(ENSURE, [provider, cap]));
    this.ensured.set(provider, cap);
  }

  private hold(provider: string, slot: number, holder: string): ModelCallSlot {
    const key = [provider, slot, holder] as const;
    let timer: unknown;
    let released = false;
    const renew = () => {
      timer = this.clock.setTimeout(() => {
        this.pool.query(RENEW, [...key, this.leaseMs]).then(
          (result) => {
            if (released) return;
            if (result.rowCount === 1) renew();
            else this.onLeaseLost?.(provider);
          },
          // Unreachable for now: try again; the lease outlives a few misses.
          () => {
            if (!released) renew();
          },
        );
      }, this.leaseMs / 3);
    };
    const release = async () => {
      if (released) return;
      released = true;
      this.clock.clearTimeout(timer);
      this.held.delete(release);
      await this.pool.query(RELEASE, [...key]);
    };
    this.held.add(release);
    renew();
    return { release };
  }
}
