import { describe, expect, it } from "vitest";
import type { LensEvent } from "../../src/agent/lens-event.js";
import {
  applyLensEvent,
  cancelRemaining,
  initialRoundStatus,
} from "../../src/run/track-round-status.js";

const REASON = "agent CLIs do not review fork PRs here";
const seed = {
  headSha: "abc1234def",
  round: 1,
  reviewers: [
    { model: "cli", provider: "claude-code", lenses: ["security"] },
    { model: "chat", provider: "openai", lenses: ["security"] },
  ],
  notReviewed: [],
};
const cli = { model: "cli", provider: "claude-code", lens: "security" };

describe("a skipped lens in the round status", () => {
  it("is ended: late events of any kind do not change it", () => {
    let status = applyLensEvent(initialRoundStatus(seed, 0), {
      ...cli,
      at: 1,
      type: "skipped",
      reason: REASON,
    });
    const late: LensEvent[] = [
      { ...cli, at: 2, type: "running", turn: 1 },
      { ...cli, at: 3, type: "failed", reason: "timed out" },
      { ...cli, at: 4, type: "done", verdict: "No material issues found", findings: 0, dropped: 0 },
    ];
    for (const event of late) status = applyLensEvent(status, event);
    expect(status.reviewers[0]?.lenses).toEqual([
      { lens: "security", state: "skipped", reason: REASON },
    ]);
  });

  it("stays skipped when a newer push cancels the rest of the round", () => {
    const skipped = applyLensEvent(initialRoundStatus(seed, 0), {
      ...cli,
      at: 1,
      type: "skipped",
      reason: REASON,
    });
    const cancelled = cancelRemaining(skipped, "superseded by 1234567", 5);
    expect(cancelled.reviewers.map((reviewer) => reviewer.lenses[0])).toEqual([
      { lens: "security", state: "skipped", reason: REASON },
      { lens: "security", state: "cancelled", reason: "superseded by 1234567" },
    ]);
  });
});
