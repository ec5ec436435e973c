import { roundUsage } from "../accounting/index.js";
import type { LensReport } from "../agent/index.js";
import { Workspace } from "../agent/index.js";
import type { ReviewPlan } from "../config/index.js";
import type { ChallengeResult } from "../consensus/index.js";
import { buildConsensus } from "../consensus/index.js";
import { createRedactor } from "../llm/index.js";
import { type Clock, systemClock } from "../time/index.js";
import type { ChangeSet } from "./change-set.js";
import { collectSecrets } from "./collect-secrets.js";
import { type ChallengeRecord, crossExamine, planChallenges } from "./cross-examine.js";
import type { RoundJournal, RoundRequest } from "./round-request.js";
import type { CrossExaminationStatus, RoundStatus } from "./round-status.js";
import { sessionModelFor } from "./session-model-for.js";
import { withReviewerUsage } from "./with-reviewer-usage.js";

/** What the lenses left for cross-examination: their reports and the board as they ended it. */
export interface LensesEnded {
  reports: readonly LensReport[];
  status: RoundStatus;
}

/** The lens that names a challenge's model, for providers and recordings that key on it. */
export const CROSS_EXAMINATION_LENS = "cross-examination";

/**
 * The lens name one challenge's model is built with: each challenge is its own session, so
 * recording and replay keep one transcript per challenged finding
 * (`<model>/cross-examination-<fingerprint>.json`), not one per model.
 */
export function challengeSessionLens(fingerprint: string): string {
  return `${CROSS_EXAMINATION_LENS}-${fingerprint}`;
}

/**
 * The round's cross-examination, after every lens ended (off unless the plan enables it):
 * lone findings put to the other models that completed the round, the board showing each
 * model's phase. Returns the ended challenges (reasons redacted) and the final status;
 * consensus counts the answered ones.
 */
export async function runCrossExaminationPhase(
  request: RoundRequest<ChangeSet>,
  lenses: LensesEnded,
): Promise<{ records: ChallengeRecord[]; status: RoundStatus }> {
  const { subject, runtime, change } = request;
  const journal = request.journal ?? {};
  const settings = subject.plan.crossExamination;
  if (settings === undefined || !settings.enabled || runtime.signal.aborted) {
    return { records: [], status: lenses.status };
  }
  const planned = plannedChallenges(subject.plan, lenses.reports, settings);
  if (planned.length === 0) return { records: [], status: lenses.status };

  const clock = runtime.clock ?? systemClock;
  const redact = createRedactor(
    runtime.secrets ?? collectSecrets({ env: runtime.env, providers: subject.providers }),
  );
  const finished = journal.challenges?.finished ?? [];
  const board = new CrossExaminationBoard(subject.plan, lenses, journal, planned, clock);
  for (const record of finished) board.ended(record);
  board.publish();

  const records = await crossExamine(
    planned,
    {
      modelFor: sessionModelFor(subject, runtime, challengeSessionLens),
      workspace: await Workspace.open(change.workspaceDir, { sharedCopies: runtime.sharedCopies }),
      settings,
      limiter: runtime.limiter,
      signal: runtime.signal,
      clock,
      // The reason is model text: no secret it read may reach the board, the store or a comment.
      cleanReason: redact,
    },
    {
      finished,
      onEnded: async (record) => {
        board.ended(record);
        board.publish();
        await journal.challenges?.onEnded?.(record);
      },
    },
  );
  return { records, status: board.finish() };
}

/** Lone findings put to the models that completed the round, as the consensus clusters them. */
function plannedChallenges(
  plan: ReviewPlan,
  reports: readonly LensReport[],
  settings: NonNullable<ReviewPlan["crossExamination"]>,
): ReturnType<typeof planChallenges> {
  const completed = plan.models
    .map((model) => model.id)
    .filter((id) => reports.some((report) => report.model === id && report.outcome === "done"));
  const first = buildConsensus({
    reports,
    modelOrder: plan.models.map((model) => model.id),
    lensOrder: plan.lenses,
    providers: Object.fromEntries(plan.models.map((model) => [model.id, model.provider])),
  });
  return planChallenges(first.clusters, completed, settings);
}

/** The board through cross-examination: each challenger's tally and the spend of every answer. */
class CrossExaminationBoard {
  private status: RoundStatus;
  private readonly phases = new Map<string, CrossExaminationStatus>();
  private readonly spent: ChallengeRecord[] = [];

  constructor(
    private readonly plan: ReviewPlan,
    private readonly lenses: LensesEnded,
    private readonly journal: Pick<RoundJournal, "onStatus">,
    planned: ReturnType<typeof planChallenges>,
    private readonly clock: Pick<Clock, "now">,
  ) {
    this.status = { ...lenses.status, finished: false };
    for (const entry of planned) {
      const phase = this.phases.get(entry.challenger) ?? {
        asked: 0,
        confirmed: 0,
        refuted: 0,
        unsure: 0,
        failed: 0,
      };
      phase.asked++;
      this.phases.set(entry.challenger, phase);
    }
  }

  /** A challenge that ended (now, or before a restart): counted and its spend added. */
  ended(record: ChallengeRecord): void {
    this.spent.push(record);
    const phase = this.phases.get(record.model);
    if (phase === undefined) return;
    if (record.outcome !== "answered") phase.failed++;
    else if (record.verdict === "confirm") phase.confirmed++;
    else if (record.verdict === "refute") phase.refuted++;
    else phase.unsure++;
  }

  publish(): void {
    const usage = roundUsage({
      reports: this.lenses.reports,
      challenges: this.spent,
      pricing: this.plan.pricing,
    });
    const status = withReviewerUsage(this.status, usage);
    this.status = {
      ...status,
      reviewers: status.reviewers.map((reviewer) => {
        const phase = this.phases.get(reviewer.model);
        return phase === undefined ? reviewer : { ...reviewer, crossExamination: { ...phase } };
      }),
      updatedAt: new Date(this.clock.now()),
    };
    this.journal.onStatus?.(this.status);
  }

  finish(): RoundStatus {
    this.status = { ...this.status, finished: true, updatedAt: new Date(this.clock.now()) };
    this.journal.onStatus?.(this.status);
    return this.status;
  }
}

/** The answered challenges, as consensus counts them. */
export function challengeResults(records: readonly ChallengeRecord[]): ChallengeResult[] {
  return records.filter(
    (record): record is Extract<ChallengeRecord, { outcome: "answered" }> =>
      record.outcome === "answered",
  );
}
