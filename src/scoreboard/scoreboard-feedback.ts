import type { StoredFeedback } from "../run/store/index.js";

/** One piece of feedback on a finding, as the store's `feedbackSince` returns it. */
export type ScoreboardFeedback = StoredFeedback;
