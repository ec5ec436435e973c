import type { LensEvent } from "../agent/index.js";
import type { LensStatus, NotReviewed, ReviewerStatus, RoundStatus } from "./round-status.js";

export interface RoundStatusSeed {
  headSha: string;
  round: number;
  /** Reviewers in config order, each with its lenses in config order. */
  reviewers: { model: string; provider: string; lenses: string[] }[];
  notReviewed: NotReviewed[];
  resumed?: boolean;
}

/**
 * The status board's state, folded from lens events. Pure: `apply` returns a
 * new RoundStatus and never mutates the one it was given.
 */
export function initialRoundStatus(seed: RoundStatusSeed, now: number): RoundStatus {
  return {
    headSha: seed.headSha,
    round: seed.round,
    updatedAt: new Date(now),
    reviewers: seed.reviewers.map(
      (reviewer): ReviewerStatus => ({
        model: reviewer.model,
        provider: reviewer.provider,
        lenses: reviewer.lenses.map((lens): LensStatus => ({ lens, state: "queued" })),
      }),
    ),
    notReviewed: seed.notReviewed,
    finished: false,
    ...(seed.resumed === true ? { resumed: true } : {}),
  };
}

export function applyLensEvent(status: RoundStatus, event: LensEvent): RoundStatus {
  const reviewers = status.reviewers.map((reviewer) => {
    if (reviewer.model !== event.model) return reviewer;
    return {
      ...reviewer,
      lenses: reviewer.lenses.map((lens) =>
        lens.lens === event.lens ? withFailovers(lens, nextLensStatus(lens, event), event) : lens,
      ),
    };
  });
  return { ...status, reviewers, updatedAt: new Date(event.at) };
}

/** A lens's hops stay with it whatever its state; a failover event adds one. */
function withFailovers(current: LensStatus, next: LensStatus, event: LensEvent): LensStatus {
  if (next === current) return current;
  const hops = [
    ...(current.failovers ?? []),
    ...(event.type === "failover"
      ? [{ from: event.from, to: event.to, reason: event.reason }]
      : []),
  ];
  return hops.length === 0 ? next : { ...next, failovers: hops };
}

function nextLensStatus(current: LensStatus, event: LensEvent): LensStatus {
  // A lens that has ended stays ended: late events of an aborted call change nothing.
  if (hasEnded(current.state)) return current;
  switch (event.type) {
    case "queued":
      return { lens: current.lens, state: "queued" };
    case "running":
    case "tool":
      return { lens: current.lens, state: "running", turn: event.turn };
    case "verifying":
      return { ...current, state: "running" };
    case "done":
      return { lens: current.lens, state: "done", verdict: event.verdict };
    case "failed":
      return { lens: current.lens, state: "failed", reason: event.reason };
    case "cancelled":
      return { lens: current.lens, state: "cancelled", reason: event.reason };
    case "skipped":
      return { lens: current.lens, state: "skipped", reason: event.reason };
    case "failover":
      // The next model starts the lens afresh.
      return { lens: current.lens, state: "queued" };
  }
}

/** Done, failed, cancelled or skipped: nothing changes it any more. */
export function hasEnded(state: LensStatus["state"]): boolean {
  return state !== "queued" && state !== "running";
}

/** Marks every lens that has not ended as cancelled (a newer push, a shutdown). */
export function cancelRemaining(status: RoundStatus, reason: string, now: number): RoundStatus {
  return {
    ...status,
    updatedAt: new Date(now),
    reviewers: status.reviewers.map((reviewer) => ({
      ...reviewer,
      lenses: reviewer.lenses.map(
        (lens): LensStatus =>
          lens.state === "queued" || lens.state === "running"
            ? { lens: lens.lens, state: "cancelled", reason }
            : lens,
      ),
    })),
  };
}
