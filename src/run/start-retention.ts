import type { RunStore } from "./store/run-store.js";

export interface RetentionOptions {
  store: Pick<RunStore, "pruneTranscripts" | "pruneDeliveries">;
  /** Transcripts older than this many days are deleted (reports and findings are kept). */
  transcriptDays: number;
  /** Delivery ids are kept this long to recognise GitHub's redeliveries. */
  deliveryDays: number;
  now?: () => number;
  everyMs?: number;
  onPruned?: (counts: { transcripts: number; deliveries: number }) => void;
  onError?: (error: unknown) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Prunes now, then every `everyMs` (6 h by default) until stopped; never keeps the process alive. */
export function startRetention(options: RetentionOptions): {
  prune: () => Promise<void>;
  stop: () => void;
} {
  const now = options.now ?? Date.now;
  const prune = async () => {
    try {
      const transcripts = await options.store.pruneTranscripts(
        new Date(now() - options.transcriptDays * DAY_MS),
      );
      const deliveries = await options.store.pruneDeliveries(
        new Date(now() - options.deliveryDays * DAY_MS),
      );
      options.onPruned?.({ transcripts, deliveries });
    } catch (error) {
      options.onError?.(error);
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), options.everyMs ?? 6 * 60 * 60 * 1000);
  timer.unref();
  return { prune, stop: () => clearInterval(timer) };
}

/** Days from an environment variable: a positive number, or the default. */
export function retentionDays(value: string | undefined, fallback: number): number {
  const days = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isFinite(days) && days > 0
    ? days
    : fallback;
}
