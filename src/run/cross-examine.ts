import type { ChallengedClaim, ChallengeOutcome } from "../agent/index.js";
import { challengeFinding, publicFailureReason, type Workspace } from "../agent/index.js";
import { type ChallengeResult, type Claim, type Cluster, claimsOf } from "../consensus/index.js";
import { SEVERITY_RANK, type Severity } from "../findings/index.js";
import type { LanguageModel, Usage } from "../llm/index.js";
import type { Clock } from "../time/index.js";
import type { ReviewerLimiter } from "./reviewer-limiter.js";
import type { Saved } from "./round-request.js";
import { settleAll } from "./settle-all.js";

export interface CrossExaminationSettings {
  /** Lone findings at or above this severity are put to the other models. */
  minSeverity: Severity;
  /** At most this many findings challenged per round, the most severe first. */
  maxChallenges: number;
  /** Tool turns of one challenge session. */
  maxTurns: number;
  timeoutSeconds: number;
}

/** One (finding, challenger) session to run. */
export interface PlannedChallenge {
  fingerprint: string;
  challenger: string;
  claim: ChallengedClaim;
  /**
   * The challenger's own claim in the same `unsure` cluster, when it made one: it is then
   * asked whether the claim is the same defect as its own (a confirmation joins the two;
   * see settleUnsure), not only whether it exists. Absent for a lone finding.
   */
  own?: ChallengedClaim;
}

/** A challenge that ended: answered (a vote), or failed/cancelled (no vote, said why). */
export type ChallengeRecord = (
  | (ChallengeResult & { outcome: "answered" })
  | { fingerprint: string; model: string; outcome: "failed" | "cancelled"; reason: string }
) &
  ChallengeCost;

/** What a challenge session spent; absent on records stored before it was counted. */
interface ChallengeCost {
  usage?: Usage;
  durationMs?: number;
}

/**
 * Which findings are put to which models: each claim only cross-examination can make
 * agreement (`claimsOf`: a lone cluster's finding, or each model's claim in an `unsure` one,
 * a merge on weak evidence) at or above `minSeverity`, the most severe first (ties keep the
 * consensus ranking), at most `maxChallenges` claims (one bound for both kinds), each to
 * every model that completed the round but the one that made it. A challenger with a claim
 * of its own in the same unsure cluster gets that claim too (`own`): two real problems in one
 * weak merge are each confirmed as existing, so only "the same defect as mine" may join them.
 */
export function planChallenges(
  clusters: readonly Cluster[],
  completedModels: readonly string[],
  settings: Pick<CrossExaminationSettings, "minSeverity" | "maxChallenges">,
): PlannedChallenge[] {
  const claims = clusters
    .flatMap((cluster, rank) => claimsOf(cluster).map((claim) => ({ cluster, claim, rank })))
    .map((entry) => ({
      ...entry,
      // A lone cluster keeps its own severity (one vote per model); an unsure one's claims their finding's.
      severity:
        entry.cluster.unsure === true ? entry.claim.finding.severity : entry.cluster.severity,
    }))
    .filter(
      ({ claim, severity }) =>
        SEVERITY_RANK[severity] >= SEVERITY_RANK[settings.minSeverity] &&
        completedModels.some((model) => model !== claim.model),
    )
    .sort(
      (left, right) =>
        SEVERITY_RANK[right.severity] - SEVERITY_RANK[left.severity] || left.rank - right.rank,
    )
    .slice(0, Math.max(0, settings.maxChallenges));
  return claims.flatMap(({ cluster, claim, severity }) => {
    const challenged = challengedClaim(claim.finding, severity);
    const siblings = cluster.unsure === true ? claimsOf(cluster) : [];
    return completedModels
      .filter((model) => model !== claim.model)
      .map((challenger) => {
        const own = siblings.find((sibling) => sibling.model === challenger);
        return {
          fingerprint: claim.fingerprint,
          challenger,
          claim: challenged,
          ...(own === undefined ? {} : { own: challengedClaim(own.finding, own.finding.severity) }),
        };
      });
  });
}

function challengedClaim(finding: Claim["finding"], severity: Severity): ChallengedClaim {
  return {
    lens: finding.lens,
    file: finding.file,
    line: finding.line,
    endLine: finding.endLine,
    severity,
    title: finding.title,
    body: finding.body,
  };
}

/** What every session of one batch (a round's challenges, or its re-checks) runs on. */
export interface SessionRun {
  /** The session's model for one claim, built as the round's lenses' were. */
  modelFor: (modelId: string, fingerprint: string) => LanguageModel;
  workspace: Workspace;
  settings: Pick<CrossExaminationSettings, "maxTurns" | "timeoutSeconds">;
  /** The same global cap the lenses run under. */
  limiter: ReviewerLimiter;
  signal: AbortSignal;
  clock: Clock;
  /** Applied once to each new record's reason (model text), e.g. secret redaction. */
  cleanReason?: ((reason: string) => string) | undefined;
}

/**
 * Runs the planned challenges under the limiter and returns every one's record: those
 * ended before (a resumed round does not ask again) and the new ones. A challenge that
 * cannot be asked (its model cannot be built) fails with the reason; none is dropped.
 */
export async function crossExamine(
  challenges: readonly PlannedChallenge[],
  given: SessionRun,
  saved: Saved<ChallengeRecord> = {},
): Promise<ChallengeRecord[]> {
  // A challenge whose record cannot be saved stops the others, and none outlives the call.
  const failed = new AbortController();
  const options = { ...given, signal: AbortSignal.any([given.signal, failed.signal]) };
  const key = (fingerprint: string, model: string) => `${fingerprint}\u0000${model}`;
  const done = new Map(
    (saved.finished ?? []).map((record) => [key(record.fingerprint, record.model), record]),
  );
  return settleAll(
    challenges,
    async (planned): Promise<ChallengeRecord> => {
      const earlier = done.get(key(planned.fingerprint, planned.challenger));
      if (earlier !== undefined) return earlier;
      const { clock } = options;
      // Timed from when the session gets its slot: waiting for one is not model time.
      let startedAt: number | null = null;
      const outcome = await options.limiter
        .run(async () => {
          startedAt = clock.now();
          const model = options.modelFor(planned.challenger, planned.fingerprint);
          return challengeFinding({
            model,
            claim: planned.claim,
            own: planned.own,
            workspace: options.workspace,
            maxTurns: options.settings.maxTurns,
            timeoutSeconds: options.settings.timeoutSeconds,
            signal: options.signal,
            clock: options.clock,
          });
        }, options.signal)
        .catch(
          (error: unknown): ChallengeOutcome => ({
            outcome: options.signal.aborted ? "cancelled" : "failed",
            reason: options.signal.aborted
              ? "cancelled"
              : `could not start: ${publicFailureReason(error)}`,
            turns: 0,
            usage: { inputTokens: 0, outputTokens: 0 },
          }),
        );
      const clean = options.cleanReason ?? ((reason: string) => reason);
      const cost = {
        usage: { ...outcome.usage },
        durationMs: startedAt === null ? 0 : Math.max(0, clock.now() - startedAt),
      };
      const record: ChallengeRecord =
        outcome.outcome === "answered"
          ? {
              outcome: "answered",
              fingerprint: planned.fingerprint,
              model: planned.challenger,
              ...outcome.answer,
              reason: clean(outcome.answer.reason),
              ...cost,
            }
          : {
              outcome: outcome.outcome,
              fingerprint: planned.fingerprint,
              model: planned.challenger,
              reason: clean(outcome.reason),
              ...cost,
            };
      await saved.onEnded?.(record);
      return record;
    },
    failed,
  );
}
