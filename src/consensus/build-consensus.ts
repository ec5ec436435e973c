import type { LensReport } from "../agent/index.js";
import { applyChallenges, type ChallengeResult } from "./apply-challenges.js";
import { clusterFindings } from "./cluster-findings.js";
import { compareRounds } from "./compare-rounds.js";
import type { CarriedFinding, Consensus, ModelSummary, PreviousFinding } from "./consensus.js";
import type { Finding } from "./finding.js";
import { rankClusters } from "./rank-clusters.js";
import { modelVerdict, overallVerdict } from "./verdict.js";

export interface BuildConsensusInput {
  reports: readonly LensReport[];
  /** Model ids in config order. */
  modelOrder: readonly string[];
  /** Lens ids in config order. */
  lensOrder: readonly string[];
  /** Model id → provider name. */
  providers: Readonly<Record<string, string>>;
  /** The PR's last completed round, when there is one. */
  previous?: { headSha: string; round: number; findings: PreviousFinding[] };
  /** This round's number; defaults to the previous round's plus one. */
  round?: number;
  /** Answers of the round's cross-examination, folded into the clusters (applyChallenges). */
  challenges?: readonly ChallengeResult[];
  /** An incremental round's previous findings kept open when nobody reports them (compareRounds). */
  carry?: readonly CarriedFinding[];
}

/** Configured ones in their order, then any others by id. */
function ordered(configured: readonly string[], seen: Iterable<string>): string[] {
  const extra = [...new Set(seen)].filter((id) => !configured.includes(id)).sort();
  return [...new Set(configured), ...extra];
}

function modelSummaries(input: BuildConsensusInput): ModelSummary[] {
  const lensOrder = ordered(
    input.lensOrder,
    input.reports.map((report) => report.lens),
  );
  const lensRank = (lens: string) => lensOrder.indexOf(lens);
  return ordered(
    input.modelOrder,
    input.reports.map((report) => report.model),
  ).map((model) => {
    const lenses = input.reports
      .filter((report) => report.model === model)
      .sort((a, b) => lensRank(a.lens) - lensRank(b.lens));
    return {
      model,
      provider: input.providers[model] ?? lenses[0]?.provider ?? "",
      verdict: modelVerdict(lenses),
      lenses,
    };
  });
}

/**
 * Turns a round's lens reports into what is published: findings of done lenses clustered
 * across models and ranked, verdicts per model and overall, and, from round 2 on, what was
 * fixed, is still open, or is new since the previous round.
 */
export function buildConsensus(input: BuildConsensusInput): Consensus {
  const findings: Finding[] = input.reports
    .filter((report) => report.outcome === "done")
    .flatMap((report) =>
      report.findings.map((finding) => ({
        ...finding,
        // The model that answered: a fallback's findings are its own, never counted twice.
        model: report.answeredBy ?? report.model,
        // An "outside my lens" finding is credited to the lens it names.
        lens: finding.lens ?? report.lens,
      })),
    );
  const models = modelSummaries(input);
  // Confirmations change agreement, so a confirmed lone finding ranks with the agreed ones.
  const clustered = rankClusters(
    applyChallenges(
      clusterFindings(findings, { modelOrder: input.modelOrder }),
      input.challenges ?? [],
    ),
  );
  const compared =
    input.previous === undefined
      ? null
      : compareRounds({
          round: input.round ?? input.previous.round + 1,
          previousHeadSha: input.previous.headSha,
          previous: input.previous.findings,
          clusters: clustered,
          ...(input.carry === undefined ? {} : { carry: input.carry }),
        });
  // Carried findings rank among this round's: an agreed high stays at the top of the comment.
  const clusters = compared === null ? clustered : rankClusters(compared.clusters);
  return {
    models,
    // Models that answered a lens: a model whose every lens went to its fallback did not.
    modelCount: new Set(
      input.reports
        .filter((report) => report.outcome === "done")
        .map((report) => report.answeredBy ?? report.model),
    ).size,
    verdict: overallVerdict(clusters),
    clusters,
    comparison: compared?.comparison ?? null,
  };
}
