import { setMaxListeners } from "node:events";
import type { Clock } from "../time/index.js";
import type { RoundLeaseRef, StopReason } from "./round-machine.js";
import { supersededReason } from "./round-machine.js";
import type { LeaseOutcome, RoundEnding, RunStore, StoredRound } from "./store/run-store.js";

export interface RoundLeaseOptions {
  store: Pick<RunStore, "renewLease" | "releaseRound" | "retryRound" | "holdRound" | "finishRound">;
  lease: RoundLeaseRef;
  /** How long the lease holds unrenewed; it is renewed every third of it. */
  leaseMs: number;
  clock: Pick<Clock, "now" | "setTimeout" | "clearTimeout">;
  /** A renewal that could not reach the store (the lease holds until it runs out). */
  onError?: (error: unknown) => void;
}

/**
 * A worker's hold on one claimed round: the signal every model call, tool loop and agent process
 * of the round listens to, kept alive by renewing the lease, and the round's fenced transitions.
 * Whatever stops the round — a newer head or a cancellation (read from the store at each renewal
 * and whenever `check` is asked), this process shutting down, the lease lost to another worker,
 * or the round's own end — aborts the one signal, with the reason `reason()` names.
 */
export class RoundLease {
  readonly ref: RoundLeaseRef;
  private readonly options: RoundLeaseOptions;
  private readonly controller = new AbortController();
  private stopped: StopReason | null = null;
  private timer: unknown = null;
  private renewedAt: number;
  private renewing: Promise<StopReason | null> | null = null;

  constructor(options: RoundLeaseOptions) {
    this.options = options;
    this.ref = options.lease;
    this.renewedAt = options.clock.now();
    // Every reviewer of the round (and its deadline) listens to this one signal.
    setMaxListeners(0, this.controller.signal);
    this.schedule();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the round stopped, as far as this process knows; null while it runs. */
  reason(): StopReason | null {
    return this.stopped;
  }

  /** Stops the round here; the first reason wins. */
  stop(reason: StopReason): void {
    if (this.stopped !== null) return;
    this.stopped = reason;
    this.clearTimer();
    this.controller.abort(abortMessage(reason));
  }

  /**
   * Renews the lease now and says whether the round must stop: superseded or cancelled (the
   * store says so, whichever process decided it), lost (another worker holds it), or already
   * stopped here. Asked before each publishing step.
   */
  async check(): Promise<StopReason | null> {
    if (this.stopped !== null) return this.stopped;
    this.renewing ??= this.renew().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  /** `release`: a shutting-down worker hands the round back (no attempt spent). */
  async release(): Promise<boolean> {
    this.stop(this.stopped ?? { kind: "shutdown" });
    return (await this.options.store.releaseRound(this.ref)).ok;
  }

  /** `retry`: the round could not start; due again after `delayMs` (an attempt spent). */
  async retry(delayMs: number): Promise<boolean> {
    this.stop({ kind: "ended" });
    return (await this.options.store.retryRound(this.ref, delayMs)).ok;
  }

  /**
   * `hold`: a reader limit applies again at the claim; the round waits `delayMs` (until the
   * limit lifts) and counts as not run (no attempt spent).
   */
  async hold(delayMs: number): Promise<boolean> {
    this.stop({ kind: "ended" });
    return (await this.options.store.holdRound(this.ref, delayMs)).ok;
  }

  /**
   * Ends the round (`complete`, `fail`, `cancel`), fenced: false when it had already ended or
   * this worker no longer holds it. What is left of the round is stopped first, so nothing of
   * it runs after its end.
   */
  async finish(ending: RoundEnding): Promise<boolean> {
    this.stop({ kind: "ended" });
    return (await this.options.store.finishRound(this.ref, ending)).ok;
  }

  /** Stops renewing and aborts what is left (the round ended, or its worker gave it up). */
  end(): void {
    this.stop({ kind: "ended" });
  }

  private schedule(): void {
    this.clearTimer();
    if (this.stopped !== null) return;
    this.timer = this.options.clock.setTimeout(
      () => {
        this.timer = null;
        void this.check();
      },
      Math.max(1, Math.floor(this.options.leaseMs / 3)),
    );
  }

  private async renew(): Promise<StopReason | null> {
    try {
      const outcome = await this.options.store.renewLease(this.ref, this.options.leaseMs);
      if (outcome.ok) this.renewedAt = this.options.clock.now();
      else this.stop(stopOf(outcome, this.ref));
    } catch (error) {
      this.options.onError?.(error);
      // Past its end another worker may hold the round: stop rather than race it.
      if (this.options.clock.now() - this.renewedAt >= this.options.leaseMs) {
        this.stop({ kind: "lost" });
      }
    }
    if (this.stopped === null) this.schedule();
    return this.stopped;
  }

  private clearTimer(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Why a fenced transition was refused, as the round's stop. */
function stopOf(outcome: LeaseOutcome, lease: RoundLeaseRef): StopReason {
  const round: StoredRound | null = outcome.round;
  if (round?.state === "cancelled" && round.leaseEpoch === lease.epoch) {
    return round.supersededBy === null
      ? { kind: "cancelled", reason: round.failure ?? "cancelled" }
      : { kind: "superseded", by: round.supersededBy };
  }
  // Ended by another holder, taken over after this lease ran out, or gone.
  return { kind: "lost" };
}

/** What an aborted lens shows as its reason on the board. */
function abortMessage(reason: StopReason): string {
  switch (reason.kind) {
    case "superseded":
      return supersededReason(reason.by);
    case "cancelled":
      return reason.reason;
    case "shutdown":
      return "shutting down";
    case "lost":
      return "another worker took over the round";
    case "ended":
      return "the round ended";
  }
}
