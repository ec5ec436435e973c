import type { Clock } from "../time/index.js";

/** How long a looked-up permission is trusted: a revoked collaborator can trigger for at most this long. */
export const PERMISSION_TTL_MS = 60_000;
/** Distinct (installation, repository, login) entries kept; the oldest go first. */
export const PERMISSION_CACHE_ENTRIES = 1_000;

/**
 * Answers of the repository permission API, kept briefly so that a burst of
 * `@gadfly review` comments costs one request per person, not one each. Only
 * answers are kept, never errors: a failed look-up is asked again next time.
 * Bounded in size, so comments from many logins cannot grow it without end.
 */
export class PermissionCache<Value> {
  readonly #entries = new Map<string, { value: Value; expiresAt: number }>();
  readonly #clock: Pick<Clock, "now">;
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(clock: Pick<Clock, "now">, maxEntries = PERMISSION_CACHE_ENTRIES) {
    this.#clock = clock;
    this.#ttlMs = PERMISSION_TTL_MS;
    this.#maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): Value | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#clock.now() >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: Value): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + this.#ttlMs });
  }
}
