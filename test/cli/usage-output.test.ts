import { describe, expect, it } from "vitest";
import { roundUsage } from "../../src/accounting/index.js";
import { formatJson } from "../../src/cli/format-json.js";
import { formatSarif } from "../../src/cli/format-sarif.js";
import { formatText } from "../../src/cli/format-text.js";
import type { ReportMeta } from "../../src/cli/report-meta.js";
import { JsonReport } from "../../src/cli/schema.js";
import type { Consensus } from "../../src/consensus/consensus.js";
import { sampleConsensus } from "../builders/consensus.js";
import { lensReport } from "../builders/lens-report.js";

const OPUS = "claude-code/opus";
const GLM = "glm-5.2:cloud";

/** One priced model (review, verify, a challenge) and one without a price. */
const usage = roundUsage({
  reports: [
    {
      ...lensReport({ model: OPUS, lens: "security" }),
      usage: { inputTokens: 52_100, cachedInputTokens: 12_000, outputTokens: 3_400 },
      verifyUsage: { inputTokens: 2_100, outputTokens: 400 },
      durationMs: 72_000,
      verifyDurationMs: 8_000,
    },
    {
      ...lensReport({ model: GLM, lens: "security" }),
      usage: { inputTokens: 10_000, outputTokens: 1_000 },
      durationMs: 30_000,
    },
  ],
  challenges: [{ model: OPUS, usage: { inputTokens: 900, outputTokens: 100 }, durationMs: 5_000 }],
  pricing: { [OPUS]: { input: 5, cachedInput: 0.5, output: 25 } },
});

const consensus: Consensus = { ...sampleConsensus(), usage };
const META: ReportMeta = {
  toolVersion: "0.1.0",
  headSha: "0123456789abcdef0123456789abcdef01234567",
  baseSha: null,
  notReviewed: [],
  usage: { timed: true, priced: new Set([OPUS]) },
};

describe("the run's usage in the CLI's reports", () => {
  it("JSON: per model and phase, tokens, model time and the cost priced by hand", () => {
    const report = JsonReport.parse(JSON.parse(formatJson(consensus, META)));
    const opus = report.usage?.models.find((model) => model.model === OPUS);
    // review: 38,000 uncached × $5 + 12,000 cached × $0.5 + 3,000 out × $25 = $0.271
    expect(opus?.phases.review).toEqual({
      inputTokens: 50_000,
      cachedInputTokens: 12_000,
      cacheWriteTokens: 0,
      outputTokens: 3_000,
      durationMs: 64_000,
      costUsd: 0.271,
    });
    // verify: 2,100 × $5 + 400 × $25 = $0.0205; the challenge: 900 × $5 + 100 × $25 = $0.007
    expect(opus?.phases.verify).toMatchObject({
      inputTokens: 2_100,
      durationMs: 8_000,
      costUsd: 0.0205,
    });
    expect(opus?.phases.crossExamination).toMatchObject({
      inputTokens: 900,
      outputTokens: 100,
      durationMs: 5_000,
      costUsd: 0.007,
    });
    expect(opus).toMatchObject({ priced: true, total: { inputTokens: 53_000, costUsd: 0.2985 } });
    const glm = report.usage?.models.find((model) => model.model === GLM);
    expect(glm).toMatchObject({
      priced: false,
      total: { inputTokens: 10_000, outputTokens: 1_000, durationMs: 30_000, costUsd: null },
    });
    // One unpriced model makes the run's cost unknown; its tokens still add up.
    expect(report.usage?.total).toMatchObject({
      inputTokens: 63_000,
      cachedInputTokens: 12_000,
      outputTokens: 4_500,
      durationMs: 107_000,
      costUsd: null,
    });
    expect(report.usage?.phases.crossExamination.inputTokens).toBe(900);
  });

  it("SARIF: the same usage in the run's property bag", () => {
    const sarif = JSON.parse(formatSarif(consensus, META)) as {
      runs: { properties: { usage: unknown } }[];
    };
    const json = JsonReport.parse(JSON.parse(formatJson(consensus, META)));
    expect(sarif.runs[0]?.properties.usage).toEqual(json.usage);
  });

  it("text: a line per model, one per phase that spent anything, and the run's total", () => {
    const text = formatText(consensus, { color: false, notReviewed: [] });
    const section = text.slice(text.indexOf("Usage (estimated"));
    expect(section.split("\n").slice(0, 8)).toEqual([
      "Usage (estimated from the tokens the providers reported)",
      `  ${OPUS}: 53k tokens in (12k cached) · 3.5k out · 1 min 17 s · ≈ $0.30`,
      "    review: 50k tokens in (12k cached) · 3k out · 1 min 4 s · ≈ $0.27",
      "    verify: 2.1k tokens in · 400 out · 8 s · ≈ $0.02",
      "    cross-examination: 900 tokens in · 100 out · 5 s · ≈ $0.01",
      `  ${GLM}: 10k tokens in · 1k out · 30 s`,
      "    review: 10k tokens in · 1k out · 30 s",
      "  Total: 63k tokens in (12k cached) · 4.5k out · 1 min 47 s of model time · cost not estimated (no price for some models)",
    ]);
    // After the findings, never before them.
    expect(text.indexOf("Usage (estimated")).toBeGreaterThan(text.indexOf("Findings"));
  });

  it("a replayed run shows no model time, so its report is the recorded one byte for byte", () => {
    const replayed = { ...META, usage: { timed: false, priced: new Set([OPUS]) } };
    const report = JsonReport.parse(JSON.parse(formatJson(consensus, replayed)));
    expect(report.usage?.total.durationMs).toBeNull();
    expect(report.usage?.total.inputTokens).toBe(63_000);
    const text = formatText(consensus, { color: false, notReviewed: [], timed: false });
    expect(text).toContain(`  ${OPUS}: 53k tokens in (12k cached) · 3.5k out · ≈ $0.30\n`);
    const section = text.slice(text.indexOf("Usage (estimated"));
    expect(section).not.toMatch(/model time|\d s\b/);
  });

  it("says nothing of usage when the run did not count it", () => {
    const plain = sampleConsensus();
    expect(formatText(plain, { color: false, notReviewed: [] })).not.toContain("Usage");
    expect(JSON.parse(formatJson(plain, META))).not.toHaveProperty("usage");
  });
});
