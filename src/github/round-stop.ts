import { cancelledCheck, supersededCheck, supersededReason } from "../render/index.js";
import type { RunStore, StoredRound } from "../run/store/index.js";
import type { RoundClosing } from "./end-round.js";
import type { RoundRegistry, StopReason } from "./round-registry.js";

/** What a running round asks about its own stopping. */
export interface RoundStop {
  /** Aborted when anything stops the round; every reviewer listens to it. */
  signal: AbortSignal;
  /**
   * Why the round stopped, or null. A cancellation from the queue says only why; the
   * store says whether a newer push superseded the round, and by which SHA.
   */
  settled(): Promise<StopReason | null>;
  /** Shutdown and lost jobs hand the round over: nothing may say it ended. */
  handedOver(): boolean;
  /**
   * Whether this worker still holds the round. Every take of a round counts an attempt
   * in the store, so a worker whose round another one took (its job lost) sees a higher
   * count than its own: the round is then stopped here as lost and it writes nothing more.
   */
  holding(): Promise<boolean>;
  /**
   * Asked before each publishing step: why the round must stop now, or null. Besides this
   * process's signal it reads the store, where a newer push (received by any process)
   * supersedes the round at once, before its job's cancellation reaches this worker; a stop
   * found there is passed on to the signal.
   */
  current(): Promise<StopReason | null>;
}

/** The stop handling of one registered round. */
export function roundStop(
  registration: ReturnType<RoundRegistry["register"]>,
  round: StoredRound,
  store: RunStore,
): RoundStop {
  const mine = round.attempts + 1;
  const { signal, stopReason, stop } = registration;
  const settled = async (): Promise<StopReason | null> => {
    const reason = stopReason();
    if (reason?.kind !== "cancelled") return reason;
    const by = (await store.findRound(round.id))?.supersededBy ?? null;
    return by === null ? reason : { kind: "superseded", by };
  };
  return {
    signal,
    settled,
    current: async () => {
      const reason = await settled();
      if (reason !== null) return reason;
      const stored = await store.findRound(round.id);
      if (stored === null || stored.attempts > mine || stored.state !== "running") {
        // Superseded or cancelled elsewhere ends the round here; anything else (another worker
        // took it, or finished it) means this worker writes nothing more.
        const found: StopReason =
          stored?.state === "cancelled"
            ? stored.supersededBy === null
              ? { kind: "cancelled", reason: stored.failure ?? "cancelled" }
              : { kind: "superseded", by: stored.supersededBy }
            : { kind: "lost" };
        stop(found);
        return found;
      }
      return null;
    },
    handedOver: () => {
      const kind = stopReason()?.kind;
      return kind === "shutdown" || kind === "lost";
    },
    holding: async () => {
      if (stopReason()?.kind === "lost") return false;
      const current = await store.findRound(round.id);
      if (current !== null && current.attempts > mine) {
        stop({ kind: "lost" });
        return false;
      }
      return true;
    },
  };
}

/** How a superseded or cancelled round ends: its reason (for the board), the store's record, its check. */
export function cancelledClosing(
  stop: Extract<StopReason, { kind: "superseded" | "cancelled" }>,
): RoundClosing & { reason: string } {
  if (stop.kind === "superseded") {
    const reason = supersededReason(stop.by);
    return {
      reason,
      ending: { state: "cancelled", failure: reason, supersededBy: stop.by },
      conclusion: "cancelled",
      check: supersededCheck(stop.by),
    };
  }
  return {
    reason: stop.reason,
    ending: { state: "cancelled", failure: stop.reason },
    conclusion: "cancelled",
    check: cancelledCheck(stop.reason),
  };
}
