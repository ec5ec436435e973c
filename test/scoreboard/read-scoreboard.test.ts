import { afterEach, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { readScoreboard, type Scoreboard } from "../../src/scoreboard/index.js";
import { FakeClock } from "../helpers/fake-clock.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../helpers/temporary-store-directory.js";
import { EXPECTED_COST, EXPECTED_LENSES, EXPECTED_MODELS } from "./helpers/scoreboard-expected.js";
import { DAY, GIZMO, SEEDED_PRICES, seedScoreboardStore } from "./helpers/seed-scoreboard-store.js";

let directory: TemporaryStoreDirectory | undefined;
afterEach(async () => {
  await directory?.remove();
  directory = undefined;
});

async function seeded(): Promise<{ store: SqliteRunStore; now: Date }> {
  directory = await temporaryStoreDirectory();
  const clock = new FakeClock(1_700_000_000_000);
  const store = directory.track(await SqliteRunStore.open(directory.path, clock));
  const { now } = await seedScoreboardStore(store, clock);
  return { store, now };
}

function line(board: Scoreboard, kind: "models" | "lenses", id: string) {
  const found = board[kind].find((entry) => entry.id === id);
  if (found === undefined) throw new Error(`no ${kind} row ${id}`);
  return found;
}

describe("readScoreboard on a seeded store", () => {
  it("scores each model over the window with the figures worked out by hand", async () => {
    const { store, now } = await seeded();
    const board = await readScoreboard(store, { windowMs: 30 * DAY, now, prices: SEEDED_PRICES });

    expect(board.models.map((model) => model.id)).toEqual(["alpha", "beta", "gamma"]);
    for (const [id, expected] of Object.entries(EXPECTED_MODELS)) {
      expect(line(board, "models", id), id).toMatchObject(expected);
    }
    expect(line(board, "models", "alpha").costUsd).toBeCloseTo(EXPECTED_COST.alpha, 9);
    expect(line(board, "models", "alpha").costPerUseful).toBeCloseTo(EXPECTED_COST.alpha / 3, 9);
    expect(line(board, "models", "alpha").tokensPerUseful).toBeCloseTo(2_553_100 / 3, 6);
    expect(line(board, "models", "beta").costUsd).toBeCloseTo(EXPECTED_COST.beta, 9);
    expect(line(board, "models", "beta").costPerUseful).toBeCloseTo(EXPECTED_COST.beta, 9);
    expect(board).toMatchObject({
      repository: null,
      repositories: ["acme/gizmo", "octo-org/widgets"],
      rounds: 4,
      completedRounds: 3,
      pullRequests: 3,
      findings: 5,
      // gamma has no price: a total would understate the spend.
      costUsd: null,
    });
  });

  it("scores each lens, all models together", async () => {
    const { store, now } = await seeded();
    const board = await readScoreboard(store, { windowMs: 30 * DAY, now, prices: SEEDED_PRICES });
    for (const [id, expected] of Object.entries(EXPECTED_LENSES)) {
      expect(line(board, "lenses", id), id).toMatchObject(expected);
    }
    expect(line(board, "lenses", "correctness").costUsd).toBeCloseTo(1.01, 9);
    expect(line(board, "lenses", "correctness").failureRate).toBeCloseTo(1 / 3, 12);
  });

  it("lists the last rounds newest first, with what each published and cost", async () => {
    const { store, now } = await seeded();
    const board = await readScoreboard(store, { windowMs: 30 * DAY, now, prices: SEEDED_PRICES });
    expect(
      board.recentRounds.map((round) => [
        `${round.repository}#${round.pullNumber}`,
        round.round,
        round.state,
        round.findings,
      ]),
    ).toEqual([
      ["acme/gizmo#4", 1, "running", 0],
      ["acme/gizmo#3", 1, "completed", 1],
      ["octo-org/widgets#7", 2, "completed", 2],
      ["octo-org/widgets#7", 1, "completed", 4],
    ]);
    expect(board.recentRounds[1]?.costUsd).toBeCloseTo(0.12, 9);
    // gamma's unpriced lens makes the first round's cost unknown, never understated.
    expect(board.recentRounds[3]?.costUsd).toBeNull();
  });

  it("narrows to one repository, feedback included", async () => {
    const { store, now } = await seeded();
    const board = await readScoreboard(store, {
      windowMs: 30 * DAY,
      now,
      prices: SEEDED_PRICES,
      repository: GIZMO,
    });
    expect(board.repository).toBe("acme/gizmo");
    expect(board.rounds).toBe(2);
    expect(board.models.map((model) => model.id)).toEqual(["alpha"]);
    expect(line(board, "models", "alpha")).toMatchObject({
      lensRuns: 1,
      findings: 1,
      dismissed: 1,
      useful: 0,
      inputTokens: 100_000,
      costPerUseful: null,
    });
    expect(line(board, "models", "alpha").costUsd).toBeCloseTo(0.12, 9);
  });

  it("leaves out what is older than the window", async () => {
    const { store, now } = await seeded();
    const board = await readScoreboard(store, { windowMs: 90 * DAY, now, prices: SEEDED_PRICES });
    // The old round: 5 findings reported, 9,000,000 input tokens, its finding and its 👎.
    expect(board.rounds).toBe(5);
    expect(line(board, "models", "alpha")).toMatchObject({ reported: 10, findings: 5 });
    expect(line(board, "models", "alpha").thumbsDown).toBe(1);
    const short = await readScoreboard(store, { windowMs: 3_600_000 * 2, now, prices: {} });
    expect(short.rounds).toBe(1);
    expect(short.models.map((model) => model.id)).toEqual(["alpha"]);
    expect(line(short, "models", "alpha").lensRuns).toBe(0);
  });
});
