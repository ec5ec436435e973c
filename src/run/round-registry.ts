import { waitAtMost } from "../time/index.js";
import type { RoundLease } from "./round-lease.js";

interface Entry {
  lease: RoundLease;
  done: Promise<void>;
}

/**
 * The rounds this process holds now, by id: a hint that one of them was cancelled elsewhere
 * (another process superseded it) makes its lease ask the store at once, and a shutdown stops
 * every one of them (their workers hand them back). It decides nothing itself: a round's fate
 * is its state in the store.
 */
export class RoundRegistry {
  private readonly held = new Map<string, Entry>();
  /** Work a receiver runs after answering its webhook (a thread's answer): stopped at shutdown. */
  private readonly detached = new Set<{ controller: AbortController; done: Promise<void> }>();
  private closing = false;

  get accepting(): boolean {
    return !this.closing;
  }

  get size(): number {
    return this.held.size;
  }

  has(roundId: string): boolean {
    return this.held.has(roundId);
  }

  /** Holds `lease` until `done` settles. */
  add(lease: RoundLease, done: Promise<void>): void {
    const entry = { lease, done };
    this.held.set(lease.ref.roundId, entry);
    void done.finally(() => {
      if (this.held.get(lease.ref.roundId) === entry) this.held.delete(lease.ref.roundId);
    });
  }

  /** The round may have been cancelled elsewhere: its lease reads the store now. */
  hint(roundId: string): void {
    void this.held.get(roundId)?.lease.check();
  }

  /**
   * Runs `work` past the webhook's answer, in this process: its signal aborts at shutdown, which
   * waits for it like a round. `work` must not throw (a rejection is swallowed here only so
   * it cannot crash the process; log inside it).
   */
  detach(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    const done = work(controller.signal).catch(() => undefined);
    const entry = { controller, done };
    this.detached.add(entry);
    void done.finally(() => this.detached.delete(entry));
    return done;
  }

  /** Refuses new rounds from now on (webhooks answer 503); rounds running go on. */
  close(): void {
    this.closing = true;
  }

  /** Stops taking rounds, stops the ones held here (shutdown) and waits for them (up to `timeoutMs`). */
  async shutdown(timeoutMs: number): Promise<void> {
    this.close();
    for (const entry of this.held.values()) entry.lease.stop({ kind: "shutdown" });
    for (const entry of this.detached) entry.controller.abort(new Error("shutting down"));
    const all = Promise.allSettled(
      [...this.held.values(), ...this.detached].map((entry) => entry.done),
    );
    await waitAtMost(all, timeoutMs);
  }
}
