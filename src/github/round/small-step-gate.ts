import { type SmallStepGate, smallStepSeed } from "../../run/index.js";
import { canTriggerReview } from "../can-trigger-review.js";
import { describeError } from "../describe-error.js";
import type { RoundRun } from "./round-run.js";

/**
 * Whether this round may review a small step with fewer models per lens, and the seed that
 * deals them. Never for a fork PR or an author without write access (as GitHub's permission
 * API says): whoever may not write to the repository gets every model on every lens. The seed
 * is an HMAC of a secret the app holds (the webhook secret, else the App's private key) and the
 * head, so no author can predict or steer which model reviews which lens.
 */
export async function smallStepGate(
  run: RoundRun,
  author: { login: string; type: string } | null,
): Promise<SmallStepGate> {
  const { deps, round } = run;
  if (run.prepared.fromFork) return { refused: "the pull request comes from a fork" };
  const secret = deps.env.WEBHOOK_SECRET || deps.env.PRIVATE_KEY;
  if (secret === undefined || secret === "") return { refused: "no secret to deal reviewers by" };
  if (author === null) return { refused: "the pull request's author is unknown" };
  try {
    const decision = await canTriggerReview(
      run.octokit,
      {
        installationId: round.installationId,
        repo: round.repo,
        author,
        botLogin: deps.botLogin,
      },
      deps.permissions,
    );
    if (!decision.allowed) return { refused: `the author cannot write (${decision.reason})` };
  } catch (error) {
    deps.log.warn(
      { ...run.fields, err: describeError(error) },
      "the author's permission could not be read; the step is reviewed by every model",
    );
    return { refused: "the author's permission could not be read" };
  }
  const pull = `${round.repo.owner}/${round.repo.repo}#${round.pullNumber}`;
  return { seed: smallStepSeed(secret, pull, round.headSha) };
}
