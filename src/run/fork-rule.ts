import type { ModelConfig, ProviderConfig } from "../config/index.js";
import { commandMayReviewFork, type IsolationLevel } from "../sandbox/index.js";

/** Why a model's lenses were skipped on a fork's pull request; the board prefixes "skipped: ". */
export const FORK_SKIP_REASON = "agent CLIs do not review fork PRs here";

export interface ForkRuleInput {
  /** The pull request's head lives in another repository (or in a deleted one). */
  fromFork: boolean;
  models: readonly ModelConfig[];
  providers: readonly ProviderConfig[];
  /** The isolation level agent CLIs run under in this process. */
  isolation: IsolationLevel;
}

/**
 * The models kept from a pull request, by id, with the public reason: on a
 * fork's PR, an agent CLI (a `command` provider) runs in files the fork's
 * author wrote, so below the bubblewrap level it reviews only where the
 * operator opted in with `allowForks` for that provider. Chat-model providers
 * only read the files through our tools: they always review.
 */
export function modelsSkippedForFork(input: ForkRuleInput): Map<string, string> {
  const skipped = new Map<string, string>();
  if (!input.fromFork) return skipped;
  const providers = new Map(input.providers.map((provider) => [provider.name, provider]));
  for (const model of input.models) {
    const provider = providers.get(model.provider);
    if (provider?.type !== "command") continue;
    if (!commandMayReviewFork(input.isolation, provider)) skipped.set(model.id, FORK_SKIP_REASON);
  }
  return skipped;
}
