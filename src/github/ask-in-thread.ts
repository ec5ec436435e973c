import { renderThreadAnswer } from "../render/index.js";
import type { ThreadRequest } from "../run/index.js";
import { answerInThread, THREAD_ANSWER_LEASE_MS } from "./answer-in-thread.js";
import { canTriggerReview, type TriggerDecision } from "./can-trigger-review.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { oncePerDelivery } from "./once-per-delivery.js";
import type { PermissionCache } from "./permission-cache.js";
import { postThreadReply } from "./post-thread-reply.js";
import type { RoundDependencies } from "./round-dependencies.js";
import type { StartOutcome } from "./start-round.js";

const DAY_MS = 86_400_000;

export interface ThreadAsk {
  delivery: { id: string; name: string };
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
  rootCommentId: number;
  replyCommentId: number;
  actor: { login: string; type?: string | undefined };
  request: ThreadRequest;
}

/**
 * A `@gadfly` question or re-check on one of our findings' threads, on the receiver: our
 * thread, a writer (a reader's request costs nothing and gets nothing), once per delivery and
 * once per reply (claimed in the store under the PR's lock, counted against the PR's daily
 * limit). The answer itself runs detached (`registry.detach`): the webhook is answered at once.
 * The claim is leased: if this process dies before answering, a worker's sweep says so in the
 * thread and gives the request back (sweepInterruptedAnswers).
 */
export async function askInThread(
  octokit: GitHubClient,
  ask: ThreadAsk,
  deps: RoundDependencies,
  permissions: PermissionCache<TriggerDecision>,
): Promise<StartOutcome> {
  const { repo, pullNumber } = ask;
  const posted = (await deps.store.postedInline(repo, pullNumber)).find(
    (entry) => entry.commentId === ask.rootCommentId,
  );
  if (posted === undefined) return { kind: "skipped", reason: "not a reply to a Gadfly finding" };
  const decision = await canTriggerReview(
    octokit,
    {
      installationId: ask.installationId,
      repo,
      author: { login: ask.actor.login, type: ask.actor.type ?? "User" },
      botLogin: deps.botLogin,
    },
    permissions,
  );
  if (!decision.allowed) return { kind: "skipped", reason: `question ignored: ${decision.reason}` };
  const perDay = deps.config.threads.answersPerPullRequestPerDay;
  if (perDay === 0) return { kind: "skipped", reason: "thread answers are turned off" };
  return oncePerDelivery(ask.delivery, deps, async () => {
    const since = new Date(Math.floor(deps.clock.now() / DAY_MS) * DAY_MS);
    const claim = {
      replyCommentId: ask.replyCommentId,
      installationId: ask.installationId,
      repo,
      pullNumber,
      fingerprint: posted.fingerprint,
      kind: ask.request.kind,
      actor: ask.actor.login,
      rootCommentId: ask.rootCommentId,
      leaseMs: deps.leaseMs ?? THREAD_ANSWER_LEASE_MS,
    };
    const claimed = await deps.store.lockPullRequest(repo, pullNumber, () =>
      deps.store.claimThreadAnswer(claim, { perPullRequest: perDay, since }),
    );
    if (claimed === "duplicate") return { kind: "skipped", reason: "already answered" };
    if (claimed === "limit") {
      const body = renderThreadAnswer(
        { kind: "limit", perDay },
        { replyCommentId: ask.replyCommentId, head: "" },
      );
      await postThreadReply(octokit, ask, body, deps.botLogin);
      return { kind: "skipped", reason: `thread answers: the PR reached ${perDay} today` };
    }
    const target = { ...ask, fingerprint: posted.fingerprint };
    void deps.registry.detach((signal) => answerInThread(octokit, target, deps, signal));
    return { kind: "skipped", reason: `answering in the thread: ${ask.request.kind}` };
  });
}
