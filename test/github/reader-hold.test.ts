import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReaderLimits } from "../../src/config/schema.js";
import { readerHold, readerHoldAtClaim } from "../../src/github/reader-hold.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { FakeClock } from "../helpers/fake-clock.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";
import { claimRound, endRound } from "../run/store/helpers/claim-round.js";

const repo = { owner: "octo-org", repo: "api" };
const NOON = Date.UTC(2026, 11, 2, 12, 0, 0);
const TOMORROW = Date.UTC(2026, 11, 3);

let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;
let clock: FakeClock;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  clock = new FakeClock(NOON);
  store = temporary.track(await SqliteRunStore.open(temporary.path, clock));
});
afterEach(() => temporary.remove());

/** A reader's push round of PR 7 at `sha` that a worker took (it spent), ended as `state`. */
async function ran(sha: string, state: "completed" | "cancelled" = "completed") {
  const { round } = await store.startRound({
    repo,
    installationId: 1,
    pullNumber: 7,
    headSha: sha,
    trigger: { kind: "push", deliveryId: `d-${sha}`, actor: "mallory" },
  });
  await claimRound(store, round.id);
  await endRound(store, round.id, state === "completed" ? { state } : { state });
}

const push = (headSha: string, dueAt = clock.now()) => ({
  installationId: 1,
  repo,
  pullNumber: 7,
  headSha,
  author: "mallory",
  dueAt,
});

describe("readerHold", () => {
  it("holds a round sooner than the least interval until it lifts, saying so", async () => {
    const limits = ReaderLimits.parse({ minIntervalSeconds: 600 });
    await ran("aaa");
    await clock.advanceAndSettle(60_000);
    expect(await readerHold(store, limits, push("bbb"), clock.now())).toEqual({
      kind: "hold",
      untilMs: NOON + 600_000,
      because: "rounds of this PR are at least 10 minutes apart",
    });
    await clock.advanceAndSettle(540_000);
    expect(await readerHold(store, limits, push("bbb"), clock.now())).toEqual({ kind: "free" });
  });

  it("counts aborted rounds that ran, not rounds superseded before a worker took them", async () => {
    const limits = ReaderLimits.parse({ roundsPerPullRequest: 2, minIntervalSeconds: 0 });
    await ran("aaa", "cancelled");
    // Waiting, never claimed: superseded by the next push for free.
    await store.startRound({
      repo,
      installationId: 1,
      pullNumber: 7,
      headSha: "bbb",
      trigger: { kind: "push", deliveryId: "d-bbb", actor: "mallory" },
      delayMs: 30_000,
    });
    expect((await readerHold(store, limits, push("ccc"), clock.now())).kind).toBe("free");
    await ran("ccc", "cancelled");
    expect(await readerHold(store, limits, push("ddd"), clock.now())).toEqual({
      kind: "hold",
      untilMs: TOMORROW,
      because: "this PR reached its 2 rounds for today",
    });
  });

  it("starts nothing for the head a completed round reviewed, and joins a live round's head", async () => {
    const limits = ReaderLimits.parse({});
    await ran("aaa");
    expect(await readerHold(store, limits, push("aaa"), clock.now())).toEqual({
      kind: "skip",
      reason: "aaa was already reviewed",
    });
  });
});

describe("readerHoldAtClaim", () => {
  /** A reader's push round of `pull` at `headSha`, waiting `delayMs` (held at its trigger). */
  const waiting = async (pull: number, delayMs: number, headSha = `sha-${pull}`) =>
    (
      await store.startRound({
        repo,
        installationId: 1,
        pullNumber: pull,
        headSha,
        trigger: { kind: "push", deliveryId: `d-${headSha}`, actor: "mallory" },
        delayMs,
      })
    ).round;
  const claimed = async (roundId: string) => {
    const lease = await claimRound(store, roundId);
    return {
      lease,
      round: (await store.findRound(roundId)) as NonNullable<
        Awaited<ReturnType<typeof store.findRound>>
      >,
    };
  };

  it("of two rounds held overnight for the author's one slot, runs the first claimed and holds the second again", async () => {
    const limits = ReaderLimits.parse({ roundsPerAuthor: 1, minIntervalSeconds: 0 });
    const first = await waiting(8, TOMORROW - NOON);
    const second = await waiting(9, TOMORROW - NOON);
    await clock.advanceAndSettle(TOMORROW - NOON);
    const a = await claimed(first.id);
    const b = await claimed(second.id);
    // Both claimed (both count as running): the first checked runs, as nobody else ran today.
    // Its sibling ran too by then, so the check holds whichever comes second.
    expect(await readerHoldAtClaim(store, limits, b.round, clock.now())).toEqual({
      kind: "hold",
      untilMs: TOMORROW + 86_400_000,
      because: "mallory reached their 1 rounds for today",
    });
    expect((await store.holdRound(b.lease, TOMORROW + 86_400_000 - clock.now())).ok).toBe(true);
    // Held, the second no longer counts: the first runs, though asked for yesterday.
    expect(await readerHoldAtClaim(store, limits, a.round, clock.now())).toEqual({ kind: "free" });
    // And the held one counts as not run for a new push of the author's at its trigger.
    await endRound(store, first.id, { state: "completed" });
    const next = { ...push("eee"), pullNumber: 10 };
    expect(await readerHold(store, limits, next, clock.now())).toMatchObject({
      kind: "hold",
      because: "mallory reached their 1 rounds for today",
    });
    expect(
      await readerHold(
        store,
        ReaderLimits.parse({ roundsPerAuthor: 2, minIntervalSeconds: 0 }),
        next,
        clock.now(),
      ),
    ).toEqual({ kind: "free" });
  });

  it("counts a round that ran against its pull request's day and the least interval, itself aside", async () => {
    const perPull = ReaderLimits.parse({ roundsPerPullRequest: 1, minIntervalSeconds: 0 });
    const alone = await claimed((await waiting(7, 0)).id);
    // Itself aside: nothing else ran, it runs.
    expect(await readerHoldAtClaim(store, perPull, alone.round, clock.now())).toEqual({
      kind: "free",
    });
    await endRound(store, alone.round.id, { state: "completed" });
    const later = await claimed((await waiting(7, 0, "bbb")).id);
    expect(await readerHoldAtClaim(store, perPull, later.round, clock.now())).toEqual({
      kind: "hold",
      untilMs: TOMORROW,
      because: "this PR reached its 1 rounds for today",
    });
    await store.holdRound(later.lease, TOMORROW - clock.now());
    const interval = ReaderLimits.parse({ minIntervalSeconds: 600 });
    await clock.advanceAndSettle(60_000);
    const third = await claimed((await waiting(7, 0, "ccc")).id);
    expect(await readerHoldAtClaim(store, interval, third.round, clock.now())).toEqual({
      kind: "hold",
      untilMs: NOON + 600_000,
      because: "rounds of this PR are at least 10 minutes apart",
    });
  });
});
