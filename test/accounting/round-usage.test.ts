import { describe, expect, it } from "vitest";
import { roundUsage, usageFigures } from "../../src/accounting/index.js";
import { roundUsageLine, usageLine } from "../../src/render/index.js";
import { lensReport } from "../builders/lens-report.js";

const PRICE = { input: 2, cachedInput: 0.5, output: 8 };

describe("usageFigures", () => {
  it("bills uncached input, cache reads and output each at its price", () => {
    const figures = usageFigures(
      { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000 },
      1_500,
      PRICE,
    );
    // 600k × $2 + 400k × $0.50 + 100k × $8, per million.
    expect(figures.costUsd).toBeCloseTo(1.2 + 0.2 + 0.8, 10);
    expect(figures).toMatchObject({ cachedInputTokens: 400_000, durationMs: 1_500 });
  });

  it("has no cost without a price, unless nothing was spent", () => {
    expect(usageFigures({ inputTokens: 5, outputTokens: 1 }, 0, undefined).costUsd).toBeNull();
    expect(usageFigures({ inputTokens: 0, outputTokens: 0 }, 0, undefined).costUsd).toBe(0);
  });
});

describe("roundUsage", () => {
  it("counts a lens a fallback answered as the fallback's spend, at the fallback's price", () => {
    const usage = roundUsage({
      reports: [
        {
          ...lensReport({ model: "a", lens: "performance" }),
          answeredBy: "b",
          failovers: [{ from: "a", to: "b", reason: "503" }],
          usage: { inputTokens: 1_000, outputTokens: 100 },
        },
      ],
      pricing: { a: PRICE, b: { input: 1, output: 1 } },
    });
    expect(usage.models.map((model) => [model.model, model.total.inputTokens])).toEqual([
      ["b", 1_000],
    ]);
    expect(usage.total.costUsd).toBeCloseTo(1_100 / 1e6, 12);
  });

  it("splits each lens into review and verify, adds challenges, and sums per model and round", () => {
    const reports = [
      {
        ...lensReport({ model: "a", lens: "security" }),
        usage: { inputTokens: 3_000, outputTokens: 300 },
        verifyUsage: { inputTokens: 1_000, outputTokens: 100 },
        durationMs: 10_000,
        verifyDurationMs: 4_000,
      },
      {
        ...lensReport({ model: "b", lens: "security" }),
        usage: { inputTokens: 700, outputTokens: 70 },
      },
    ];
    const usage = roundUsage({
      reports,
      challenges: [{ model: "b", usage: { inputTokens: 50, outputTokens: 5 }, durationMs: 900 }],
      pricing: { a: PRICE },
    });
    const [a, b] = usage.models;
    expect(a?.phases.review).toMatchObject({
      inputTokens: 2_000,
      outputTokens: 200,
      durationMs: 6_000,
    });
    expect(a?.phases.verify).toMatchObject({
      inputTokens: 1_000,
      outputTokens: 100,
      durationMs: 4_000,
    });
    expect(a?.total.costUsd).toBeCloseTo((3_000 * 2 + 300 * 8) / 1e6, 12);
    expect(b?.phases["cross-examination"]).toMatchObject({ inputTokens: 50, durationMs: 900 });
    expect(b?.total.costUsd).toBeNull();
    expect(usage.total).toMatchObject({ inputTokens: 3_750, outputTokens: 375 });
    // One unpriced model makes the round's cost unknown, never understated.
    expect(usage.total.costUsd).toBeNull();
    expect(roundUsageLine(usage)).toContain("cost not estimated");
    expect(usageLine(a?.total ?? usage.total)).toBe("3k tokens in · 300 out · 10 s · ≈ $0.01");
  });
});
