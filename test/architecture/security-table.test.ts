import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ReaderLimits, ReviewConfig } from "../../src/config/schema.js";
import { MAX_SETTLE_PERIODS } from "../../src/github/pace-push.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/**
 * The README's table of what a reader can make Gadfly spend, recomputed from the defaults and
 * printed: a change of a default that the table does not follow fails here.
 */
describe("the README's security table", () => {
  const limits = ReaderLimits.parse({});
  const review = ReviewConfig.parse({});
  const perPullPerHour = Math.min(
    limits.roundsPerPullRequest,
    limits.minIntervalSeconds === 0 ? Infinity : Math.floor(3600 / limits.minIntervalSeconds),
  );
  // A reader's rounds in an hour: each PR gives at most perPullPerHour, the author's allowance
  // bounds them all (any number of PRs); a day, the allowance.
  const perReaderPerHour = Math.min(limits.roundsPerAuthor || Infinity, 10 * perPullPerHour);
  const perReaderPerDay = limits.roundsPerAuthor;
  const pullsForAnHour = Math.ceil(perReaderPerHour / perPullPerHour);
  const share = `${Math.round(limits.dailyShare * 100)}%`;
  const rows = [
    {
      trigger: "draw on the daily caps",
      worst: `${perReaderPerHour} rounds/hour, ${perReaderPerDay}/day per reader (each ≤ budget.roundTokens); all readers ≤ ${share} of the daily caps`,
      readme: [
        `all readers together at most ${share} of \`budget.dailyTokens\` and of \`budget.dailyCostUsd\` a day`,
        `one reader at most ${perReaderPerHour} rounds an hour and ${perReaderPerDay} a day (${perPullPerHour} an hour on each of ${pullsForAnHour} pull requests)`,
        "waiting: readers' share of today's budget is spent;",
      ],
    },
    {
      trigger: "push / open / reopen their PR",
      worst: `${perPullPerHour} rounds per PR (${limits.roundsPerPullRequest} a day, ${limits.minIntervalSeconds / 60} min apart), ${limits.roundsPerAuthor} rounds per author`,
      readme: [
        `${limits.roundsPerPullRequest} rounds per pull request (a day, at least ${limits.minIntervalSeconds / 60} minutes apart)`,
        `${limits.roundsPerAuthor} rounds across all their pull requests`,
        `this PR reached its ${limits.roundsPerPullRequest} rounds for today`,
      ],
    },
    {
      trigger: "push faster than the quiet period",
      worst: `1 board write per PR per ${review.debounceSeconds} s; a round within ${MAX_SETTLE_PERIODS * review.debounceSeconds} s`,
      readme: [
        "1 waiting-board write per pull request per quiet period",
        `within ${MAX_SETTLE_PERIODS} quiet periods (${MAX_SETTLE_PERIODS * review.debounceSeconds} s)`,
      ],
    },
    {
      trigger: "abort rounds mid-call",
      worst: "0 free tokens: each call charged as sent",
      readme: ["every model call is charged as it is sent"],
    },
    {
      trigger: "comment / react",
      worst: "0 reaction reads after the first; 1 permission GET per login per minute",
      readme: ["a reader's reaction is read once, then remembered"],
    },
  ];

  it("prints the worst case per reader per hour with the defaults, as the README says it", () => {
    const table = rows.map((row) => `| ${row.trigger} | ${row.worst} |`).join("\n");
    console.log(`What one reader can make Gadfly spend per hour (defaults):\n${table}`);
    expect(perPullPerHour).toBe(3);
    expect([perReaderPerHour, perReaderPerDay, share]).toEqual([10, 10, "50%"]);
    for (const row of rows) for (const text of row.readme) expect(README).toContain(text);
  });
});
