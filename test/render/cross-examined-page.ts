import {
  applyChallenges,
  type ChallengeResult,
  type Consensus,
} from "../../src/consensus/index.js";
import type { CrossExaminationStatus, RoundStatus } from "../../src/run/round-status.js";
import { finishedStatus, referenceConsensus } from "./reference-page.js";

/**
 * The reference page after its cross-examination: the other models tested the lone findings.
 * kimi's regex finding is confirmed by opus (now agreed on by two); kimi's duplicate fixture is
 * confirmed by opus and refuted by sonnet (no majority: confirmed, not disputed); opus's closer
 * finding is refuted by sonnet and kimi (disputed); glm was unsure of kimi's review reference.
 */
const OPUS = "claude-code/opus";
const SONNET = "claude-code/sonnet";
const GLM = "glm-5.2:cloud";
const KIMI = "kimi-k2.6:cloud";

function answer(
  fingerprint: string,
  model: string,
  verdict: ChallengeResult["verdict"],
  reason: string,
  checked: string | null = null,
): ChallengeResult {
  return { fingerprint, model, verdict, reason, checked };
}

export const CROSS_EXAMINATION: ChallengeResult[] = [
  answer(
    "fp-closer-regex",
    OPUS,
    "confirm",
    "MatchString accepts any prefix: `Citations are logged.and more` matches.",
    "agent/finalize.go:139",
  ),
  answer("fp-duplicate-fixture", OPUS, "confirm", "Four identical `strings.Repeat` calls."),
  answer(
    "fp-duplicate-fixture",
    SONNET,
    "refute",
    "The copies differ in their repeat counts on purpose.",
  ),
  answer(
    "fp-closer-discarded",
    SONNET,
    "refute",
    "A summary closer is by definition a restatement: `isSummaryCloser` only matches bookkeeping acks of at most 300 bytes, so nothing new can be lost.",
    "agent/finalize.go:240",
  ),
  answer(
    "fp-closer-discarded",
    KIMI,
    "refute",
    "Discarding is the documented intent (finalize.go:70-75) and tested by `summary closer dropped`.",
  ),
  answer("fp-closer-discarded", GLM, "unsure", "Could not tell from the diff alone."),
  answer("fp-review-reference", GLM, "unsure", "A matter of taste."),
];

/** Round 1 of the reference page, its lone findings cross-examined (applyChallenges, as built). */
export function crossExaminedConsensus(
  challenges: readonly ChallengeResult[] = CROSS_EXAMINATION,
): Consensus {
  const consensus = referenceConsensus();
  return { ...consensus, clusters: applyChallenges(consensus.clusters, challenges) };
}

const PHASES: Record<string, CrossExaminationStatus> = {
  [OPUS]: { asked: 2, confirmed: 2, refuted: 0, unsure: 0, failed: 0 },
  [SONNET]: { asked: 2, confirmed: 0, refuted: 2, unsure: 0, failed: 0 },
  [GLM]: { asked: 3, confirmed: 0, refuted: 0, unsure: 2, failed: 1 },
  [KIMI]: { asked: 1, confirmed: 0, refuted: 1, unsure: 0, failed: 0 },
};

/** The finished board of the reference page, with each reviewer's cross-examination phase. */
export function crossExaminedStatus(): RoundStatus {
  const status = finishedStatus();
  return {
    ...status,
    reviewers: status.reviewers.map((reviewer) => {
      const phase = PHASES[reviewer.model];
      return phase === undefined ? reviewer : { ...reviewer, crossExamination: phase };
    }),
  };
}
