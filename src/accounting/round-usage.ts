import type { LensReport } from "../agent/index.js";
import type { PriceTable } from "../config/index.js";
import type { Usage } from "../llm/index.js";
import { addUsageFigures, noUsage, type UsageFigures, usageFigures } from "./usage-figures.js";

/** The phases a round pays for. */
export const USAGE_PHASES = ["review", "verify", "cross-examination", "summary"] as const;
export type UsagePhase = (typeof USAGE_PHASES)[number];

/** What one model spent in a round, per phase and per lens. */
export interface ModelUsage {
  model: string;
  phases: Record<UsagePhase, UsageFigures>;
  /** Review and verify of each lens (cross-examination is per finding, not per lens). */
  lenses: { lens: string; usage: UsageFigures }[];
  total: UsageFigures;
}

export interface RoundUsage {
  /** In the order of the reports (config order); a model that spent nothing is listed too. */
  models: ModelUsage[];
  phases: Record<UsagePhase, UsageFigures>;
  total: UsageFigures;
}

/** A cross-examination session's spend, as the round records it. */
export interface ChallengeSpend {
  model: string;
  usage?: Usage | undefined;
  durationMs?: number | undefined;
  /** Absent: a challenge or re-check; `summary`: the round's one summary call. */
  phase?: "cross-examination" | "summary" | undefined;
}

const NONE: Usage = { inputTokens: 0, outputTokens: 0 };

/**
 * Tokens, model time and estimated cost of a round, from its lens reports (review and verify)
 * and its challenges. Reports stored before usage was split by phase count as review.
 */
export function roundUsage(input: {
  reports: readonly LensReport[];
  challenges?: readonly ChallengeSpend[];
  pricing?: PriceTable | undefined;
}): RoundUsage {
  const pricing = input.pricing ?? {};
  const byModel = new Map<string, ModelUsage>();
  const entry = (model: string): ModelUsage => {
    let found = byModel.get(model);
    if (found === undefined) {
      found = {
        model,
        phases: {
          review: noUsage(),
          verify: noUsage(),
          "cross-examination": noUsage(),
          summary: noUsage(),
        },
        lenses: [],
        total: noUsage(),
      };
      byModel.set(model, found);
    }
    return found;
  };
  const add = (usage: ModelUsage, phase: UsagePhase, figures: UsageFigures) => {
    usage.phases[phase] = addUsageFigures(usage.phases[phase], figures);
    usage.total = addUsageFigures(usage.total, figures);
  };
  for (const report of input.reports) {
    // A lens a fallback answered was spent by the fallback, at its price.
    const spender = report.answeredBy ?? report.model;
    const price = pricing[spender];
    const verify = report.verifyUsage ?? NONE;
    const verifyMs = report.verifyDurationMs ?? 0;
    const review = usageFigures(
      minus(report.usage, verify),
      Math.max(0, (report.durationMs ?? 0) - verifyMs),
      price,
    );
    const verified = usageFigures(verify, verifyMs, price);
    const usage = entry(spender);
    add(usage, "review", review);
    add(usage, "verify", verified);
    usage.lenses.push({ lens: report.lens, usage: addUsageFigures(review, verified) });
  }
  for (const challenge of input.challenges ?? []) {
    add(
      entry(challenge.model),
      challenge.phase ?? "cross-examination",
      usageFigures(challenge.usage ?? NONE, challenge.durationMs ?? 0, pricing[challenge.model]),
    );
  }
  const models = [...byModel.values()];
  const phases = {
    review: sum(models.map((model) => model.phases.review)),
    verify: sum(models.map((model) => model.phases.verify)),
    "cross-examination": sum(models.map((model) => model.phases["cross-examination"])),
    summary: sum(models.map((model) => model.phases.summary)),
  };
  return { models, phases, total: sum(models.map((model) => model.total)) };
}

function sum(figures: readonly UsageFigures[]): UsageFigures {
  return figures.reduce(addUsageFigures, noUsage());
}

function minus(total: Usage, part: Usage): Usage {
  return {
    inputTokens: Math.max(0, total.inputTokens - part.inputTokens),
    outputTokens: Math.max(0, total.outputTokens - part.outputTokens),
    cachedInputTokens: Math.max(0, (total.cachedInputTokens ?? 0) - (part.cachedInputTokens ?? 0)),
    cacheWriteTokens: Math.max(0, (total.cacheWriteTokens ?? 0) - (part.cacheWriteTokens ?? 0)),
  };
}
