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
