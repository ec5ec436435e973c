import { renderThreadAnswer } from "../render/index.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient } from "./github-client.js";
import { findThreadReply, postThreadReply } from "./post-thread-reply.js";
import type { RoundDependencies } from "./round-dependencies.js";

/** Abandoned answers said per sweep: the rest wait for the next one. */
export const MAX_INTERRUPTED_PER_SWEEP = 20;

/**
 * Says in its thread that each `@gadfly` request whose answerer died (its claim's lease ran
 * out unanswered) was interrupted, and gives it back to the PR's daily limit: taken in the store
 * first, so of several sweeping workers one says it, once. An answer its process posted before
 * dying unrecorded is found by its marker and left alone. Resolves with how many were said.
 */
export async function sweepInterruptedAnswers(
  deps: Pick<RoundDependencies, "store" | "botLogin" | "log">,
  installationClient: (installationId: number) => Promise<GitHubClient>,
): Promise<number> {
  let said = 0;
  for (const stale of await deps.store.staleThreadAnswers(MAX_INTERRUPTED_PER_SWEEP)) {
    if (!(await deps.store.interruptThreadAnswer(stale.replyCommentId))) continue;
    const fields = {
      repo: `${stale.repo.owner}/${stale.repo.repo}`,
      pull: stale.pullNumber,
      reply: stale.replyCommentId,
    };
    try {
      const octokit = await installationClient(stale.installationId);
      if ((await findThreadReply(octokit, stale, deps.botLogin)) !== null) continue;
      const body = renderThreadAnswer(
        { kind: "interrupted", request: stale.kind },
        { replyCommentId: stale.replyCommentId, head: "" },
      );
      await postThreadReply(octokit, stale, body, deps.botLogin);
      deps.log.info(fields, "thread answer interrupted: said so in its thread");
      said += 1;
    } catch (error) {
      deps.log.warn(
        { ...fields, err: describeError(error) },
        "could not say in its thread that an answer was interrupted",
      );
    }
  }
  return said;
}
