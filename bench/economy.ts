/**
 * Benchmark 6, economy (issue 15): what a round costs in model input, with today's behaviour
 * and with the old one, in one run. Arm "full" is the behaviour before issue 15 (the whole
 * packed diff in every turn, every round a full review, no quiet period after a push; the
 * bench-only GADFLY_BENCH_PROMPT_STYLE=full-diff); arm "economy" is today's defaults (the
 * compact first message with get_diff, incremental rounds from round 2, 30 s of quiet).
 * Each arm: the app process (as `npm start` runs it, built from src/) reviews the 50-file
 * synthetic PR (round 1), then a push that changes one file (round 2); then five pushes to a
 * PR 12 s apart count the rounds they start. Tokens are the `usage` the fake providers
 * reported (4 bytes a token, OpenAI-style prefix caching on the OpenAI fake), read back from
 * the fakes, the same meter for both arms, and checked against what the app stored.
 * Targets: round1/full ≤ 0.5, round2/round1 ≤ 0.2, pushBurstRounds = 1. Exits 1 on a miss.
 * Run: `npx tsx bench/economy.ts` (or `npm run bench -- economy`). Environment:
 * BENCH_FILES (50), BENCH_ENTRY=tsx (run src/main.ts through tsx instead of the build).
 */
import { type BuiltApp, buildApp } from "./build-app.js";
import { economyReport } from "./economy-report.js";
import { measureEconomyArm } from "./measure-economy.js";
import { printReport } from "./print-report.js";

const FILE_COUNT = Number(process.env.BENCH_FILES ?? 50);
const built: BuiltApp | undefined =
  process.env.BENCH_ENTRY === "tsx" ? undefined : await buildApp();
try {
  const options = {
    fileCount: FILE_COUNT,
    ...(built === undefined ? {} : { entry: built.entry }),
  };
  const full = await measureEconomyArm("full", options);
  const economy = await measureEconomyArm("economy", options);
  const report = economyReport(full, economy, FILE_COUNT);
  printReport(report.rows, report.json);
  if (report.json.pass !== true) process.exitCode = 1;
} finally {
  await built?.remove();
}
