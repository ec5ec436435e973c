// What both stores make of a `rounds` row after a transition: the same answers from either.
import { isLive } from "../round-machine.js";
import type { RowTransition } from "./round-transition-sql.js";
import type { ClaimOutcome, DueRound, RoundEnding } from "./run-store.js";
import { type RoundRow, roundFromRow } from "./store-rows.js";

/** The round this worker just claimed (or took over), with its lease. */
export function claimedOutcome(row: RoundRow, tookOver: boolean): ClaimOutcome {
  const round = roundFromRow(row);
  return {
    kind: "claimed",
    round,
    lease: { roundId: round.id, epoch: round.leaseEpoch },
    tookOver,
  };
}

/** Why a claim took nothing: ended, not yet due, or held by a live lease. */
export function unclaimedOutcome(row: RoundRow, now: number): ClaimOutcome {
  const round = roundFromRow(row);
  if (!isLive(round.state)) return { kind: "ended", round };
  if (round.state === "queued") {
    return { kind: "not-due", round, dueInMs: Math.max(0, Number(row.not_before ?? now) - now) };
  }
  return { kind: "held", round };
}

/** A live round and how soon it is due (queued: its `not_before`; running: its lease's end). */
export function dueRoundOf(row: RoundRow, now: number): DueRound {
  const state = row.state === "running" ? "running" : "queued";
  const at = state === "running" ? row.lease_expires_at : row.not_before;
  return {
    roundId: row.id,
    installationId: Number(row.installation_id),
    state,
    dueInMs: at === null ? 0 : Math.max(0, Number(at) - now),
  };
}

/** The transition a holder's ending takes. */
export function endingTransition(ending: RoundEnding): RowTransition {
  switch (ending.state) {
    case "completed":
      return "complete";
    case "failed":
      return "fail";
    case "cancelled":
      return "cancel";
  }
}

/** The values an ending writes: its public reason and, cancelled by a newer head, that SHA. */
export function endingValues(ending: RoundEnding): Record<string, string | null> {
  return {
    failure: ending.state === "completed" ? null : (ending.failure ?? null),
    superseded_by: ending.state === "cancelled" ? (ending.supersededBy ?? null) : null,
  };
}
