import { setMaxListeners } from "node:events";

/** Why a running round stopped early. */
export type StopReason = { kind: "superseded"; by: string } | { kind: "shutdown" };

/**
 * The rounds running in this process, so a newer push can abort the round it
 * supersedes and a shutdown can stop every round without recording it as
 * cancelled (it resumes on the next start).
 */
export class RoundRegistry {
  private readonly running = new Map<
    string,
    { controller: AbortController; stop: StopReason | null; done: Promise<void> }
  >();
  private closing = false;

  get accepting(): boolean {
    return !this.closing;
  }

  get size(): number {
    return this.running.size;
  }

  /** Registers a round; returns its signal and a function reading why it stopped. */
  register(
    roundId: string,
    done: Promise<void>,
  ): { signal: AbortSignal; stopReason: () => StopReason | null } {
    const entry = { controller: new AbortController(), stop: null as StopReason | null, done };
    // Every reviewer of the round (and its deadline) listens to this one signal.
    setMaxListeners(0, entry.controller.signal);
    this.running.set(roundId, entry);
    void done.finally(() => {
      if (this.running.get(roundId) === entry) this.running.delete(roundId);
    });
    return { signal: entry.controller.signal, stopReason: () => entry.stop };
  }

  has(roundId: string): boolean {
    return this.running.has(roundId);
  }

  supersede(roundId: string, newHeadSha: string): void {
    const entry = this.running.get(roundId);
    if (entry === undefined || entry.stop !== null) return;
    entry.stop = { kind: "superseded", by: newHeadSha };
    entry.controller.abort(`superseded by ${newHeadSha.slice(0, 7)}`);
  }

  /** Stops taking rounds, aborts the running ones and waits for them (up to `timeoutMs`). */
  async shutdown(timeoutMs: number): Promise<void> {
    this.closing = true;
    for (const entry of this.running.values()) {
      if (entry.stop === null) entry.stop = { kind: "shutdown" };
      entry.controller.abort("shutting down");
    }
    const all = Promise.allSettled([...this.running.values()].map((entry) => entry.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      all,
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
