import { describe, expect, it } from "vitest";
import { retentionDays, startRetention } from "../../src/run/start-retention.js";

describe("startRetention", () => {
  it("prunes transcripts and deliveries older than their ages at start", async () => {
    const calls: string[] = [];
    const now = Date.UTC(2026, 10, 30);
    const retention = startRetention({
      store: {
        pruneTranscripts: async (olderThan) => {
          calls.push(`transcripts < ${olderThan.toISOString()}`);
          return 3;
        },
        pruneDeliveries: async (olderThan) => {
          calls.push(`deliveries < ${olderThan.toISOString()}`);
          return 7;
        },
      },
      transcriptDays: 30,
      deliveryDays: 14,
      now: () => now,
    });
    await retention.prune();
    retention.stop();
    expect(new Set(calls)).toEqual(
      new Set(["transcripts < 2026-10-31T00:00:00.000Z", "deliveries < 2026-11-16T00:00:00.000Z"]),
    );
  });

  it("reports a failing prune instead of throwing", async () => {
    const errors: unknown[] = [];
    const retention = startRetention({
      store: {
        pruneTranscripts: async () => {
          throw new Error("database is locked");
        },
        pruneDeliveries: async () => 0,
      },
      transcriptDays: 1,
      deliveryDays: 1,
      onError: (error) => errors.push(error),
    });
    await retention.prune();
    retention.stop();
    expect(errors.length).toBeGreaterThanOrEqual(1);
  });

  it("reads days from the environment, falling back on nonsense", () => {
    expect(retentionDays("7", 30)).toBe(7);
    expect(retentionDays(undefined, 30)).toBe(30);
    expect(retentionDays("-1", 30)).toBe(30);
    expect(retentionDays("soon", 30)).toBe(30);
  });
});
