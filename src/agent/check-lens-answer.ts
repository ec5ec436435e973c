import type { LensContext, LensFinding } from "../findings/index.js";
import { parseLensAnswer } from "../findings/index.js";

export type CheckedAnswer =
  | {
      usable: true;
      /** The model's VERDICT line, undecorated. */
      verdict: string | null;
      findings: LensFinding[];
      /**
       * Entries of the block that could not be used, one line each, and the entries the
       * "Outside my lens" rule ignored (a second one, or one below medium).
       */
      rejected: string[];
      /** Valid findings beyond the per-lens limit, left out of `findings`: counted and shown. */
      overLimit: number;
    }
  | { usable: false; problems: string[] };

/** A problem about one entry of the block ("finding 3: …"), as parseLensAnswer words it. */
const ENTRY_PROBLEM_RE = /^finding \d+\b/;

/**
 * The longest lens answer read, in characters. Fifty findings with generous
 * bodies are a few dozen KB; an answer this long is output gone wrong (or
 * steered by the pull request), and every scan and copy of it costs time on
 * the event loop. Such an answer is not parsed: the lens gets its repair turn
 * and otherwise fails, never passes as clean.
 */
export const MAX_ANSWER_CHARS = 512 * 1024;

/** Problems named one by one in a failure reason or a repair prompt; the rest are counted. */
const MAX_NAMED_PROBLEMS = 20;

/**
 * Whether a lens answer can be published: it has a parseable findings block,
 * and the block is not a list whose every entry was rejected (that answer
 * reported problems we could not read, so it must not pass as clean). Entries the
 * "Outside my lens" rule ignored are named with the rejected ones, but an answer whose only
 * entries they are is a clean answer for its own lens, not an unreadable one.
 * `context` (the answering lens) attributes an outside-lens finding to its lens; the
 * verification pass leaves it out, its survivors being the review's own findings.
 */
export function checkLensAnswer(text: string, context?: LensContext): CheckedAnswer {
  if (text.length > MAX_ANSWER_CHARS) {
    return {
      usable: false,
      problems: [
        `the answer is ${text.length} characters long, over the limit of ${MAX_ANSWER_CHARS}; it was not read`,
      ],
    };
  }
  const answer = parseLensAnswer(text, context);
  const entryProblems = answer.problems.filter((problem) => ENTRY_PROBLEM_RE.test(problem));
  if (answer.findings === null) return { usable: false, problems: capped(answer.problems) };
  if (answer.findings.length === 0 && entryProblems.length > 0) {
    return {
      usable: false,
      problems: capped(["every entry of the findings block was rejected", ...entryProblems]),
    };
  }
  return {
    usable: true,
    verdict: answer.verdict,
    findings: answer.findings,
    rejected: [...entryProblems, ...answer.ignored],
    overLimit: answer.overLimit,
  };
}

/** Failure reasons and repair prompts stay short whatever the answer held. */
function capped(problems: readonly string[]): string[] {
  if (problems.length <= MAX_NAMED_PROBLEMS) return [...problems];
  const rest = problems.length - MAX_NAMED_PROBLEMS;
  return [...problems.slice(0, MAX_NAMED_PROBLEMS), `and ${rest} more problem(s)`];
}
