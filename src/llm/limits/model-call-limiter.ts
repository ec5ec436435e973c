/** A held place among the provider's model calls in flight; release it exactly when the call ends. */
export interface ModelCallSlot {
  release(): Promise<void>;
}

/**
 * The cap on model calls in flight per provider: in one process (SQLite
 * mode) or across every worker sharing the database (PostgreSQL mode).
 */
export interface ModelCallLimiter {
  /** Waits for a free slot; rejects with the signal's reason if it aborts first. */
  acquire(provider: string, signal?: AbortSignal): Promise<ModelCallSlot>;
  /** Releases what this process holds and stops; later acquires reject. */
  close(): Promise<void>;
}

/** How many calls to a provider may be in flight at once (at least 1). */
export type ProviderCap = (provider: string) => number;
