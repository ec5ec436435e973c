import { READER_SHARE_SPENT, readerShareReached } from "../accounting/index.js";
import { priceTable } from "../config/index.js";
import type { RoundTrigger, StoredRound } from "../run/store/index.js";
import { authorCanWrite } from "./author-can-write.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { type ReaderDecision, readerHold } from "./reader-hold.js";
import { readersSpendToday } from "./readers-spend-today.js";
import type { RoundDependencies } from "./round-dependencies.js";

/** A continuous stream of pushes still gets a round this many quiet periods after its first. */
export const MAX_SETTLE_PERIODS = 5;

export interface PushToPace {
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
  headSha: string;
  trigger: RoundTrigger;
  author: { login: string; type: string } | null;
}

/** When a push's round may start (and why later than its quiet period), or that it starts none. */
export type PushPace =
  | { kind: "skip"; reason: string }
  | { kind: "start"; delayMs: number; trigger: RoundTrigger; heldBecause?: string };

/**
 * How long a push's round waits. Its quiet period (`review.debounceSeconds`), bounded: a push
 * that supersedes a round still waiting for its first claim waits at most until
 * MAX_SETTLE_PERIODS quiet periods after the first push of that unbroken chain, so pushing
 * more often than the quiet period cannot keep a round from starting. A pull request whose
 * author cannot write to the repository is held to the reader limits (readerHold), and its
 * round carries the author as `trigger.actor`, which those limits count.
 */
export async function pacePush(
  octokit: GitHubClient,
  push: PushToPace,
  deps: Pick<RoundDependencies, "config" | "store" | "clock" | "permissions" | "botLogin">,
): Promise<PushPace> {
  const now = deps.clock.now();
  const debounceMs = deps.config.review.debounceSeconds * 1000;
  const recent = await deps.store.recentRounds({
    installationId: push.installationId,
    repo: push.repo,
    pullNumber: push.pullNumber,
    since: new Date(now - MAX_SETTLE_PERIODS * debounceMs - 1000),
  });
  const delayMs = settleDelayMs(recent, now, debounceMs);
  const writer = await authorCanWrite(
    octokit,
    {
      installationId: push.installationId,
      repo: push.repo,
      author: push.author,
      botLogin: deps.botLogin,
    },
    deps.permissions,
  );
  if (writer) return { kind: "start", delayMs, trigger: push.trigger };
  const author = (push.author?.login ?? "ghost").toLowerCase();
  const trigger = { ...push.trigger, actor: author };
  const limited = await readerHold(
    deps.store,
    deps.config.readers,
    { ...push, author, dueAt: now + delayMs },
    now,
  );
  if (limited.kind === "skip") return limited;
  const decision = limited.kind === "free" ? await shareHold(push, deps, now) : limited;
  if (decision.kind !== "hold") return { kind: "start", delayMs, trigger };
  return {
    kind: "start",
    delayMs: Math.max(delayMs, decision.untilMs - now),
    trigger,
    heldBecause: decision.because,
  };
}

const DAY_MS = 86_400_000;

/**
 * A reader's push once readers' rounds spent their share of today's daily caps
 * (`readers.dailyShare`): held until tomorrow's budget (a maintainer's `@gadfly review` joins it
 * and runs it against the whole cap). The round is checked again as it runs (its gate).
 */
async function shareHold(
  push: PushToPace,
  deps: Pick<RoundDependencies, "config" | "store">,
  now: number,
): Promise<ReaderDecision> {
  const { budget, readers, models } = deps.config;
  if (budget.dailyTokens === undefined && budget.dailyCostUsd === undefined)
    return { kind: "free" };
  const spent = await readersSpendToday(deps.store, {
    installationId: push.installationId,
    now,
    pricing: priceTable(models),
  });
  if (readerShareReached(budget, readers.dailyShare, spent) === null) return { kind: "free" };
  const tomorrow = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  return { kind: "hold", untilMs: tomorrow, because: READER_SHARE_SPENT };
}

/**
 * The quiet period, shortened so the unbroken chain of not-yet-claimed push rounds this push
 * joins (newest first: superseded while waiting, or still waiting) starts by
 * MAX_SETTLE_PERIODS quiet periods after its first.
 */
export function settleDelayMs(
  rounds: readonly StoredRound[],
  now: number,
  debounceMs: number,
): number {
  let first: number | undefined;
  for (const round of [...rounds].reverse()) {
    const waited =
      round.trigger.kind === "push" &&
      round.leaseEpoch === 0 &&
      (round.state === "queued" || (round.state === "cancelled" && round.supersededBy !== null));
    if (!waited) break;
    first = round.createdAt.getTime();
  }
  if (first === undefined) return debounceMs;
  return Math.max(0, Math.min(debounceMs, first + MAX_SETTLE_PERIODS * debounceMs - now));
}
