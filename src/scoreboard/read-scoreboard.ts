import type { PriceTable } from "../config/index.js";
import type { RunStore } from "../run/store/index.js";
import { computeScoreboard } from "./compute-scoreboard.js";
import type { RepositoryName } from "./parse-repository.js";
import type { Scoreboard } from "./scoreboard.js";

export interface ReadScoreboardOptions {
  /** The window's length, back from `now`. */
  windowMs: number;
  now: Date;
  /** One repository, or every one. */
  repository?: RepositoryName | undefined;
  prices: PriceTable;
}

/** Reads the window's rows and feedback from the store and scores them. */
export async function readScoreboard(
  store: Pick<RunStore, "scoreboardRows" | "feedbackSince">,
  options: ReadScoreboardOptions,
): Promise<Scoreboard> {
  const since = new Date(options.now.getTime() - options.windowMs);
  const repo = options.repository;
  const [rows, feedback] = await Promise.all([
    store.scoreboardRows(since, repo),
    store.feedbackSince(since, repo),
  ]);
  return computeScoreboard({
    rows,
    feedback,
    prices: options.prices,
    since,
    until: options.now,
    repository: repo === undefined ? null : `${repo.owner}/${repo.repo}`,
  });
}
