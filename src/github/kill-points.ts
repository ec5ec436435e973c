/**
 * The named points of a round's publishing, in order, where a test may have the process
 * killed (`GADFLY_TEST_KILL_POINT`, read once at start-up): the kill-point matrix restarts
 * the app after each and counts what GitHub shows. Inert unless a test names one.
 */
export const KILL_POINTS = [
  "after-check-created",
  "before-consensus",
  "after-consensus",
  "before-review",
  "after-review-posted",
  "after-review-recorded",
  "after-inline-recorded",
  "before-check",
  "after-check",
  "after-board",
] as const;

export type KillPoint = (typeof KILL_POINTS)[number];
