import { usageFigures } from "../accounting/index.js";
import type { PriceTable } from "../config/index.js";
import type { ScoreboardRows } from "../run/store/index.js";
import { type FindingOutcome, findingOutcomes } from "./finding-outcomes.js";
import { RECENT_ROUNDS, type RecentRound, type Scoreboard, type ScoreLine } from "./scoreboard.js";
import type { ScoreboardFeedback } from "./scoreboard-feedback.js";

export interface ScoreboardInput {
  rows: ScoreboardRows;
  feedback: readonly ScoreboardFeedback[];
  /** Prices by model id (`models[].price`); a model without one has no cost, only tokens. */
  prices: PriceTable;
  since: Date;
  until: Date;
  /** `owner/name` when the rows are one repository's. */
  repository: string | null;
}

interface Spend {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
}

/** A row being summed: its lens runs' durations and spend, then its findings. */
interface Tally {
  id: string;
  lensRuns: number;
  failed: number;
  durations: number[];
  reported: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  findings: FindingOutcome[];
}

/**
 * The scoreboard of a window, from the store's rows: pure, so every figure can be checked
 * against a seeded store. A lens that failed over to a fallback counts as a failure of its
 * model and as a run of the model that answered, which gets its findings, time and tokens.
 */
export function computeScoreboard(input: ScoreboardInput): Scoreboard {
  const { rows, prices } = input;
  const models = new Map<string, Tally>();
  const lenses = new Map<string, Tally>();
  const roundCost = new Map<string, number | null>();
  const tally = (table: Map<string, Tally>, id: string): Tally => {
    const found = table.get(id) ?? emptyTally(id);
    table.set(id, found);
    return found;
  };
  for (const run of rows.lensRuns) {
    const answeredBy =
      run.answeredBy !== null && run.answeredBy !== run.model ? run.answeredBy : null;
    if (answeredBy !== null && run.state === "done") {
      const primary = tally(models, run.model);
      primary.lensRuns += 1;
      primary.failed += 1;
    }
    const runner = answeredBy ?? run.model;
    const cost = costOf(run, prices[runner]);
    addRoundCost(roundCost, run.roundId, cost);
    for (const line of [tally(models, runner), tally(lenses, run.lens)]) {
      if (run.state === "done" || run.state === "failed") line.lensRuns += 1;
      if (run.state === "failed") line.failed += 1;
      if (run.state === "done" && run.durationMs !== null) line.durations.push(run.durationMs);
      line.reported += run.findings;
      addSpend(line, run, cost);
    }
  }
  for (const challenge of rows.challenges) {
    const cost = costOf(challenge, prices[challenge.model]);
    addRoundCost(roundCost, challenge.roundId, cost);
    addSpend(tally(models, challenge.model), challenge, cost);
  }
  const outcomes = findingOutcomes(rows, input.feedback);
  for (const outcome of outcomes) {
    for (const model of outcome.models) tally(models, model).findings.push(outcome);
    if (outcome.lens !== null) tally(lenses, outcome.lens).findings.push(outcome);
  }
  const repositories = [...new Set(rows.rounds.map((r) => `${r.repo.owner}/${r.repo.repo}`))];
  return {
    since: input.since.toISOString(),
    until: input.until.toISOString(),
    repository: input.repository,
    repositories: repositories.sort(),
    rounds: rows.rounds.length,
    completedRounds: rows.rounds.filter((round) => round.state === "completed").length,
    pullRequests: new Set(rows.rounds.map((r) => `${r.repo.owner}/${r.repo.repo}#${r.pullNumber}`))
      .size,
    findings: outcomes.length,
    costUsd: [...roundCost.values()].reduce<number | null>((sum, cost) => addCost(sum, cost), 0),
    models: ranked([...models.values()].map(scoreLine)),
    lenses: ranked([...lenses.values()].map(scoreLine)),
    recentRounds: recentRounds(rows, roundCost),
  };
}

