import type { ModelCallLimiter, ModelCallSlot, ProviderCap } from "./model-call-limiter.js";

interface Waiter {
  resolve: (slot: ModelCallSlot) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** The per-provider cap of one process: a counting semaphore per provider, first come first served. */
export function createInMemoryModelCallLimiter(capFor: ProviderCap): ModelCallLimiter {
  const inFlight = new Map<string, number>();
  const queues = new Map<string, Waiter[]>();
  let closed = false;

  const slot = (provider: string): ModelCallSlot => {
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        const next = queues.get(provider)?.shift();
        if (next === undefined) {
          inFlight.set(provider, (inFlight.get(provider) ?? 1) - 1);
          return;
        }
        // The slot passes straight to the next waiter: the count does not change.
        next.signal?.removeEventListener("abort", next.onAbort);
        next.resolve(slot(provider));
      },
    };
  };

  return {
    acquire(provider, signal) {
      if (closed) return Promise.reject(new Error("the model call limiter is closed"));
      if (signal?.aborted) return Promise.reject(signal.reason);
      const cap = Math.max(1, capFor(provider));
      const current = inFlight.get(provider) ?? 0;
      if (current < cap) {
        inFlight.set(provider, current + 1);
        return Promise.resolve(slot(provider));
      }
      return new Promise<ModelCallSlot>((resolve, reject) => {
        const waiters = queues.get(provider) ?? [];
        queues.set(provider, waiters);
        const waiter: Waiter = {
          resolve,
          reject,
          signal,
          onAbort: () => {
            waiters.splice(waiters.indexOf(waiter), 1);
            reject(signal?.reason);
          },
        };
        signal?.addEventListener("abort", waiter.onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    async close() {
      closed = true;
      for (const waiters of queues.values()) {
        for (const waiter of waiters.splice(0)) {
          waiter.signal?.removeEventListener("abort", waiter.onAbort);
          waiter.reject(new Error("the model call limiter is closed"));
        }
      }
    },
  };
}
