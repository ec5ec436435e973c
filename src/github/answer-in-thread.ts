import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { budgetReached, noUsage, roundUsage } from "../accounting/index.js";
import { Workspace } from "../agent/index.js";
import { planReview } from "../config/index.js";
import type { Usage } from "../llm/index.js";
import { renderThreadAnswer, type ThreadReply, usageLine } from "../render/index.js";
import {
  answerThreadRequest,
  modelsSkippedForFork,
  type ThreadRequest,
  type ThreadRequestResult,
} from "../run/index.js";
import { describeError } from "./describe-error.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { isForkPullRequest } from "./is-fork-pull-request.js";
import { loadRepoConfig } from "./load-repo-config.js";
import { postThreadReply } from "./post-thread-reply.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { takeSnapshot } from "./take-snapshot.js";

const DAY_MS = 86_400_000;
/** A thread answer's lease when the process names none (the rounds' default, a minute). */
export const THREAD_ANSWER_LEASE_MS = 60_000;

export interface ThreadTarget {
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
  /** Our inline comment that opened the thread: replies go under it. */
  rootCommentId: number;
  /** The reply that asked (claimed in the store: answered once). */
  replyCommentId: number;
  fingerprint: string;
  request: ThreadRequest;
}

/**
 * Answers one claimed `@gadfly` request, off the webhook: the finding as the PR's last completed
 * round saved it, the code at the PR's head now (a snapshot of its own, deleted after), the
 * plan's models less those kept from a fork, the installation's daily caps checked first; then
 * one reply in the thread (an answer, a re-check's result, or why not) and what it spent
 * recorded against the caps. Never throws: a failure is said in the thread when it can be.
 */
export async function answerInThread(
  octokit: GitHubClient,
  target: ThreadTarget,
  deps: RoundDependencies,
  signal: AbortSignal,
): Promise<void> {
  const { repo, pullNumber } = target;
  const fields = {
    repo: `${repo.owner}/${repo.repo}`,
    pull: pullNumber,
    reply: target.replyCommentId,
  };
  const workspaceDir = join(deps.dataDir, "workspaces", `answer-${target.replyCommentId}`);
  const leaseMs = deps.leaseMs ?? THREAD_ANSWER_LEASE_MS;
  const claim = holdClaim(deps, target.replyCommentId, leaseMs, signal);
  let head = "";
  let result: ThreadRequestResult = { kind: "failed", reason: "not answered", spent: [] };
  try {
    const { data: pull } = await octokit.rest.pulls.get({ ...repo, pull_number: pullNumber });
    head = pull.head.sha;
    result = await answerAtHead(octokit, target, deps, {
      pull,
      workspaceDir,
      signal: claim.signal,
    });
  } catch (error) {
    deps.log.warn({ ...fields, err: describeError(error) }, "thread answer failed");
    result = { ...result, kind: "failed", reason: "Gadfly could not read the pull request now" };
  } finally {
    claim.stop();
    await rm(workspaceDir, { recursive: true, force: true }).catch(() => undefined);
  }
  if (signal.aborted) {
    // A shutdown: its lease is given up now, so a worker's sweep says in the thread that it was
    // interrupted (after the restart, or at once elsewhere) instead of leaving it unanswered.
    await deps.store.renewThreadAnswer(target.replyCommentId, 0).catch(() => undefined);
    return;
  }
  // Still ours? A sweep that found its lease run out (a starved process) said it was
  // interrupted: then no answer is posted, but what it spent is recorded all the same.
  const ours =
    !claim.lost() &&
    (await deps.store.renewThreadAnswer(target.replyCommentId, leaseMs).catch(() => false));
  if (!ours) deps.log.warn(fields, "thread answer lost its claim: not posted");
  await publishAnswer(octokit, target, deps, { head, result, fields, post: ours });
}

/**
 * Renews the request's claim every third of its lease while it is answered; a renewal that
 * finds it no longer ours (a sweep took it as interrupted) aborts the answer.
 */
