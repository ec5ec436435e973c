import { describe, expect, it } from "vitest";
import { Workspace } from "../../src/agent/workspace.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { type ChallengeRecord, crossExamine, planChallenges } from "../../src/run/cross-examine.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { answer, scriptedChatModel } from "../agent/helpers/scripted-models.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";
import { lensFinding } from "../builders/finding.js";
import { lensReport } from "../builders/lens-report.js";
import { FakeClock } from "../helpers/fake-clock.js";

const finding = (title: string, severity: LensFinding["severity"], file: string, line = 5) =>
  lensFinding({ title, severity, file, line, endLine: line });

function clusters() {
  return buildConsensus({
    reports: [
      lensReport({
        model: "alpha",
        lens: "security",
        findings: [
          finding("SQL injection in findUser", "medium", "src/db.js", 7),
          finding("Trailing whitespace", "nit", "src/db.js", 20),
          finding("Shared helper", "low", "src/shared.js", 3),
        ],
      }),
      lensReport({
        model: "beta",
        lens: "security",
        findings: [
          finding("Shared helper", "low", "src/shared.js", 3),
          finding("Token logged in plain text", "high", "src/log.js", 11),
        ],
      }),
      lensReport({ model: "gamma", lens: "security", outcome: "failed", failure: "HTTP 503" }),
    ],
    modelOrder: ["alpha", "beta", "gamma"],
    lensOrder: ["security"],
    providers: { alpha: "p", beta: "p", gamma: "p" },
  }).clusters;
}

const settings = { minSeverity: "medium", maxChallenges: 10 } as const;

describe("planChallenges", () => {
  it("puts each lone finding at or above the threshold, most severe first, to the other completed models", () => {
    const planned = planChallenges(clusters(), ["alpha", "beta"], settings);
    expect(planned.map((entry) => `${entry.claim.title} → ${entry.challenger}`)).toEqual([
      "Token logged in plain text → alpha",
      "SQL injection in findUser → beta",
    ]);
  });

  it("caps the findings challenged, and challenges nothing when no other model completed", () => {
    expect(
      planChallenges(clusters(), ["alpha", "beta"], { ...settings, maxChallenges: 1 }),
    ).toHaveLength(1);
    expect(
      planChallenges(clusters(), ["alpha"], settings).map((entry) => entry.claim.title),
    ).toEqual(["Token logged in plain text"]);
    expect(planChallenges(clusters(), [], settings)).toEqual([]);
  });
});

describe("crossExamine", () => {
  it("asks each planned challenge once, reuses those a restart kept, and records failures", async () => {
    const planned = planChallenges(clusters(), ["alpha", "beta"], settings);
    const [first, second] = planned;
    if (first === undefined || second === undefined) throw new Error("two challenges expected");
    const kept: ChallengeRecord = {
      outcome: "answered",
      fingerprint: first.fingerprint,
      model: first.challenger,
      verdict: "refute",
      reason: "masked before logging",
      checked: "src/log.js:11",
    };
    const asked: string[] = [];
    const saved: ChallengeRecord[] = [];
    const records = await crossExamine(
      planned,
      {
        modelFor: (model) => {
          asked.push(model);
          return scriptedChatModel([answer("no block"), answer("still no block")]);
        },
        workspace: await Workspace.open(FIXTURE_REPO),
        settings: { maxTurns: 2, timeoutSeconds: 60 },
        limiter: createReviewerLimiter(2),
        signal: new AbortController().signal,
        clock: new FakeClock(),
      },
      {
        finished: [kept],
        onEnded: async (record) => {
          saved.push(record);
        },
      },
    );
    expect(asked).toEqual([second.challenger]);
    expect(records[0]).toBe(kept);
    expect(records[1]).toMatchObject({
      outcome: "failed",
      fingerprint: second.fingerprint,
      reason: "no gadfly-challenge block",
    });
    expect(saved).toEqual([records[1]]);
  });

  it("ends every challenge cancelled, without building a model, once the round is stopped", async () => {
    const controller = new AbortController();
    controller.abort("superseded by 1a2b3c4");
    const records = await crossExamine(planChallenges(clusters(), ["alpha", "beta"], settings), {
      modelFor: () => {
        throw new Error("no model may be built");
      },
      workspace: await Workspace.open(FIXTURE_REPO),
      settings: { maxTurns: 2, timeoutSeconds: 60 },
      limiter: createReviewerLimiter(1),
      signal: controller.signal,
      clock: new FakeClock(),
    });
    expect(records.map((record) => record.outcome)).toEqual(["cancelled", "cancelled"]);
  });

  it("cleans each new record's reason once (the round redacts secrets there), not the kept ones", async () => {
    const planned = planChallenges(clusters(), ["alpha", "beta"], settings).slice(0, 1);
    const records = await crossExamine(planned, {
      modelFor: () => scriptedChatModel([answer("no block"), answer("still no block")]),
      workspace: await Workspace.open(FIXTURE_REPO),
      settings: { maxTurns: 2, timeoutSeconds: 60 },
      limiter: createReviewerLimiter(1),
      signal: new AbortController().signal,
      clock: new FakeClock(),
      cleanReason: (reason) => `[clean] ${reason}`,
    });
    expect(records.map((record) => record.outcome === "answered" || record.reason)).toEqual([
      "[clean] no gadfly-challenge block",
    ]);
  });
});
