import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreementOf } from "../../src/consensus/apply-challenges.js";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import type { Finding } from "../../src/consensus/finding.js";
import { SEVERITY_RANK } from "../../src/findings/schema.js";

const MODEL_ORDER = ["opus", "kimi", "glm", "sonnet"];
const SUBJECTS = ["`parseConfig`", "`resp.Body`", "`retryCount`", "`summaryLead`", "the token"];
const PROBLEMS = [
  "can be null and throws",
  "is never closed",
  "is duplicated in two places",
  "is logged in plain text",
  "grows without bound",
];

// A small vocabulary and a few files and lines, so that clusters of several findings form.
const finding: fc.Arbitrary<Finding> = fc
  .record({
    file: fc.constantFrom("src/a.ts", "src/b.ts", "lib/c.go"),
    line: fc.integer({ min: 1, max: 60 }),
    span: fc.integer({ min: 0, max: 4 }),
    severity: fc.constantFrom("high", "medium", "low", "nit"),
    confidence: fc.constantFrom("high", "medium", "low"),
    subject: fc.constantFrom(...SUBJECTS),
    problem: fc.constantFrom(...PROBLEMS),
    detail: fc.constantFrom("", "Guard it.", "See the caller at line 3.", "Extract a helper."),
    model: fc.constantFrom(...MODEL_ORDER, "unlisted-model"),
    lens: fc.constantFrom("security", "correctness", "maintainability"),
  })
  .map(({ span, subject, problem, detail, ...rest }) => ({
    ...rest,
    endLine: rest.line + span,
    title: `${subject} ${problem}`,
    body: `${subject} ${problem}. ${detail}`,
  }));

const findings = fc.array(finding, { maxLength: 40 });

describe("clusterFindings properties", () => {
  it("gives the same clusters in the same order whatever the input order", () => {
    fc.assert(
      fc.property(
        findings.chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length })),
        ),
        ([list, shuffled]) => {
          expect(clusterFindings(shuffled, { modelOrder: MODEL_ORDER })).toEqual(
            clusterFindings(list, { modelOrder: MODEL_ORDER }),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("puts every finding in exactly one cluster, and a cluster in one file", () => {
    fc.assert(
      fc.property(findings, (list) => {
        const clusters = clusterFindings(list, { modelOrder: MODEL_ORDER });
        const members = clusters.flatMap((cluster) => cluster.findings);
        expect(members).toHaveLength(list.length);
        expect(new Set(members)).toEqual(new Set(list));
        for (const cluster of clusters) {
          expect(new Set(cluster.findings.map((member) => member.file)).size).toBe(1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("lists each cluster's models once, in config order, and picks a member as representative", () => {
    const rank = (model: string) =>
      MODEL_ORDER.includes(model) ? MODEL_ORDER.indexOf(model) : MODEL_ORDER.length;
    fc.assert(
      fc.property(findings, (list) => {
        for (const cluster of clusterFindings(list, { modelOrder: MODEL_ORDER })) {
          expect(cluster.models).toEqual(
            [...new Set(cluster.findings.map((member) => member.model))].sort(
              (a, b) => rank(a) - rank(b) || (a < b ? -1 : 1),
            ),
          );
          expect(cluster.findings[0]).toBe(cluster.representative);
          expect(cluster.findings).toContain(cluster.representative);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("ranks by agreement (an unsure cluster counts one model), then severity", () => {
    fc.assert(
      fc.property(findings, (list) => {
        const clusters = clusterFindings(list, { modelOrder: MODEL_ORDER });
        for (const [index, cluster] of clusters.entries()) {
          const next = clusters[index + 1];
          if (next === undefined) {
            continue;
          }
          expect(agreementOf(cluster)).toBeGreaterThanOrEqual(agreementOf(next));
          if (agreementOf(cluster) === agreementOf(next)) {
            expect(SEVERITY_RANK[cluster.severity]).toBeGreaterThanOrEqual(
              SEVERITY_RANK[next.severity],
            );
          }
        }
        expect(new Set(clusters.map((cluster) => cluster.fingerprint)).size).toBe(clusters.length);
      }),
      { numRuns: 150 },
    );
  });
});
