import { describe, expect, it } from "vitest";
import { readScoreboard } from "../../../../src/scoreboard/index.js";
import { FakeClock } from "../../../helpers/fake-clock.js";
import {
  EXPECTED_COST,
  EXPECTED_LENSES,
  EXPECTED_MODELS,
} from "../../../scoreboard/helpers/scoreboard-expected.js";
import {
  DAY,
  GIZMO,
  SEEDED_PRICES,
  seedScoreboardStore,
} from "../../../scoreboard/helpers/seed-scoreboard-store.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

/**
 * The scoreboard's reads (scoreboardRows: each dialect reads the report JSON its own way) give
 * the same figures on any RunStore, worked out by hand for the seeded history.
 */
export function runStoreContractScoreboard(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  describe("scoreboard", () => {
    it("reads the window's rows so that every model's and lens's figures come out as worked out", async () => {
      const clock = new FakeClock(1_700_000_000_000);
      const store = await t.fixture.open(clock);
      const { now } = await seedScoreboardStore(store, clock);
      const board = await readScoreboard(store, { windowMs: 30 * DAY, now, prices: SEEDED_PRICES });
      expect(board.models.map((line) => line.id)).toEqual(["alpha", "beta", "gamma"]);
      for (const [id, expected] of Object.entries(EXPECTED_MODELS)) {
        expect(
          board.models.find((line) => line.id === id),
          id,
        ).toMatchObject(expected);
      }
      for (const [id, expected] of Object.entries(EXPECTED_LENSES)) {
        expect(
          board.lenses.find((line) => line.id === id),
          id,
        ).toMatchObject(expected);
      }
      expect(board.models[0]?.costUsd).toBeCloseTo(EXPECTED_COST.alpha, 9);
      expect(board).toMatchObject({ rounds: 4, completedRounds: 3, pullRequests: 3, findings: 5 });

      const rows = await store.scoreboardRows(new Date(now.getTime() - 30 * DAY), GIZMO);
      expect(rows.rounds.map((round) => [round.pullNumber, round.state])).toEqual([
        [3, "completed"],
        [4, "running"],
      ]);
      expect(rows.lensRuns).toEqual([
        expect.objectContaining({ model: "alpha", state: "done", findings: 1, answeredBy: null }),
        expect.objectContaining({ model: "alpha", state: "running", findings: 0, inputTokens: 0 }),
      ]);
      expect(rows.findings.map((entry) => entry.finding.detail?.models)).toEqual([["alpha"]]);
    });
  });
}
