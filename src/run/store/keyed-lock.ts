/**
 * One holder per key at a time, in this process: callers for a key run one after another, in
 * the order they asked; callers for other keys do not wait. A holder that throws releases the key.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work);
    const settled = current.catch(() => undefined);
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return current;
  }

  /** Keys held or waited for now (for tests: none is left behind). */
  get size(): number {
    return this.tails.size;
  }
}
