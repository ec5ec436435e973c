import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../bench/build-app.js";
import { economyReport } from "../../bench/economy-report.js";
import { measureEconomyArm } from "../../bench/measure-economy.js";

/*
 * The economy benchmark's own code, on a three-file PR (the benchmark runs fifty): both arms
 * through the app process (built as the benchmark builds it: plain JavaScript starts in a
 * fraction of tsx's time on a busy machine) and the in-process app on a jumped clock,
 * so `npm run bench -- economy` cannot rot unnoticed. Figures are not judged here, only that
 * each arm measured what it says: the old arm reviews in full and starts a round per push,
 * today's reviews the push's step and starts one round for the burst, and the app's stored
 * tokens are the fakes' billed usage.
 */
describe("bench/economy.ts", { timeout: 240_000 }, () => {
  let built: BuiltApp;
  beforeAll(async () => {
    built = await buildApp();
  }, 60_000);
  afterAll(() => built?.remove());

  it("measures both arms and prints the contract's fields", async () => {
    const options = { fileCount: 3, entry: built.entry };
    const full = await measureEconomyArm("full", options);
    const economy = await measureEconomyArm("economy", options);
    const { json } = economyReport(full, economy, options.fileCount);

    expect(json.bench).toBe("economy");
    for (const field of ["fullInputTokens", "round1InputTokens", "round2InputTokens"]) {
      expect(json[field]).toBeGreaterThan(0);
    }
    expect(json.round1VsFull).toBeGreaterThan(0);
    expect(json.round2VsRound1).toBeGreaterThan(0);
    // Five pushes within 48 s of the app's clock: one round with the default quiet period,
    // five without one.
    expect(json.pushBurstRounds).toBe(1);
    expect(json.fullPushBurstRounds).toBe(5);
    expect([economy.pushBurstChecks, full.pushBurstChecks]).toEqual([1, 5]);
    expect([full.round2Scope, economy.round2Scope]).toEqual(["full", "incremental"]);
    // The old arm sends the whole diff with every turn; the compact prompt does not.
    expect(economy.round1.requestBytes).toBeLessThan(full.round1.requestBytes);
    expect(json.accountingAgrees).toBe(true);
    for (const bill of [full.round1, full.round2, economy.round1, economy.round2]) {
      expect(bill.modelCalls).toBeGreaterThanOrEqual(20);
      expect(bill.cachedInputTokens).toBeLessThan(bill.inputTokens);
    }
  });
});
