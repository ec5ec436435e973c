import type { ArmFigures, RoundBill } from "./measure-economy.js";

export const ECONOMY_TARGETS = {
  round1VsFull: 0.5,
  round2VsRound1: 0.2,
  pushBurstRounds: 1,
} as const;

const ratio = (part: number, whole: number) =>
  whole === 0 ? Number.NaN : Number((part / whole).toFixed(3));

/**
 * The economy benchmark's table and its JSON line: the contract's four figures (the old
 * arm's round 1, today's rounds 1 and 2, today's burst), the ratios against the targets,
 * and each arm's figures whole. `pass` also requires that the app stored the tokens the
 * fakes billed (the accounting agrees with the provider).
 */
export function economyReport(
  full: ArmFigures,
  economy: ArmFigures,
  fileCount: number,
): { rows: Array<[string, string]>; json: Record<string, unknown> } {
  const round1VsFull = ratio(economy.round1.inputTokens, full.round1.inputTokens);
  const round2VsRound1 = ratio(economy.round2.inputTokens, economy.round1.inputTokens);
  const met = {
    round1VsFull: round1VsFull <= ECONOMY_TARGETS.round1VsFull,
    round2VsRound1: round2VsRound1 <= ECONOMY_TARGETS.round2VsRound1,
    pushBurstRounds: economy.pushBurstRounds === ECONOMY_TARGETS.pushBurstRounds,
  };
  const bills = [full.round1, full.round2, economy.round1, economy.round2];
  const accountingAgrees = bills.every((bill) => bill.storedInputTokens === bill.inputTokens);
  const pass = met.round1VsFull && met.round2VsRound1 && met.pushBurstRounds && accountingAgrees;
  const line = (bill: RoundBill) =>
    `${bill.inputTokens.toLocaleString("en")} in (${bill.cachedInputTokens.toLocaleString("en")} cached), ${bill.outputTokens.toLocaleString("en")} out, ${bill.modelCalls} calls, ${(bill.requestBytes / 1e6).toFixed(2)} MB`;
  const rows: Array<[string, string]> = [
    [
      "workload",
      `${fileCount}-file PR, 4 models × 5 lenses, instant fake models; round 2 after a one-file push`,
    ],
    ["old: round 1 (full diff every turn)", line(full.round1)],
    [`old: round 2 (${full.round2Scope})`, line(full.round2)],
    ["today: round 1 (compact + get_diff)", line(economy.round1)],
    [`today: round 2 (${economy.round2Scope})`, line(economy.round2)],
    [
      "round 1 today ÷ old",
      `${round1VsFull} (target ≤ ${ECONOMY_TARGETS.round1VsFull}) ${met.round1VsFull ? "met" : "MISSED"}`,
    ],
    [
      "round 2 ÷ round 1, today",
      `${round2VsRound1} (target ≤ ${ECONOMY_TARGETS.round2VsRound1}) ${met.round2VsRound1 ? "met" : "MISSED"}`,
    ],
    [
      "rounds started by 5 pushes in 48 s",
      `today ${economy.pushBurstRounds} (target ${ECONOMY_TARGETS.pushBurstRounds}) ${met.pushBurstRounds ? "met" : "MISSED"}; old ${full.pushBurstRounds}`,
    ],
    ["app's stored tokens = fakes' usage", accountingAgrees ? "yes" : "NO"],
    ["result", pass ? "PASS" : "FAIL"],
  ];
  const json = {
    bench: "economy",
    fullInputTokens: full.round1.inputTokens,
    round1InputTokens: economy.round1.inputTokens,
    round2InputTokens: economy.round2.inputTokens,
    pushBurstRounds: economy.pushBurstRounds,
    round1VsFull,
    round2VsRound1,
    fullPushBurstRounds: full.pushBurstRounds,
    files: fileCount,
    tokenSource: "fake providers' reported usage (4 bytes/token, OpenAI prefix caching)",
    full,
    economy,
    accountingAgrees,
    targets: ECONOMY_TARGETS,
    met,
    pass,
  };
  return { rows, json };
}
