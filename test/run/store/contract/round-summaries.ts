import { describe, expect, it } from "vitest";
import type { SummaryRecord } from "../../../../src/run/summary-phase.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const written = (line: string): SummaryRecord => ({
  outcome: "written",
  model: "alpha",
  summary: {
    lines: [line],
    groups: [{ label: "Data access", files: ["src/db.ts"] }],
    verdictLinesDropped: 1,
  },
  usage: { inputTokens: 900, outputTokens: 60, cachedInputTokens: 100 },
  durationMs: 1200,
});

/** The summary a round wrote, kept whole so a resumed round reuses it. */
export function runStoreContractRoundSummaries(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  describe("round summaries", () => {
    it("keeps the written summary whole, replaces it when written again, and has none before", async () => {
      const { round } = await t.store.startRound({
        repo: { owner: "octo-org", repo: "summaries" },
        installationId: 42,
        pullNumber: 3,
        headSha: "c".repeat(40),
        trigger: { kind: "push", deliveryId: "d-summary" },
      });
      expect(await t.store.roundSummary(round.id)).toBeNull();
      await t.store.saveRoundSummary(round.id, written("Adds a lookup."));
      expect(await t.store.roundSummary(round.id)).toEqual(written("Adds a lookup."));
      await t.store.saveRoundSummary(round.id, written("Adds a lookup, twice."));
      expect(await t.store.roundSummary(round.id)).toEqual(written("Adds a lookup, twice."));
      expect(await t.store.roundSummary("no-such-round")).toBeNull();
    });
  });
}
