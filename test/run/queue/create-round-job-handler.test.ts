import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRoundJobHandler } from "../../../src/run/queue/create-round-job-handler.js";
import { JobStopError } from "../../../src/run/queue/job-stop-error.js";
import type { RunStore, StoredRound } from "../../../src/run/store/run-store.js";
import { SqliteRunStore } from "../../../src/run/store/sqlite-run-store.js";
import { sampleLensReport } from "../../builders/lens-report.js";
import { FakeClock } from "../../helpers/fake-clock.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../../helpers/temporary-store-directory.js";

let temporary: TemporaryStoreDirectory;
let store: RunStore;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  store = temporary.track(
    await SqliteRunStore.open({ path: temporary.path, clock: new FakeClock() }),
  );
});
afterEach(async () => {
  await temporary.remove();
});

async function queuedRound(headSha = "aaa111"): Promise<StoredRound> {
  const { round } = await store.startRound({
    repo: { owner: "octo-org", repo: "widgets" },
    installationId: 42,
    pullNumber: 7,
    headSha,
    trigger: { kind: "push", deliveryId: `d-${headSha}` },
  });
  return round;
}

const taken = (roundId: string, overrides: { attempt?: number; signal?: AbortSignal } = {}) => ({
  job: { roundId, installationId: 42 },
  attempt: overrides.attempt ?? 1,
  lastAttempt: (overrides.attempt ?? 1) >= 3,
  signal: overrides.signal ?? new AbortController().signal,
});

const failIfCalled = async (): Promise<void> => {
  throw new Error("abandonRound must not be called here");
};

describe("createRoundJobHandler", () => {
  it("runs a live round with the lenses it already paid for, resumed on a later attempt", async () => {
    const round = await queuedRound();
    await store.markRoundRunning(round.id);
    await store.saveLensReport(round.id, sampleLensReport());
    const runs: { id: string; finished: number; resumed: boolean }[] = [];
    const handler = createRoundJobHandler({
      store,
      runRound: async (stored, finished, resumed) => {
        runs.push({ id: stored.id, finished: finished.length, resumed });
      },
      stopRound: () => undefined,
      abandonRound: failIfCalled,
    });
    await handler(taken(round.id, { attempt: 2 }));
    expect(runs).toEqual([{ id: round.id, finished: 1, resumed: true }]);
  });

  it("skips a round that already ended, and ends one cancelled before it was taken", async () => {
    const older = await queuedRound("aaa111");
    await queuedRound("bbb222"); // supersedes the older round
    const cancelledEarly = await queuedRound("ccc333");
    const runs: string[] = [];
    const handler = createRoundJobHandler({
      store,
      runRound: async (stored) => {
        runs.push(stored.id);
      },
      stopRound: () => undefined,
      abandonRound: failIfCalled,
    });
    await handler(taken(older.id));
    await handler(
      taken(cancelledEarly.id, {
        signal: AbortSignal.abort(new JobStopError("cancelled", "superseded by ddd4444")),
      }),
    );
    expect(runs).toEqual([]);
    expect(await store.findRound(cancelledEarly.id)).toMatchObject({
      state: "cancelled",
      failure: "superseded by ddd4444",
    });
  });

  it("passes a stop to the running round, and abandons the round when the queue gives up", async () => {
    const round = await queuedRound();
    const controller = new AbortController();
    const stops: [string, string][] = [];
    const abandoned: [string, string][] = [];
    const handler = createRoundJobHandler({
      store,
      runRound: async () => {
        controller.abort(new JobStopError("shutdown"));
        throw new Error("GitHub is down");
      },
      stopRound: (roundId, stop) => stops.push([roundId, stop.kind]),
      abandonRound: async (abandonedRound, failure) => {
        abandoned.push([abandonedRound.id, failure]);
        await store.finishRound(abandonedRound.id, { state: "failed", failure });
      },
    });
    await expect(handler(taken(round.id, { signal: controller.signal }))).rejects.toThrow(
      "GitHub is down",
    );
    expect(stops).toEqual([[round.id, "shutdown"]]);
    expect((await store.findRound(round.id))?.state).toBe("queued");

    expect(abandoned).toEqual([]);

    await handler(taken(round.id, { attempt: 3 }));
    expect(abandoned).toEqual([[round.id, "gave up after 3 attempts"]]);
    expect(await store.findRound(round.id)).toMatchObject({
      state: "failed",
      failure: "gave up after 3 attempts",
    });
  });
});
