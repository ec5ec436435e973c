import { describe, expect, it } from "vitest";
import { budgetReached, noUsage, type UsageFigures } from "../../src/accounting/index.js";

function spent(inputTokens: number, outputTokens = 0, costUsd: number | null = 0): UsageFigures {
  return { ...noUsage(), inputTokens, outputTokens, costUsd };
}

describe("budgetReached", () => {
  it("is null while every cap has room, and names the round cap once input plus output reach it", () => {
    const budget = { roundTokens: 10_000 };
    expect(budgetReached(budget, { round: spent(9_000, 999) })).toBeNull();
    expect(budgetReached(budget, { round: spent(9_000, 1_000) })).toBe(
      "round cap of 10,000 tokens",
    );
  });

  it("counts cached input as input", () => {
    const round = { ...spent(10_000), cachedInputTokens: 9_000 };
    expect(budgetReached({ roundTokens: 10_000 }, { round })).toBe("round cap of 10,000 tokens");
  });

  it("checks the daily caps against today's spend, and only when it is known", () => {
    const budget = { dailyTokens: 1_000_000, dailyCostUsd: 20 };
    expect(budgetReached(budget, { round: spent(5_000_000) })).toBeNull();
    expect(budgetReached(budget, { round: spent(1), today: spent(999_999, 0, 19.99) })).toBeNull();
    expect(budgetReached(budget, { round: spent(1), today: spent(1_000_000) })).toBe(
      "daily cap of 1,000,000 tokens",
    );
    expect(budgetReached(budget, { round: spent(1), today: spent(10, 0, 20) })).toBe(
      "daily cap of $20.00",
    );
    // A cost the figures cannot give is not taken for zero nor for the cap.
    expect(
      budgetReached({ dailyCostUsd: 1 }, { round: spent(1), today: spent(10, 0, null) }),
    ).toBeNull();
  });

  it("names the round cap first when several are reached, and nothing without caps", () => {
    const all = { roundTokens: 1, dailyTokens: 1, dailyCostUsd: 0.01 };
    expect(budgetReached(all, { round: spent(5), today: spent(5, 0, 5) })).toBe(
      "round cap of 1 token",
    );
    expect(budgetReached({}, { round: spent(1e12), today: spent(1e12, 0, 1e9) })).toBeNull();
  });
});
