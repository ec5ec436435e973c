import { afterEach, beforeEach, expect, it } from "vitest";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { startSweeper } from "../../src/run/wake-due-rounds.js";
import { FakeClock } from "../helpers/fake-clock.js";
import { RecordingQueue } from "../helpers/recording-queue.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";
import { claimRound, endRound } from "./store/helpers/claim-round.js";

let temporary: TemporaryStoreDirectory;
let clock: FakeClock;
let store: SqliteRunStore;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  clock = new FakeClock();
  store = temporary.track(await SqliteRunStore.open(temporary.path, clock));
});
afterEach(async () => {
  await temporary.remove();
});

async function round(pullNumber: number, installationId: number, delayMs = 0) {
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId,
    pullNumber,
    headSha: `sha-${pullNumber}`,
    trigger: { kind: "push", deliveryId: `d-${pullNumber}` },
    delayMs,
  });
  return round;
}

it("wakes every live round the store says is due, once, and leaves ended ones alone", async () => {
  const queued = await round(1, 10);
  const crashed = await round(2, 20);
  await claimRound(store, crashed.id, "dead", 1_000);
  const ended = await round(3, 10);
  await endRound(store, ended.id, { state: "completed" });
  clock.advance(1_000);
  const queue = new RecordingQueue();
  const sweeper = startSweeper({ store, queue, clock, intervalMs: 30_000 });

  expect(await sweeper.sweep()).toBe(2);
  expect(queue.enqueued).toEqual(
    expect.arrayContaining([
      { roundId: queued.id, installationId: 10 },
      { roundId: crashed.id, installationId: 20 },
    ]),
  );
  // Wake-ups are idempotent: a second sweep (another process) sends nothing new.
  expect(await sweeper.sweep()).toBe(0);
  sweeper.stop();
  expect(clock.pending()).toBe(0);
});

it("keeps what is left of a quiet period, and wakes a live holder's round only when its lease will run out", async () => {
  const waiting = await round(1, 10, 30_000);
  clock.advance(12_000);
  const held = await round(2, 10);
  await claimRound(store, held.id, "alive", 60_000);
  const renewingSoon = await round(3, 10);
  await claimRound(store, renewingSoon.id, "alive", 20_000);
  const queue = new RecordingQueue();
  const sweeper = startSweeper({ store, queue, clock, intervalMs: 30_000 });
  await sweeper.sweep();
  expect(queue.delays).toEqual([
    { roundId: waiting.id, delayMs: 18_000 },
    { roundId: renewingSoon.id, delayMs: 20_000 },
  ]);
  sweeper.stop();
});

it("sweeps again every interval on its clock, and stops when told", async () => {
  const queue = new RecordingQueue();
  const sweeper = startSweeper({ store, queue, clock, intervalMs: 30_000 });
  await round(1, 10);
  await clock.advanceAndSettle(29_999);
  expect(queue.enqueued).toEqual([]);
  await clock.advanceAndSettle(1);
  expect(queue.enqueued).toHaveLength(1);
  sweeper.stop();
  await round(2, 10);
  await clock.advanceAndSettle(60_000);
  expect(queue.enqueued).toHaveLength(1);
});
