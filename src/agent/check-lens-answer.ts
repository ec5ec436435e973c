import { parseLensAnswer } from "../findings/parse.js";
import type { LensFinding } from "../findings/schema.js";

export type CheckedAnswer =
  | {
      usable: true;
      /** The model's VERDICT line, undecorated. */
      verdict: string | null;
      findings: LensFinding[];
      /** Entries of the block that could not be used, one line each. */
      rejected: string[];
    }
  | { usable: false; problems: string[] };

/** A problem about one entry of the block ("finding 3: …"), as parseLensAnswer words it. */
const ENTRY_PROBLEM_RE = /^finding \d+\b/;

/**
 * Whether a lens answer can be published: it has a parseable findings block,
 * and the block is not a list whose every entry was rejected (that answer
 * reported problems we could not read, so it must not pass as clean).
 */
export function checkLensAnswer(text: string): CheckedAnswer {
  const answer = parseLensAnswer(text);
  const entryProblems = answer.problems.filter((problem) => ENTRY_PROBLEM_RE.test(problem));
  if (answer.findings === null) return { usable: false, problems: answer.problems };
  if (answer.findings.length === 0 && entryProblems.length > 0) {
    return {
      usable: false,
      problems: ["every entry of the findings block was rejected", ...entryProblems],
    };
  }
  return {
    usable: true,
    verdict: answer.verdict,
    findings: answer.findings,
    rejected: entryProblems,
  };
}
