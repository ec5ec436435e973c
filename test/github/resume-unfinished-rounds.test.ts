import { afterEach, beforeEach, expect, it } from "vitest";
import { resumeUnfinishedRounds } from "../../src/github/resume-unfinished-rounds.js";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { RecordingQueue } from "../helpers/recording-queue.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";

let temporary: TemporaryStoreDirectory;
let store: SqliteRunStore;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(await SqliteRunStore.open({ path: temporary.path }));
});
afterEach(async () => {
  await temporary.remove();
});

async function round(pullNumber: number, installationId: number) {
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId,
    pullNumber,
    headSha: `sha-${pullNumber}`,
    trigger: { kind: "push", deliveryId: `d-${pullNumber}` },
  });
  return round;
}

it("queues every unfinished round again, once, and leaves ended ones alone", async () => {
  const queued = await round(1, 10);
  const running = await round(2, 20);
  await store.markRoundRunning(running.id);
  const ended = await round(3, 10);
  await store.finishRound(ended.id, { state: "completed" });
  const queue = new RecordingQueue();

  expect(await resumeUnfinishedRounds(store, queue)).toBe(2);
  // In any order: rounds created in the same millisecond have no order to keep.
  expect(queue.enqueued).toHaveLength(2);
  expect(queue.enqueued).toEqual(
    expect.arrayContaining([
      { roundId: queued.id, installationId: 10 },
      { roundId: running.id, installationId: 20 },
    ]),
  );
  // A second process starting (or a second start) queues nothing twice.
  expect(await resumeUnfinishedRounds(store, queue)).toBe(0);
  expect(queue.enqueued).toHaveLength(2);
});

it("lets a push's round that was still waiting for pushes to settle wait out only the rest", async () => {
  const waiting = await round(1, 10);
  const running = await round(2, 10);
  await store.markRoundRunning(running.id);
  const { round: asked } = await store.startRound({
    repo: { owner: "octo-org", repo: "api" },
    installationId: 10,
    pullNumber: 3,
    headSha: "sha-3",
    trigger: { kind: "comment", deliveryId: "d-3", actor: "alice" },
  });
  const queue = new RecordingQueue();
  const now = waiting.createdAt.getTime() + 12_000;

  await resumeUnfinishedRounds(store, queue, { debounceMs: 30_000, now });
  expect(queue.delays).toEqual(
    expect.arrayContaining([
      { roundId: waiting.id, delayMs: 18_000 },
      // Taken before the restart: its quiet period is over, it resumes at once.
      { roundId: running.id, delayMs: 0 },
      { roundId: asked.id, delayMs: 0 },
    ]),
  );
  // Past its quiet period while the process was down: at once.
  const later = new RecordingQueue();
  await resumeUnfinishedRounds(store, later, { debounceMs: 30_000, now: now + 60_000 });
  expect(later.delays.find((entry) => entry.roundId === waiting.id)?.delayMs).toBe(0);
});
