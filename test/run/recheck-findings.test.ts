import { describe, expect, it } from "vitest";
import { Workspace } from "../../src/agent/workspace.js";
import type { PreviousFinding } from "../../src/consensus/consensus.js";
import type { ChallengeRecord } from "../../src/run/cross-examine.js";
import type { FindingToRecheck } from "../../src/run/plan-carry.js";
import { recheckFindings, recheckSessionLens } from "../../src/run/recheck-findings.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { answer, scriptedChatModel } from "../agent/helpers/scripted-models.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";
import { FakeClock } from "../helpers/fake-clock.js";

const previous = (
  fingerprint: string,
  severity: PreviousFinding["severity"],
  models: string[],
): FindingToRecheck => ({
  finding: {
    fingerprint,
    title: `Problem ${fingerprint}`,
    file: "src/a.js",
    line: 4,
    severity,
    detail: { endLine: 6, models, lens: "security", confidence: "high", body: "b" },
  },
  line: 4,
  endLine: 6,
});

const block = (verdict: string) =>
  answer(
    `Checked.\n\n\`\`\`gadfly-challenge\n${JSON.stringify({ verdict, reason: `it is ${verdict}`, checked: "src/a.js:4" })}\n\`\`\``,
  );

async function recheck(
  findings: FindingToRecheck[],
  verdicts: Record<string, string>,
  options: {
    maxRechecks?: number;
    models?: string[];
    signal?: AbortSignal;
    finished?: ChallengeRecord[];
  } = {},
) {
  const asked: string[] = [];
  const saved: ChallengeRecord[] = [];
  const { carried, records } = await recheckFindings(
    {
      findings,
      models: options.models ?? ["alpha", "beta"],
      maxRechecks: options.maxRechecks ?? 10,
    },
    {
      modelFor: (model, fingerprint) => {
        asked.push(`${fingerprint} → ${model}`);
        const verdict = verdicts[`${fingerprint}/${model}`] ?? verdicts[fingerprint];
        return scriptedChatModel(
          verdict === undefined ? [answer("no block"), answer("none")] : [block(verdict)],
        );
      },
      workspace: await Workspace.open(FIXTURE_REPO),
      settings: { maxTurns: 2, timeoutSeconds: 60 },
      limiter: createReviewerLimiter(2),
      signal: options.signal ?? new AbortController().signal,
      clock: new FakeClock(),
    },
    {
      finished: options.finished,
      onEnded: async (record) => {
        saved.push(record);
      },
    },
  );
  return { carried, asked, records, saved };
}

describe("recheckFindings", () => {
  it("asks every model of the round that reported each finding, and lets it go only on the quorum that made it", async () => {
    const { carried, asked } = await recheck(
      [
        previous("both", "high", ["alpha", "beta"]),
        previous("one", "high", ["alpha", "beta"]),
        previous("absent", "high", ["gamma", "beta"]),
        previous("lone", "medium", ["alpha"]),
        previous("kept", "medium", ["alpha"]),
      ],
      {
        both: "refute",
        "one/beta": "refute",
        "one/alpha": "unsure",
        absent: "refute",
        lone: "refute",
        kept: "confirm",
      },
    );
    expect(asked.sort()).toEqual([
      "absent → beta",
      "both → alpha",
      "both → beta",
      "kept → alpha",
      "lone → alpha",
      "one → alpha",
      "one → beta",
    ]);
    // A 2-model finding refuted by both, and a lone one by its own model, are fixed. One
    // refutation of a 2-model finding, or a reporter that does not run now, keeps it open.
    expect(carried).toEqual([
      { fingerprint: "one", line: 4, endLine: 6, recheck: "unsure" },
      { fingerprint: "absent", line: 4, endLine: 6, recheck: "unsure" },
      { fingerprint: "kept", line: 4, endLine: 6, recheck: "confirmed" },
    ]);
  });

  it("re-checks a moved finding at its new path, and carries it there", async () => {
    const { carried } = await recheck(
      [{ ...previous("moved", "high", ["alpha"]), file: "src/vendor/a.js" }],
      { moved: "confirm" },
    );
    expect(carried).toEqual([
      { fingerprint: "moved", file: "src/vendor/a.js", line: 4, endLine: 6, recheck: "confirmed" },
    ]);
  });

  it("keeps a finding open, marked unsure, when its re-check is unsure or gives no answer", async () => {
    const { carried } = await recheck(
      [previous("f1", "high", ["alpha"]), previous("f2", "low", ["alpha"])],
      { f1: "unsure" },
    );
    expect(carried).toEqual([
      { fingerprint: "f1", line: 4, endLine: 6, recheck: "unsure" },
      { fingerprint: "f2", line: 4, endLine: 6, recheck: "unsure" },
    ]);
  });

  it("re-checks the most severe first up to the cap, keeps the rest open unasked, and asks the round's first model when no reporter runs", async () => {
    const { carried, asked } = await recheck(
      [previous("low", "low", ["gone"]), previous("high", "high", ["gone"])],
      { high: "refute", low: "refute" },
      { maxRechecks: 1 },
    );
    expect(asked).toEqual(["high → alpha"]);
    // A model that did not report it cannot make the quorum: refuted by it, still open.
    expect(carried).toEqual([
      { fingerprint: "high", line: 4, endLine: 6, recheck: "unsure" },
      { fingerprint: "low", line: 4, endLine: 6, recheck: "unsure" },
    ]);
  });

  it("never calls a finding fixed once the round is stopped", async () => {
    const controller = new AbortController();
    controller.abort("superseded");
    const { carried } = await recheck(
      [previous("f1", "high", ["alpha"])],
      { f1: "refute" },
      {
        signal: controller.signal,
      },
    );
    expect(carried).toEqual([{ fingerprint: "f1", line: 4, endLine: 6, recheck: "unsure" }]);
  });

  it("does not ask again what ended before a restart, and hands each new answer over to be kept", async () => {
    const kept: ChallengeRecord = {
      outcome: "answered",
      fingerprint: "f1",
      model: "alpha",
      verdict: "refute",
      reason: "fixed",
      checked: "src/a.js:4",
    };
    const { carried, asked, records, saved } = await recheck(
      [previous("f1", "high", ["alpha"]), previous("f2", "high", ["alpha"])],
      { f1: "confirm", f2: "confirm" },
      { finished: [kept] },
    );
    expect(asked).toEqual(["f2 → alpha"]);
    expect(carried.map((entry) => entry.fingerprint)).toEqual(["f2"]);
    expect(records[0]).toBe(kept);
    expect(saved.map((record) => record.fingerprint)).toEqual(["f2"]);
  });

  it("names each re-check's session after its finding", () => {
    expect(recheckSessionLens("abc")).toBe("recheck-abc");
  });
});
