import { renderLensAnswer } from "../src/findings/findings-block.js";
import type { LensFinding } from "../src/findings/schema.js";
import type { FakeModelRequest, FakeReply } from "../test/fakes/model-script.js";
import { seededRandom } from "./seeded-random.js";
import { CHANGED_LINES, syntheticPath } from "./synthetic-pull-request.js";

export interface PacedReviewerOptions {
  seed: number;
  /** The models the script answers for, in config order (their index shapes the findings). */
  models: readonly string[];
  /** Files of the synthetic PR the findings point at. */
  fileCount: number;
  /** Each turn sleeps a seeded time in this range, ms; [0, 0] answers at once. */
  turnMs: readonly [number, number];
  /** Review turns per (model, lens), the answer included; the verify turn comes on top. */
  reviewTurns: readonly [number, number];
}

const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];

/**
 * A fake reviewer for the loopback model servers: its first turns read files, then it answers
 * with two findings (one every model reports, one of its own), and the verify turn keeps both.
 * Everything it does is a function of the request and the seed, so runs compare.
 */
export function pacedReviewer(
  options: PacedReviewerOptions,
): (request: FakeModelRequest) => FakeReply {
  return (request) => {
    const lens = request.lens ?? "unknown";
    const modelIndex = Math.max(0, options.models.indexOf(request.model));
    const lensIndex = Math.max(0, LENSES.indexOf(lens));
    const turn = request.messages.filter((message) => message.role === "assistant").length;
    const random = seededRandom(hash(`${options.seed}/${request.model}/${lens}`));
    const [fewest, most] = options.reviewTurns;
    const reviewTurns = fewest + Math.floor(random() * (most - fewest + 1));
    let delayMs = 0;
    for (let index = 0; index <= turn; index++) {
      delayMs = options.turnMs[0] + random() * (options.turnMs[1] - options.turnMs[0]);
    }
    delayMs = Math.round(delayMs);
    // The verify pass answers at once, whether it continues the review (full-diff) or is a
    // session of its own (compact), whose turns cannot be counted from the review's.
    const verifying = String(request.messages.at(-1)?.content ?? "").startsWith(
      "Verification pass",
    );
    if (!verifying && turn < reviewTurns - 1) {
      const path = syntheticPath((lensIndex * 7 + modelIndex + turn) % options.fileCount);
      return { toolCalls: [{ name: "read_file", arguments: { path } }], delayMs };
    }
    const shared = (lensIndex * 10) % options.fileCount;
    const own = (lensIndex * 10 + modelIndex + 1) % options.fileCount;
    const findings: LensFinding[] = [
      finding(
        shared,
        CHANGED_LINES[0] + 1,
        `SQL injection: \`query${CHANGED_LINES[0] + 1}\` concatenates \`name\` into the SQL text`,
        "high",
      ),
      finding(
        own,
        CHANGED_LINES[1] + 1,
        `${lens}: \`query${CHANGED_LINES[1] + 1}\` in ${syntheticPath(own)} reported by model ${modelIndex + 1}`,
        "low",
      ),
    ];
    const prose =
      verifying || turn >= reviewTurns
        ? "I re-checked each finding against the source. Both survive."
        : `Reviewed the change through the ${lens} lens.`;
    return { text: renderLensAnswer("Significant issues", findings, prose), delayMs };
  };
}

function finding(
  file: number,
  line: number,
  title: string,
  severity: LensFinding["severity"],
): LensFinding {
  return {
    file: syntheticPath(file),
    line,
    endLine: line + 1,
    severity,
    confidence: "high",
    title,
    body: "The value of `name` reaches the SQL text unescaped; use a parameterised query.",
  };
}

/** FNV-1a: a stable seed from a string. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value = Math.imul(value ^ text.charCodeAt(index), 0x01000193) >>> 0;
  }
  return value;
}
