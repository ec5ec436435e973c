import { AppConfig } from "../../src/config/schema.js";
import type { TriggerDecision } from "../../src/github/can-trigger-review.js";
import { PermissionCache } from "../../src/github/permission-cache.js";
import type { RoundDependencies, RoundLog } from "../../src/github/round-dependencies.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { RoundRegistry } from "../../src/run/round-registry.js";
import type { RunStore } from "../../src/run/store/run-store.js";
import { systemClock } from "../../src/time/clock.js";
import { RecordingQueue } from "./recording-queue.js";

export const silentLog: RoundLog = { info() {}, warn() {}, error() {} };

/**
 * A round's dependencies for a test: the store and the data directory it names, and
 * the rest defaulted (one Ollama model `m`, no lenses, no push debounce, a queue that only records, a fresh
 * registry, the system clock, board edits unthrottled, a silent log), each overridable.
 */
export function roundDependencies(
  required: { store: RunStore; dataDir: string },
  overrides: Partial<RoundDependencies> = {},
): RoundDependencies {
  return {
    config: AppConfig.parse({
      providers: [{ name: "local", type: "ollama" }],
      models: [{ id: "m", provider: "local" }],
      // Rounds start at once, as before the quiet period existed; a test of it sets its own.
      review: { debounceSeconds: 0 },
      // Scripted models count their calls: the summary is a test of its own (pr-summary.e2e).
      summary: false,
    }),
    env: {},
    queue: new RecordingQueue(),
    limiter: createReviewerLimiter(1),
    registry: new RoundRegistry(),
    permissions: new PermissionCache<TriggerDecision>(systemClock),
    lenses: [],
    clock: systemClock,
    boardIntervalMs: 0,
    botLogin: "gadfly[bot]",
    log: silentLog,
    ...required,
    ...overrides,
  };
}