function holdClaim(
  deps: RoundDependencies,
  replyCommentId: number,
  leaseMs: number,
  signal: AbortSignal,
): { signal: AbortSignal; lost(): boolean; stop(): void } {
  const lost = new AbortController();
  let timer: unknown = null;
  let stopped = false;
  const renew = () => {
    timer = deps.clock.setTimeout(
      () => {
        deps.store
          .renewThreadAnswer(replyCommentId, leaseMs)
          .then((held) => {
            if (!held) lost.abort(new Error("the thread answer's claim was taken as interrupted"));
          })
          // A failed renewal is tried again next time; the lease has two more thirds to go.
          .catch(() => undefined)
          .finally(() => {
            if (!stopped && !lost.signal.aborted) renew();
          });
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
  };
  renew();
  return {
    signal: AbortSignal.any([signal, lost.signal]),
    lost: () => lost.signal.aborted,
    stop() {
      stopped = true;
      if (timer !== null) deps.clock.clearTimeout(timer);
    },
  };
}

async function answerAtHead(
  octokit: GitHubClient,
  target: ThreadTarget,
  deps: RoundDependencies,
  at: {
    pull: Awaited<ReturnType<GitHubClient["rest"]["pulls"]["get"]>>["data"];
    workspaceDir: string;
    signal: AbortSignal;
  },
): Promise<ThreadRequestResult> {
  const { repo, pullNumber } = target;
  const last = await deps.store.previousRound(repo, pullNumber, Number.MAX_SAFE_INTEGER);
  const finding = last?.findings.find((entry) => entry.fingerprint === target.fingerprint);
  if (finding === undefined) {
    return { kind: "failed", reason: "the finding is not in the last completed round", spent: [] };
  }
  const { plan } = planReview(deps.config, await loadRepoConfig(octokit, repo), deps.lenses);
  const skipped = modelsSkippedForFork({
    fromFork: isForkPullRequest(at.pull),
    models: plan.models,
    providers: deps.config.providers,
    isolation: deps.agentIsolation ?? "none",
  });
  const spentToday = roundUsage({
    reports: [],
    challenges: await deps.store.installationSpend(
      target.installationId,
      new Date(Math.floor(deps.clock.now() / DAY_MS) * DAY_MS),
    ),
    ...(plan.pricing === undefined ? {} : { pricing: plan.pricing }),
  }).total;
  const reached = budgetReached(plan.budget ?? {}, { round: noUsage(), today: spentToday });
  if (reached !== null) return { kind: "failed", reason: `budget reached — ${reached}`, spent: [] };
  await mkdir(at.workspaceDir, { recursive: true });
  await takeSnapshot(octokit, repo, pullNumber, at.pull.head.sha, at.workspaceDir, {
    pull: at.pull,
  });
  const { threads } = deps.config;
  return answerThreadRequest(
    {
      request: target.request,
      finding,
      workspace: await Workspace.open(at.workspaceDir),
      settings: { maxTurns: threads.maxTurns, timeoutSeconds: threads.timeoutSeconds },
    },
    {
      plan: { ...plan, models: plan.models.filter((model) => !skipped.has(model.id)) },
      providers: deps.config.providers,
    },
    {
      env: deps.env,
      secrets: deps.secrets,
      createModel: deps.createModel,
      limiter: deps.limiter,
      signal: at.signal,
      clock: deps.clock,
    },
  );
}

async function publishAnswer(
  octokit: GitHubClient,
  target: ThreadTarget,
  deps: RoundDependencies,
  done: { head: string; result: ThreadRequestResult; fields: object; post: boolean },
): Promise<void> {
  const { result } = done;
  const total: Usage = { inputTokens: 0, outputTokens: 0 };
  for (const { usage } of result.spent) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
  }
  const spent = total.inputTokens + total.outputTokens > 0;
  const body = renderThreadAnswer(replyOf(result), {
    replyCommentId: target.replyCommentId,
    head: done.head === "" ? "unknown" : done.head,
    ...(spent
      ? { usage: usageLine({ ...noUsage(), ...total, costUsd: null }, { timed: false }) }
      : {}),
  });
  let answerCommentId: number | null = null;
  try {
    if (done.post) answerCommentId = await postThreadReply(octokit, target, body, deps.botLogin);
  } catch (error) {
    deps.log.warn({ ...done.fields, err: describeError(error) }, "thread answer not posted");
  }
  // Each model's spend on its own row would need one row per model; the first spender is named
  // and the sum recorded (a re-check by several models is rare and counts whole either way).
  await deps.store
    .finishThreadAnswer(target.replyCommentId, {
      outcome: result.kind === "failed" ? "failed" : "answered",
      model: result.spent[0]?.model ?? null,
      usage: sumUsage(result.spent.map((entry) => entry.usage)),
      answerCommentId,
    })
    .catch((error: unknown) =>
      deps.log.error({ ...done.fields, err: describeError(error) }, "thread answer not recorded"),
    );
}

function replyOf(result: ThreadRequestResult): ThreadReply {
  if (result.kind === "answer")
    return { kind: "answer", model: result.model, answer: result.answer };
  if (result.kind === "recheck") {
    return { kind: "recheck", result: result.result, answers: result.answers };
  }
  return { kind: "failed", reason: result.reason };
}

function sumUsage(usages: readonly Usage[]): Usage {
  const sum = { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
  for (const usage of usages) {
    sum.inputTokens += usage.inputTokens;
    sum.cachedInputTokens += usage.cachedInputTokens ?? 0;
    sum.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    sum.outputTokens += usage.outputTokens;
  }
  return sum;
}
