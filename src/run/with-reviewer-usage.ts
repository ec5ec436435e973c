import type { RoundUsage } from "../accounting/index.js";
import type { RoundStatus } from "./round-status.js";

/** The board's state with each reviewer's spend so far (tokens, model time, estimated cost). */
export function withReviewerUsage(status: RoundStatus, usage: RoundUsage): RoundStatus {
  const byModel = new Map(usage.models.map((model) => [model.model, model.total]));
  return {
    ...status,
    reviewers: status.reviewers.map((reviewer) => {
      const total = byModel.get(reviewer.model);
      return total === undefined ? reviewer : { ...reviewer, usage: total };
    }),
  };
}
