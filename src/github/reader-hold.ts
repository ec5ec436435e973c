import type { ReaderLimits } from "../config/index.js";
import { shortSha } from "../render/index.js";
import {
  hasRun,
  isReaderRound,
  type RepoRef,
  type RunStore,
  type StoredRound,
} from "../run/store/index.js";

const DAY_MS = 86_400_000;
/** Above any round number a pull request reaches (PostgreSQL's integer). */
const LAST_ROUND = 2_147_483_647;

export interface ReaderPush {
  installationId: number;
  repo: RepoRef;
  pullNumber: number;
  headSha: string;
  /** The author's login: their rounds are counted as the push rounds whose actor it is. */
  author: string;
  /** When a writer's push would start: now plus the quiet period. */
  dueAt: number;
}

/** A reader's push: starts nothing, is held until `untilMs` (the board says why), or is free. */
export type ReaderDecision =
  | { kind: "skip"; reason: string }
  | { kind: "hold"; untilMs: number; because: string }
  | { kind: "free" };

/**
 * What a push to a pull request whose author cannot write to the repository may start, from
 * the rounds in the store (so it holds across restarts and processes): a head already
 * reviewed starts nothing (a reopen, a force-push back); a round already queued or running
 * for it is joined as usual. Otherwise rounds that ran — claimed by a worker, so they spent —
 * count against the pull request's and the author's allowance for the UTC day, and against
 * the least interval between two rounds of the pull request. Over a limit the round is held
 * until the limit lifts: a newer push supersedes it for free, and a maintainer's
 * `@gadfly review` joins it and brings it forward. A held round is checked again when a worker
 * claims it (`readerHoldAtClaim`).
 */
export async function readerHold(
  store: RunStore,
  limits: ReaderLimits,
  push: ReaderPush,
  now: number,
): Promise<ReaderDecision> {
  const rounds = await pullRounds(store, limits, push, now);
  if (rounds.some((round) => round.headSha === push.headSha && isLive(round))) {
    return { kind: "free" };
  }
  const reviewed = await store.previousRound(push.repo, push.pullNumber, LAST_ROUND);
  if (reviewed?.headSha === push.headSha) {
    return { kind: "skip", reason: `${shortSha(push.headSha)} was already reviewed` };
  }
  return limitsHold(store, limits, push, now, { rounds, claimed: null });
}

/**
 * The same limits for a reader's round a worker just claimed, before it runs (taken under the
 * reader's lock): a round held overnight, or two held for the same slot and woken together,
 * must not all run. Counted are the rounds that ran, by when they were claimed, this one aside;
 * rounds still waiting do not count here (each meets this check when it is claimed), so of two
 * woken for one slot the first claimed runs and the second is held again.
 */
export async function readerHoldAtClaim(
  store: RunStore,
  limits: ReaderLimits,
  round: StoredRound,
  now: number,
): Promise<ReaderDecision> {
  const push: ReaderPush = {
    installationId: round.installationId,
    repo: round.repo,
    pullNumber: round.pullNumber,
    headSha: round.headSha,
    author: round.trigger.actor ?? "ghost",
    dueAt: now,
  };
  const rounds = (await pullRounds(store, limits, push, now)).filter(
    (other) => other.id !== round.id,
  );
  return limitsHold(store, limits, push, now, { rounds, claimed: round.id });
}

/** The pull request's rounds asked for or claimed today, or within the least interval. */
function pullRounds(
  store: RunStore,
  limits: ReaderLimits,
  push: ReaderPush,
  now: number,
): Promise<StoredRound[]> {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const since = new Date(Math.min(dayStart, now - limits.minIntervalSeconds * 1000));
  return store.recentRounds({ ...push, since });
}

/**
 * The three limits against the rounds counted. `claimed`: the round a worker holds now, not
 * counted against itself; without it (a trigger) rounds of the author's other pull requests
 * waiting to run today count already.
 */
async function limitsHold(
  store: RunStore,
  limits: ReaderLimits,
  push: ReaderPush,
  now: number,
  { rounds, claimed }: { rounds: readonly StoredRound[]; claimed: string | null },
): Promise<ReaderDecision> {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const tomorrow = dayStart + DAY_MS;
  const spent = rounds.filter(isReaderRound).filter(hasRun);
  const today = spent.filter((round) => startedAt(round) >= dayStart);
  const perPull = limits.roundsPerPullRequest;
  if (perPull > 0 && today.length >= perPull) {
    return {
      kind: "hold",
      untilMs: tomorrow,
      because: `this PR reached its ${perPull} rounds for today`,
    };
  }
  const perAuthor = limits.roundsPerAuthor;
  if (perAuthor > 0) {
    const theirs = await store.recentRounds({
      installationId: push.installationId,
      pushActor: push.author,
      since: new Date(dayStart),
    });
    // Another PR's round waiting to run today counts already; one held until tomorrow does not.
    const dueToday = (round: StoredRound) =>
      claimed === null &&
      isLive(round) &&
      !samePull(round, push) &&
      (round.notBefore?.getTime() ?? 0) < tomorrow;
    const ranToday = (round: StoredRound) => hasRun(round) && startedAt(round) >= dayStart;
    const counted = theirs.filter(
      (round) => round.id !== claimed && (ranToday(round) || dueToday(round)),
    );
    if (counted.length >= perAuthor) {
      return {
        kind: "hold",
        untilMs: tomorrow,
        because: `${push.author} reached their ${perAuthor} rounds for today`,
      };
    }
  }
  const intervalMs = limits.minIntervalSeconds * 1000;
  const last = Math.max(0, ...spent.map(startedAt));
  if (intervalMs > 0 && last + intervalMs > push.dueAt) {
    return {
      kind: "hold",
      untilMs: last + intervalMs,
      because: `rounds of this PR are at least ${minutes(limits.minIntervalSeconds)} apart`,
    };
  }
  return { kind: "free" };
}

function isLive(round: StoredRound): boolean {
  return round.state === "queued" || round.state === "running";
}

function samePull(round: StoredRound, push: ReaderPush): boolean {
  return (
    round.repo.owner === push.repo.owner &&
    round.repo.repo === push.repo.repo &&
    round.pullNumber === push.pullNumber
  );
}

/**
 * When a round that ran started: its last claim (a round held overnight runs, and counts, the
 * day it is claimed); a round claimed before migration 16 recorded that, when it was asked for.
 */
function startedAt(round: StoredRound): number {
  return (round.claimedAt ?? round.createdAt).getTime();
}

function minutes(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} s`;
  const count = seconds / 60;
  return count === 1 ? "1 minute" : `${count} minutes`;
}