function emptyTally(id: string): Tally {
  return {
    id,
    lensRuns: 0,
    failed: 0,
    durations: [],
    reported: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    findings: [],
  };
}

function costOf(spend: Spend, price: PriceTable[string] | undefined): number | null {
  return usageFigures(spend, 0, price).costUsd;
}

function addCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/** `?? 0` would read a round's unknown (null) cost as nothing spent. */
function addRoundCost(costs: Map<string, number | null>, roundId: string, cost: number | null) {
  costs.set(roundId, addCost(costs.has(roundId) ? (costs.get(roundId) as number | null) : 0, cost));
}

function addSpend(line: Tally, spend: Spend, cost: number | null): void {
  line.inputTokens += spend.inputTokens;
  line.cachedInputTokens += spend.cachedInputTokens;
  line.outputTokens += spend.outputTokens;
  line.costUsd = addCost(line.costUsd, cost);
}

function scoreLine(tally: Tally): ScoreLine {
  const count = (test: (outcome: FindingOutcome) => boolean) => tally.findings.filter(test).length;
  const findings = tally.findings.length;
  const agreed = count((outcome) => outcome.agreed);
  const fixed = count((outcome) => outcome.fixed);
  const dismissed = count((outcome) => outcome.dismissed);
  const useful = count((outcome) => outcome.agreed || outcome.confirmed || outcome.fixed);
  const tokens = tally.inputTokens + tally.outputTokens;
  return {
    id: tally.id,
    lensRuns: tally.lensRuns,
    failed: tally.failed,
    failureRate: ratio(tally.failed, tally.lensRuns),
    medianDurationMs: median(tally.durations),
    reported: tally.reported,
    findings,
    agreed,
    agreementRate: ratio(agreed, findings),
    challenged: count((outcome) => outcome.challenged),
    confirmed: count((outcome) => outcome.confirmed),
    refuted: count((outcome) => outcome.refuted),
    fixed,
    fixedRate: ratio(fixed, findings),
    dismissed,
    dismissedRate: ratio(dismissed, findings),
    thumbsUp: tally.findings.reduce((sum, outcome) => sum + outcome.thumbsUp, 0),
    thumbsDown: tally.findings.reduce((sum, outcome) => sum + outcome.thumbsDown, 0),
    useful,
    inputTokens: tally.inputTokens,
    cachedInputTokens: tally.cachedInputTokens,
    outputTokens: tally.outputTokens,
    costUsd: tally.costUsd,
    tokensPerUseful: ratio(tokens, useful),
    costPerUseful: tally.costUsd === null ? null : ratio(tally.costUsd, useful),
  };
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function ranked(lines: ScoreLine[]): ScoreLine[] {
  return lines.sort((a, b) => b.findings - a.findings || a.id.localeCompare(b.id));
}

function recentRounds(
  rows: ScoreboardRows,
  roundCost: ReadonlyMap<string, number | null>,
): RecentRound[] {
  const findings = new Map<string, number>();
  const top = new Map<string, string>();
  for (const { roundId, finding } of rows.findings) {
    findings.set(roundId, (findings.get(roundId) ?? 0) + 1);
    // Saved in rank order: the first is the round's most agreed, most severe finding.
    if (!top.has(roundId)) top.set(roundId, finding.title);
  }
  return [...rows.rounds]
    .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
    .slice(0, RECENT_ROUNDS)
    .map((round) => ({
      repository: `${round.repo.owner}/${round.repo.repo}`,
      pullNumber: round.pullNumber,
      round: round.number,
      state: round.state,
      headSha: round.headSha,
      createdAt: new Date(round.createdAt).toISOString(),
      findings: findings.get(round.id) ?? 0,
      topFinding: top.get(round.id) ?? null,
      costUsd: roundCost.has(round.id) ? (roundCost.get(round.id) as number | null) : 0,
    }));
}
