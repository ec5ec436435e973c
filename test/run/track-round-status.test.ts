import { describe, expect, it } from "vitest";
import type { LensEvent } from "../../src/agent/lens-event.js";
import {
  applyLensEvent,
  cancelRemaining,
  initialRoundStatus,
} from "../../src/run/track-round-status.js";

const seed = {
  headSha: "abc1234def",
  round: 2,
  reviewers: [
    { model: "m1", provider: "p", lenses: ["security", "correctness"] },
    { model: "m2", provider: "q", lenses: ["security", "correctness"] },
  ],
  notReviewed: [],
};
const source = { model: "m1", provider: "p", lens: "security", at: 1_000 };

describe("round status", () => {
  it("starts every lens queued", () => {
    const status = initialRoundStatus(seed, 0);
    expect(
      status.reviewers.flatMap((reviewer) => reviewer.lenses.map((lens) => lens.state)),
    ).toEqual(["queued", "queued", "queued", "queued"]);
    expect(status.finished).toBe(false);
  });

  it("follows one lens through running, tool calls and done, touching nothing else", () => {
    const events: LensEvent[] = [
      { ...source, type: "running", turn: 1 },
      { ...source, type: "tool", turn: 2, name: "grep", summary: "summaryLead" },
      { ...source, type: "verifying", findings: 2 },
      { ...source, type: "done", verdict: "Minor issues", findings: 1, dropped: 1 },
    ];
    const states = [];
    let status = initialRoundStatus(seed, 0);
    for (const event of events) {
      status = applyLensEvent(status, event);
      states.push(status.reviewers[0]?.lenses[0]);
    }
    expect(states).toEqual([
      { lens: "security", state: "running", turn: 1 },
      { lens: "security", state: "running", turn: 2 },
      { lens: "security", state: "running", turn: 2 },
      { lens: "security", state: "done", verdict: "Minor issues" },
    ]);
    expect(status.reviewers[0]?.lenses[1]).toEqual({ lens: "correctness", state: "queued" });
    expect(status.reviewers[1]?.lenses[0]).toEqual({ lens: "security", state: "queued" });
    expect(status.updatedAt.getTime()).toBe(1_000);
  });

  it("keeps an ended lens ended when a late event arrives", () => {
    let status = initialRoundStatus(seed, 0);
    status = applyLensEvent(status, { ...source, type: "failed", reason: "timed out after 900 s" });
    status = applyLensEvent(status, { ...source, type: "running", turn: 7 });
    expect(status.reviewers[0]?.lenses[0]).toEqual({
      lens: "security",
      state: "failed",
      reason: "timed out after 900 s",
    });
  });

  it("cancels what has not ended and leaves finished lenses alone", () => {
    let status = initialRoundStatus(seed, 0);
    status = applyLensEvent(status, {
      ...source,
      type: "done",
      verdict: "No material issues found",
      findings: 0,
      dropped: 0,
    });
    status = applyLensEvent(status, { ...source, lens: "correctness", type: "running", turn: 3 });
    status = cancelRemaining(status, "superseded by def5678", 5_000);
    expect(status.reviewers[0]?.lenses.map((lens) => lens.state)).toEqual(["done", "cancelled"]);
    expect(status.reviewers[1]?.lenses.map((lens) => lens.state)).toEqual([
      "cancelled",
      "cancelled",
    ]);
    expect(status.reviewers[1]?.lenses[0]?.reason).toBe("superseded by def5678");
  });
});
