import type { FeedbackInput, FeedbackKind, RunStore } from "../run/store/index.js";
import type { FindingOutcome, GadflyMetrics } from "../server/index.js";

const OUTCOME: Record<FeedbackKind, FindingOutcome> = {
  thumbs_up: "thumbs_up",
  thumbs_down: "thumbs_down",
  dismiss: "dismissed",
  false_positive: "false_positive",
  undismiss: "undismissed",
  resolved_without_fix: "resolved_without_fix",
};

export interface RecordFeedbackDeps {
  store: RunStore;
  /** The round's metrics; findings are counted when it has `finding` (the app's always does). */
  metrics?: Partial<GadflyMetrics> | undefined;
}

/**
 * Saves one person's feedback on a finding, with the last completed round of the PR (the one
 * whose finding it is, when the caller does not know better), and counts it for each model
 * that reported the finding (`gadfly_findings_total`).
 */
export async function recordFeedback(
  entry: FeedbackInput,
  deps: RecordFeedbackDeps,
): Promise<void> {
  const latest = await deps.store.previousRound(
    entry.repo,
    entry.pullNumber,
    Number.MAX_SAFE_INTEGER,
  );
  await deps.store.saveFeedback({ ...entry, roundId: entry.roundId ?? latest?.roundId ?? null });
  const finding = latest?.findings.find((published) => published.fingerprint === entry.fingerprint);
  for (const model of finding?.detail?.models ?? []) {
    deps.metrics?.finding?.(model, OUTCOME[entry.kind]);
  }
}
