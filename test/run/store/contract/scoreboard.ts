import { describe, expect, it } from "vitest";
import { savedFinding } from "../../../../src/github/saved-finding.js";
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
import { agreedByModel, settledClusters } from "../../../scoreboard/helpers/settled-clusters.js";
import { endRound } from "../helpers/claim-round.js";
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

    it("counts a finding agreed exactly when the published consensus does: a weak merge nobody confirmed is one model's", async () => {
      const clock = new FakeClock(1_700_000_000_000);
      const store = await t.fixture.open(clock);
      const { round } = await store.startRound({
        repo: GIZMO,
        installationId: 42,
        pullNumber: 5,
        headSha: "abc555",
        trigger: { kind: "push", deliveryId: "delivery-agreement" },
      });
      const { clusters, answers } = settledClusters();
      // What publishing saves, and the answers as cross-examination records them.
      await store.saveFingerprints(round.id, clusters.map(savedFinding));
      for (const { fingerprint, model, verdict, reason, checked } of answers) {
        await store.saveChallenge(round.id, {
          outcome: "answered",
          fingerprint,
          model,
          verdict,
          reason,
          checked,
          usage: { inputTokens: 10, outputTokens: 1 },
          durationMs: 1,
        });
      }
      await endRound(store, round.id, { state: "completed" });
      const board = await readScoreboard(store, {
        windowMs: DAY,
        now: new Date(clock.now() + 1_000),
        prices: SEEDED_PRICES,
      });
      const agreed = Object.fromEntries(board.models.map((line) => [line.id, line.agreed]));
      expect(agreedByModel(clusters)).toEqual({ alpha: 1, beta: 2, gamma: 2 });
      expect(agreed).toEqual(agreedByModel(clusters));
      const stored = await store.scoreboardRows(new Date(clock.now() - DAY), GIZMO);
      expect(
        stored.findings
          .filter((entry) => entry.finding.detail?.unsure === true)
          .map((entry) => entry.finding.fingerprint),
      ).toEqual(["fp-weak"]);
    });
  });
}
