import type { BucketRequest, TokenBucketShape, TokenBuckets } from "../run/queue/index.js";
import { type Clock, sleep } from "../time/index.js";

/**
 * `board`: a status-board edit, which yields: it takes a token only while each bucket keeps
 * its `reserve` more, and after every `normal` write waiting in this process. `normal`:
 * everything else we create on GitHub (the consensus comment, the review, check runs,
 * reactions, replies).
 */
export type WritePriority = "board" | "normal";

/** One of the buckets every write of an installation draws from. */
export interface WriteLimit {
  shape: TokenBucketShape;
  /** Tokens a board edit must leave in the bucket: kept for final comments, reviews, checks. */
  reserve: number;
}

export interface WriteBudgetOptions {
  buckets: TokenBuckets;
  /** GitHub's per-minute limit: bucket `github-writes:<installation>`. */
  minute: WriteLimit;
  /** GitHub's hourly limit: bucket `github-writes-hour:<installation>`; null: none. */
  hour: WriteLimit | null;
  /** The longest a write waits for a token before it fails with WriteBudgetTimeoutError. */
  maxWaitMs: number;
  clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  /** Spreads processes that would ask again at the same moment (default Math.random). */
  random?: () => number;
}

/** A write waited longer than the budget allows: GitHub is asked for more than the budget gives. */
export class WriteBudgetTimeoutError extends Error {
  override readonly name = "WriteBudgetTimeoutError";

  constructor(
    installationId: number,
    waitedMs: number,
    options: WriteBudgetOptions,
    cause: unknown,
  ) {
    super(
      `GitHub write budget: a content-creating request for installation ${installationId} ` +
        `waited ${Math.round(waitedMs / 1000)} s for a token and gave up ` +
        `(${options.minute.shape.perMinute} a minute, burst ${options.minute.shape.capacity}; ` +
        `${hourly(options.hour)}; GADFLY_GITHUB_WRITES_PER_MINUTE, ` +
        "GADFLY_GITHUB_WRITES_PER_HOUR, GADFLY_GITHUB_WRITE_WAIT_SECONDS)" +
        (cause === undefined ? "" : `; the budget could not be read: ${String(cause)}`),
      cause === undefined ? undefined : { cause },
    );
  }
}

/** The most the hourly bucket gives in any hour: its burst and an hour's refill. */
function hourly(hour: WriteLimit | null): string {
  if (hour === null) return "no hourly limit";
  return `at most ${Math.round(hour.shape.capacity + hour.shape.perMinute * 60)} an hour`;
}

interface Waiter {
  priority: WritePriority;
  resolve(): void;
  reject(error: unknown): void;
}

interface Lane {
  waiters: Waiter[];
  /** Whether a pump serves the lane (one per lane and process). */
  pumping: boolean;
  /** Ends the pump's wait early: a normal write arrived behind a board edit. */
  wake: AbortController | null;
  /** Why the bucket could not be read last time, until it can again. */
  failure: unknown;
}

/** A database error is asked again after this; the waiter's own bound still applies. */
const RETRY_AFTER_ERROR_MS = 1_000;
/** The least wait after a refusal: a bucket short of a sliver is not asked again at once. */
const MIN_WAIT_MS = 20;

/**
 * GitHub's content-creating requests, drawn from two token buckets per installation, GitHub's
 * minute and its hour (`TokenBuckets`: in PostgreSQL every process of the deployment shares
 * them): a write takes one token from each at once, or none. In this process the writes
 * waiting for one installation queue in one lane: normal writes first, then board edits, each
 * in arrival order; only the lane's head asks the buckets, and a refusal waits on the clock
 * for the tokens it lacks in the slowest bucket (never a busy loop), or until a normal write
 * arrives.
 */
export class WriteBudget {
  private readonly options: WriteBudgetOptions;
  private readonly random: () => number;
  private readonly lanes = new Map<number, Lane>();

  constructor(options: WriteBudgetOptions) {
    this.options = options;
    this.random = options.random ?? Math.random;
  }

  /**
   * Resolves once a token is taken for one content-creating request to this installation.
   * Rejects with WriteBudgetTimeoutError after `maxWaitMs` (the budget's, or a shorter one the
   * write names: a webhook handler must answer within GitHub's 10 s), or with the signal's reason.
   */
  take(
    installationId: number,
    priority: WritePriority,
    signal?: AbortSignal,
    maxWaitMs = this.options.maxWaitMs,
  ): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const { clock } = this.options;
    const lane = this.laneOf(installationId);
    const startedAt = clock.now();
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => {
        clock.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const index = lane.waiters.indexOf(waiter);
        if (index >= 0) lane.waiters.splice(index, 1);
        if (error === undefined) resolve();
        else reject(error);
      };
      const waiter: Waiter = { priority, resolve: () => settle(), reject: settle };
      const onAbort = () => settle(signal?.reason);
      const timer = clock.setTimeout(
        () =>
          settle(
            new WriteBudgetTimeoutError(
              installationId,
              clock.now() - startedAt,
              this.options,
              lane.failure,
            ),
          ),
        Math.min(maxWaitMs, this.options.maxWaitMs),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      lane.waiters.push(waiter);
      if (!lane.pumping) void this.pump(installationId, lane);
      else if (priority === "normal") lane.wake?.abort();
    });
  }

  /** The normal writes first, then the board edits, each in arrival order. */
  private headOf(lane: Lane): Waiter | undefined {
    return lane.waiters.find((waiter) => waiter.priority === "normal") ?? lane.waiters[0];
  }

  private laneOf(installationId: number): Lane {
    let lane = this.lanes.get(installationId);
    if (lane === undefined) {
      lane = { waiters: [], pumping: false, wake: null, failure: undefined };
      this.lanes.set(installationId, lane);
    }
    return lane;
  }

  private async pump(installationId: number, lane: Lane): Promise<void> {
    const { buckets, minute, hour, clock } = this.options;
    const limits: [string, WriteLimit][] = [[`github-writes:${installationId}`, minute]];
    if (hour !== null) limits.push([`github-writes-hour:${installationId}`, hour]);
    lane.pumping = true;
    for (let head = this.headOf(lane); head !== undefined; head = this.headOf(lane)) {
      const board = head.priority === "board";
      const requests: BucketRequest[] = limits.map(([key, { shape, reserve }]) => ({
        key,
        shape,
        need: board ? 1 + reserve : 1,
      }));
      let wait: number;
      try {
        const taken = await buckets.take(requests, clock.now());
        lane.failure = undefined;
        if (taken.granted) {
          // The head may have given up meanwhile: the token goes to whoever is first now.
          this.headOf(lane)?.resolve();
          continue;
        }
        // The tokens each bucket lacks come at its own rate: the slowest sets the wait.
        const waits = requests.map(({ shape, need }, index) => {
          const missing = Math.max(0, need - (taken.tokens[index] ?? 0));
          return (missing * 60_000) / shape.perMinute;
        });
        wait = Math.max(MIN_WAIT_MS, ...waits);
        wait *= 1 + 0.1 * this.random();
      } catch (error) {
        // The database is away for now: asked again until each waiter's own bound.
        lane.failure = error;
        wait = RETRY_AFTER_ERROR_MS;
      }
      if (lane.waiters.length === 0) break;
      const wake = new AbortController();
      lane.wake = wake;
      await sleep(wait, { signal: wake.signal, clock }).catch(() => undefined);
      lane.wake = null;
    }
    // No await since the loop saw the lane empty: no waiter can have joined it.
    lane.pumping = false;
    this.lanes.delete(installationId);
  }
}
