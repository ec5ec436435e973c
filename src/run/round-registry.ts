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

  /** Refuses new rounds from now on (webhooks answer 503); rounds running go on. */
  close(): void {
    this.closing = true;
  }

  /** Stops taking rounds, stops the ones held here (shutdown) and waits for them (up to `timeoutMs`). */
  async shutdown(timeoutMs: number): Promise<void> {
    this.close();
    for (const entry of this.held.values()) entry.lease.stop({ kind: "shutdown" });
    const all = Promise.allSettled([...this.held.values()].map((entry) => entry.done));
    await waitAtMost(all, timeoutMs);
  }
}
