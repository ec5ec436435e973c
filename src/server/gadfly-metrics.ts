import type { UsageFigures } from "../accounting/index.js";
import type { QueueDepth } from "../run/queue/index.js";
import { MetricsRegistry } from "./metrics-registry.js";

export type RoundMetricState = "started" | "resumed" | "completed" | "failed" | "cancelled";
export type LensMetricOutcome = "done" | "failed" | "cancelled" | "skipped";
/**
 * What became of a model's findings: reported by it, agreed (two models or more), confirmed
 * or refuted on cross-examination, fixed in a later round, and what people said of them.
 */
export const FINDING_OUTCOMES = [
  "reported",
  "agreed",
  "confirmed",
  "refuted",
  "fixed",
  "dismissed",
  "false_positive",
  "undismissed",
  "resolved_without_fix",
  "thumbs_up",
  "thumbs_down",
] as const;
export type FindingOutcome = (typeof FINDING_OUTCOMES)[number];

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
  /**
   * What one finished lens (its verify pass included), challenge or re-check of `model` spent,
   * counted where it is stored, so a resumed round does not count it again. A null cost (no
   * price) counts tokens only.
   */
  modelUsage(
    model: string,
    usage: Pick<UsageFigures, "inputTokens" | "cachedInputTokens" | "outputTokens" | "costUsd">,
  ): void;
  /** `kind` is the route template, e.g. `POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews`. */
  githubRequest(kind: string, outcome: "ok" | "error"): void;
  /** `model` is a configured model id (bounded); `count` defaults to 1. */
  finding(model: string, outcome: FindingOutcome, count?: number): void;
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
  const tokens = registry.counter(
    "gadfly_model_tokens_total",
    "Tokens the providers reported, by model and kind: input (every input token, cached ones included), cached_input (of input, read from a prompt cache), output.",
    ["model", "kind"],
  );
  const cost = registry.counter(
    "gadfly_model_cost_usd_total",
    "Estimated cost in US dollars from the models' configured price (models with a price only).",
    ["model"],
  );
  const githubRequests = registry.counter(
    "gadfly_github_requests_total",
    "GitHub API requests by route and outcome.",
    ["kind", "outcome"],
  );
  const findings = registry.counter(
    "gadfly_findings_total",
    "Findings by the model that reported them and what became of them.",
    ["model", "outcome"],
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
    modelUsage: (model, usage) => {
      tokens.inc({ model, kind: "input" }, usage.inputTokens);
      tokens.inc({ model, kind: "cached_input" }, usage.cachedInputTokens);
      tokens.inc({ model, kind: "output" }, usage.outputTokens);
      if (usage.costUsd !== null) cost.inc({ model }, usage.costUsd);
    },
    githubRequest: (kind, outcome) => githubRequests.inc({ kind, outcome }),
    finding: (model, outcome, count = 1) => findings.inc({ model, outcome }, count),
    render: () => registry.render(),
  };
}
