import { describe, expect, it } from "vitest";
import { sampleLensReport } from "../../../builders/lens-report.js";
import { claimRound } from "../helpers/claim-round.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const HOUR = 60 * 60 * 1000;

/** What an installation spent since a time (the daily budget caps' input), for any RunStore. */
export function runStoreContractSpend(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  async function runningRound(
    installationId: number,
    pullNumber: number,
    trigger: { kind: "push" | "comment"; actor?: string } = { kind: "push" },
  ): Promise<string> {
    const { round } = await t.store.startRound({
      repo: { owner: "octo-org", repo: `repo-${pullNumber}` },
      installationId,
      pullNumber,
      headSha: `sha-${pullNumber}`,
      trigger: { ...trigger, deliveryId: `d-${installationId}-${pullNumber}` },
    });
    await claimRound(t.store, round.id);
    return round.id;
  }

  describe("installation spend", () => {
    it("sums lens runs and challenges per model since a time, for one installation, one round left out", async () => {
      const start = t.clock.now();
      // Yesterday's lens: before `since`, not counted.
      const early = await runningRound(42, 1);
      await t.store.saveLensReport(
        early,
        sampleLensReport({ model: "alpha", usage: { inputTokens: 1_000_000, outputTokens: 1 } }),
      );
      t.clock.advance(2 * HOUR);
      const since = new Date(t.clock.now() - HOUR);
      // Two repositories of installation 42 today.
      const first = await runningRound(42, 2);
      await t.store.saveLensReport(
        first,
        sampleLensReport({
          model: "alpha",
          lens: "security",
          usage: {
            inputTokens: 10_000,
            cachedInputTokens: 4_000,
            cacheWriteTokens: 2_000,
            outputTokens: 500,
          },
        }),
      );
      await t.store.saveLensReport(
        first,
        sampleLensReport({
          model: "beta",
          lens: "security",
          usage: { inputTokens: 7_000, outputTokens: 70 },
        }),
      );
      const second = await runningRound(42, 3);
      await t.store.saveLensReport(
        second,
        sampleLensReport({
          model: "alpha",
          lens: "correctness",
          usage: { inputTokens: 3_000, outputTokens: 300 },
        }),
      );
      await t.store.saveChallenge(second, {
        outcome: "answered",
        fingerprint: "fp-1",
        model: "beta",
        verdict: "confirm",
        reason: "checked",
        checked: null,
        usage: { inputTokens: 900, cachedInputTokens: 100, cacheWriteTokens: 50, outputTokens: 9 },
      });
      // A challenge saved before usage was counted adds nothing, and breaks nothing.
      await t.store.saveChallenge(second, {
        outcome: "failed",
        fingerprint: "fp-2",
        model: "beta",
        reason: "timed out",
      });
      // Another installation's spend is its own.
      const other = await runningRound(99, 4);
      await t.store.saveLensReport(
        other,
        sampleLensReport({ model: "alpha", usage: { inputTokens: 555, outputTokens: 5 } }),
      );

      expect(await t.store.installationSpend(42, since)).toEqual([
        {
          model: "alpha",
          usage: {
            inputTokens: 13_000,
            cachedInputTokens: 4_000,
            cacheWriteTokens: 2_000,
            outputTokens: 800,
          },
        },
        {
          model: "beta",
          usage: {
            inputTokens: 7_900,
            cachedInputTokens: 100,
            cacheWriteTokens: 50,
            outputTokens: 79,
          },
        },
      ]);
      // The round asking counts its own spend: left out here.
      expect(await t.store.installationSpend(42, since, second)).toEqual([
        {
          model: "alpha",
          usage: {
            inputTokens: 10_000,
            cachedInputTokens: 4_000,
            cacheWriteTokens: 2_000,
            outputTokens: 500,
          },
        },
        {
          model: "beta",
          usage: {
            inputTokens: 7_000,
            cachedInputTokens: 0,
            cacheWriteTokens: 0,
            outputTokens: 70,
          },
        },
      ]);
      // From the start, yesterday's lens too.
      const all = await t.store.installationSpend(42, new Date(start));
      expect(all.find((entry) => entry.model === "alpha")?.usage.inputTokens).toBe(1_013_000);
      expect(await t.store.installationSpend(7, new Date(start))).toEqual([]);
    });

    it("counts only readers' rounds when asked: the share of the daily caps readers draw on", async () => {
      const since = new Date(t.clock.now());
      const writer = await runningRound(42, 1);
      const reader = await runningRound(42, 2, { kind: "push", actor: "stranger" });
      // A writer's comment names who asked, yet is no reader's round.
      const asked = await runningRound(42, 3, { kind: "comment", actor: "maintainer" });
      for (const [round, tokens] of [
        [writer, 1_000],
        [reader, 200],
        [asked, 30],
      ] as const) {
        await t.store.saveLensReport(
          round,
          sampleLensReport({ model: "alpha", usage: { inputTokens: tokens, outputTokens: 0 } }),
        );
      }
      await t.store.saveChallenge(reader, {
        outcome: "cancelled",
        fingerprint: "fp-1",
        model: "alpha",
        reason: "superseded",
        usage: { inputTokens: 7, outputTokens: 0 },
      });
      const readers = await t.store.installationSpend(42, since, undefined, { readersOnly: true });
      expect(readers.map((entry) => entry.usage.inputTokens)).toEqual([207]);
      const all = await t.store.installationSpend(42, since);
      expect(all.map((entry) => entry.usage.inputTokens)).toEqual([1_237]);
      expect(await t.store.installationSpend(42, since, reader, { readersOnly: true })).toEqual([]);
    });
  });
}
