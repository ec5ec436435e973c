export interface ReviewerJob {
  id: string;
  durationMs: number;
}

export interface ScheduleBounds {
  longestChainMs: number;
  /** Total work spread evenly over the slots. */
  workPerSlotMs: number;
  /** max(longest chain, work / slots): no schedule can beat it. */
  lowerBoundMs: number;
  /** Greedy list scheduling in the given order: what a zero-overhead FIFO limiter achieves. */
  fifoMs: number;
  /** Greedy list scheduling, longest first: what knowing every duration in advance would buy. */
  lptMs: number;
}

/** The references a round's makespan is judged against, for `concurrency` slots. */
export function scheduleBounds(jobs: readonly ReviewerJob[], concurrency: number): ScheduleBounds {
  const durations = jobs.map((job) => job.durationMs);
  const longestChainMs = Math.max(0, ...durations);
  const workPerSlotMs = durations.reduce((sum, duration) => sum + duration, 0) / concurrency;
  return {
    longestChainMs,
    workPerSlotMs,
    lowerBoundMs: Math.max(longestChainMs, workPerSlotMs),
    fifoMs: listSchedule(durations, concurrency),
    lptMs: listSchedule(
      [...durations].sort((left, right) => right - left),
      concurrency,
    ),
  };
}

/** Each job, in order, starts on the slot that frees first. */
function listSchedule(durations: readonly number[], concurrency: number): number {
  const slots = Array.from({ length: Math.max(1, concurrency) }, () => 0);
  for (const duration of durations) {
    let earliest = 0;
    for (let index = 1; index < slots.length; index++) {
      if ((slots[index] ?? 0) < (slots[earliest] ?? 0)) earliest = index;
    }
    slots[earliest] = (slots[earliest] ?? 0) + duration;
  }
  return Math.max(...slots);
}
