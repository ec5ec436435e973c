import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReaderLimits } from "../../src/config/schema.js";
import { readerHold } from "../../src/github/reader-hold.js";
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
