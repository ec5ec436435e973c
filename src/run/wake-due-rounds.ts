import type { Clock } from "../time/index.js";
import type { WorkQueue } from "./queue/work-queue.js";
import type { RunStore } from "./store/run-store.js";

export interface SweeperOptions {
  store: Pick<RunStore, "dueRounds">;
  queue: Pick<WorkQueue, "enqueue">;
  clock: Pick<Clock, "setTimeout" | "clearTimeout">;
  /** How often the store is read; a round whose lease ran out waits at most this for a wake-up. */
  intervalMs: number;
  onError?: (error: unknown) => void;
  /** Other claims whose leases lapse (thread answers), swept on the same cadence after rounds. */
  alsoSweep?: () => Promise<unknown>;
}

export interface Sweeper {
  /** Wakes every round due within the interval now; resolves with how many wake-ups were new. */
  sweep(): Promise<number>;
  stop(): void;
}

/**
 * Wakes the rounds the store says are due, whatever became of their wake-ups: a queued round
 * whose wake-up was lost (a receiver that died between recording and queueing it, a queue that
 * lived in the memory of a process that stopped), one handed back by a shutdown, one whose holder
 * crashed (its lease ran out). Queued rounds are woken when due (a quiet period's rest is kept);
 * a running round only when its lease runs out within the interval. Sweeps at once, then every
 * interval.
 */
export function startSweeper(options: SweeperOptions): Sweeper {
  let timer: unknown = null;
  let stopped = false;
  const sweep = async (): Promise<number> => {
    let woken = 0;
    for (const due of await options.store.dueRounds()) {
      if (due.state === "running" && due.dueInMs > options.intervalMs) continue;
      const job = { roundId: due.roundId, installationId: due.installationId };
      // A running round is due only once its holder's lease ran out: a take-over, ahead of fresh rounds.
      const wake = { delayMs: due.dueInMs, resume: due.state === "running" };
      if (await options.queue.enqueue(job, wake)) woken += 1;
    }
    // Its failure is reported, and never keeps the rounds from being woken.
    await options.alsoSweep?.().catch((error: unknown) => options.onError?.(error));
    return woken;
  };
  const schedule = () => {
    if (stopped) return;
    timer = options.clock.setTimeout(() => {
      sweep()
        .catch((error: unknown) => options.onError?.(error))
        .finally(schedule);
    }, options.intervalMs);
  };
  schedule();
  return {
    sweep,
    stop() {
      stopped = true;
      if (timer !== null) options.clock.clearTimeout(timer);
    },
  };
}
