import { setMaxListeners } from "node:events";
import { supersededReason } from "../render/index.js";
import { waitAtMost } from "../time/index.js";

/**
 * Why a running round stopped early. `superseded` and `cancelled` end the
 * round (its check is completed as cancelled); `shutdown` and `lost` write
 * nothing that says it ended: after a shutdown it resumes on the next start
 * or on another worker, and after `lost` another worker already holds it.
 */
export type StopReason =
  | { kind: "superseded"; by: string }
  | { kind: "cancelled"; reason: string }
  | { kind: "shutdown" }
  | { kind: "lost" };

interface Entry {
  controller: AbortController;
  stop: StopReason | null;
  done: Promise<void>;
}

/**
 * The rounds running in this process, so whatever stops a round (a newer
 * push, a cancellation from another process, a shutdown, a lost job) reaches
 * its reviewers, and a shutdown stops every round without recording it as
 * cancelled.
 */
export class RoundRegistry {
  private readonly running = new Map<string, Entry>();
  /** Stops that arrived while the round was being prepared, before it registered. */
  private readonly pending = new Map<string, StopReason>();
  private closing = false;

  get accepting(): boolean {
    return !this.closing;
  }

  get size(): number {
    return this.running.size;
  }

  /**
   * Registers a round; returns its signal, a function reading why it stopped,
   * and one stopping this registration only (not a later one of the same round).
   */
  register(
    roundId: string,
    done: Promise<void>,
  ): {
    signal: AbortSignal;
    stopReason: () => StopReason | null;
    stop: (reason: StopReason) => void;
  } {
    const entry: Entry = { controller: new AbortController(), stop: null, done };
    // Every reviewer of the round (and its deadline) listens to this one signal.
    setMaxListeners(0, entry.controller.signal);
    this.running.set(roundId, entry);
    void done.finally(() => {
      if (this.running.get(roundId) === entry) this.running.delete(roundId);
    });
    const early = this.pending.get(roundId);
    this.pending.delete(roundId);
    if (early !== undefined) this.apply(entry, early);
    return {
      signal: entry.controller.signal,
      stopReason: () => entry.stop,
      stop: (reason) => this.apply(entry, reason),
    };
  }

  has(roundId: string): boolean {
    return this.running.has(roundId);
  }

  supersede(roundId: string, newHeadSha: string): void {
    this.stop(roundId, { kind: "superseded", by: newHeadSha });
  }

  /**
   * Stops the round; the first reason wins. A round not registered yet (its
   * job is still loading the pull request) is stopped as soon as it registers,
   * unless `discard` is called first.
   */
  stop(roundId: string, reason: StopReason): void {
    const entry = this.running.get(roundId);
    if (entry === undefined) {
      if (!this.pending.has(roundId)) this.pending.set(roundId, reason);
      return;
    }
    this.apply(entry, reason);
  }

  /** Forgets a stop kept for a round that never registered (its job ended without running it). */
  discard(roundId: string): void {
    this.pending.delete(roundId);
  }

  /** Refuses new rounds from now on (webhooks answer 503); rounds running go on. */
  close(): void {
    this.closing = true;
  }

  /** Stops taking rounds, aborts the running ones and waits for them (up to `timeoutMs`). */
  async shutdown(timeoutMs: number): Promise<void> {
    this.close();
    for (const entry of this.running.values()) this.apply(entry, { kind: "shutdown" });
    const all = Promise.allSettled([...this.running.values()].map((entry) => entry.done));
    await waitAtMost(all, timeoutMs);
  }

  private apply(entry: Entry, reason: StopReason): void {
    if (entry.stop !== null) return;
    entry.stop = reason;
    entry.controller.abort(abortMessage(reason));
  }
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
  }
}
