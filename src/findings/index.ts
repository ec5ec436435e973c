// Front door of src/findings: the findings contract: the fenced findings block, its schema and parser.
// Other folders import only from here; this lists what they use today.
export { containsFindingsBlock } from "./contains-findings-block.js";
export { deriveVerdict, verdictForSeverities } from "./derive-verdict.js";
export { extractFencedBlocks } from "./extract-fenced-blocks.js";
export { MAX_FINDINGS_PER_LENS, parseLensAnswer } from "./parse.js";
export { removeFindingsBlocks } from "./remove-findings-blocks.js";
export { contractEntry } from "./render-lens-answer.js";
export {
  CONFIDENCE_RANK,
  Confidence,
  FINDINGS_FENCE_INFO,
  type LensFinding,
  SEVERITY_RANK,
  Severity,
  Verdict,
} from "./schema.js";
