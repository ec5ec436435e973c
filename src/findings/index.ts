// Front door of src/findings: the findings contract: the fenced findings block, its schema and parser.
// Other folders import only from here; this lists what they use today.

export {
  CHALLENGE_FENCE_INFO,
  type ChallengeAnswer,
  type ChallengeParse,
  type ChallengeVerdict,
  parseChallengeAnswer,
} from "./challenge-block.js";
export { deriveVerdict, verdictForSeverities } from "./derive-verdict.js";
export { extractFencedBlocks } from "./extract-fenced-blocks.js";
export {
  containsFindingsBlock,
  contractEntry,
  removeFindingsBlocks,
  renderLensAnswer,
  stripFindingsBlock,
  VERDICT_LINE_RE,
} from "./findings-block.js";
export {
  type LensContext,
  MAX_OUTSIDE_LENS_FINDINGS,
  OUTSIDE_LENS_IDS,
} from "./outside-lens.js";
export { MAX_FINDINGS_PER_LENS, parseLensAnswer } from "./parse.js";
export {
  CONFIDENCE_RANK,
  Confidence,
  FINDINGS_FENCE_INFO,
  type LensFinding,
  MAX_SUGGESTION_CHARS,
  SEVERITY_RANK,
  Severity,
  Verdict,
} from "./schema.js";
