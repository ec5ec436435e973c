import type { QueueDepth } from "../run/queue/index.js";
import { MetricsRegistry } from "./metrics-registry.js";

export type RoundMetricState = "started" | "resumed" | "completed" | "failed" | "cancelled";
export type LensMetricOutcome = "done" | "failed" | "cancelled" | "skipped";

export interface GadflyMetricsOptions {
  /** Read at each scrape; the queue is shared, so every replica reports the same depth. */
  queueDepth?: () => Promise<QueueDepth>;
}

/** Model call latency, in seconds: one chat turn is seconds, an agent's whole run is minutes. */
const LATENCY_BUCKETS = [0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 900];

/** What Gadfly counts, and the Prometheus text of it (`GET /metrics`). Counters are per process. */
export interface GadflyMetrics {
  round(state: RoundMetricState): void;
  lens(outcome: LensMetricOutcome): void;
  modelCall(sample: { provider: string; seconds: number; outcome: "ok" | "error" }): void;
  /** `kind` is the route template, e.g. `POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews`. */
  githubRequest(kind: string, outcome: "ok" | "error"): void;
  render(): Promise<string>;
}

export function createGadflyMetrics(options: GadflyMetricsOptions = {}): GadflyMetrics {
  const registry = new MetricsRegistry();
  const rounds = registry.counter(
    "gadfly_rounds_total",
    "Review rounds by state reached: started, resumed, completed, failed, cancelled.",
    ["state"],
  );
  for (const state of ["started", "resumed", "completed", "failed", "cancelled"] as const) {
    rounds.inc({ state }, 0);
  }
  const lenses = registry.counter(
    "gadfly_lenses_total",
    "Lens reviews (one model, one lens) by how they ended.",
    ["outcome"],
  );
  for (const outcome of ["done", "failed", "cancelled", "skipped"] as const)
    lenses.inc({ outcome }, 0);
  const modelCalls = registry.histogram(
    "gadfly_model_call_duration_seconds",
    "Duration of model calls (a chat turn or an agent run), excluding the wait for a slot.",
    LATENCY_BUCKETS,
    ["provider", "outcome"],
  );
  const githubRequests = registry.counter(
    "gadfly_github_requests_total",
    "GitHub API requests by route and outcome.",
    ["kind", "outcome"],
  );
  const queueDepth = options.queueDepth;
  if (queueDepth !== undefined) {
    const jobs = registry.gauge("gadfly_queue_jobs", "Round jobs queued or held by a worker.", [
      "state",
    ]);
    registry.collect(async () => {
      const depth = await queueDepth();
      jobs.set({ state: "queued" }, depth.queued);
      jobs.set({ state: "active" }, depth.active);
    });
  }
  return {
    round: (state) => rounds.inc({ state }),
    lens: (outcome) => lenses.inc({ outcome }),
    modelCall: ({ provider, seconds, outcome }) =>
      modelCalls.observe({ provider, outcome }, seconds),
    githubRequest: (kind, outcome) => githubRequests.inc({ kind, outcome }),
    render: () => registry.render(),
  };
}
