/** Pull requests whose ignored reactions are kept; the least recently read go first. */
export const SEEN_REACTION_PULLS = 1_000;
/** Ignored reactions kept per pull request: past it the oldest are read again, never unbounded. */
export const SEEN_REACTIONS_PER_PULL = 2_000;

/**
 * The reactions a poll read and did not record (their author cannot write to the repository),
 * per pull request: counted as settled, so a reader's 👍 is read once and costs no request at
 * the next poll (the counts no longer outgrow what is known). In memory, bounded: a restart
 * reads each once more.
 */
export class SeenReactions {
  readonly #pulls = new Map<string, Set<string>>();

  /** `fingerprint\0kind\0login` keys ignored on the pull request. */
  of(pull: string): ReadonlySet<string> {
    return this.#pulls.get(pull) ?? new Set();
  }

  add(pull: string, key: string): void {
    const seen = this.#pulls.get(pull) ?? new Set<string>();
    this.#pulls.delete(pull);
    while (this.#pulls.size >= SEEN_REACTION_PULLS) {
      const oldest = this.#pulls.keys().next();
      if (oldest.done === true) break;
      this.#pulls.delete(oldest.value);
    }
    seen.add(key);
    if (seen.size > SEEN_REACTIONS_PER_PULL) {
      const oldest = seen.values().next();
      if (oldest.done !== true) seen.delete(oldest.value);
    }
    this.#pulls.set(pull, seen);
  }
}
