import { describe, expect, it } from "vitest";
import type { Cluster } from "../../src/consensus/cluster.js";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import { compareRounds } from "../../src/consensus/compare-rounds.js";
import type { PreviousFinding } from "../../src/consensus/consensus.js";
import type { Finding } from "../../src/consensus/finding.js";
import { makeFinding } from "../builders/finding.js";
import type { LabelledFinding } from "./corpus/corpus-scenario.js";
import { corpus } from "./corpus/index.js";

const MODELS = ["opus", "kimi", "glm"];
const FILE = "src/render/helpers.ts";

/** What a round stores of its clusters, as the publisher does. */
function published(clusters: readonly Cluster[]): PreviousFinding[] {
  return clusters.map((cluster) => ({
    fingerprint: cluster.fingerprint,
    title: cluster.representative.title,
    file: cluster.representative.file,
    line: cluster.representative.line,
    severity: cluster.severity,
  }));
}

const shifted = (finding: Finding, lines: number): Finding => ({
  ...finding,
  line: finding.line + lines,
  endLine: finding.endLine + lines,
});

const representativeNull = makeFinding({
  file: FILE,
  line: 10,
  model: "opus",
  confidence: "high",
  title: "Missing null check on `cluster.representative`",
  body: "`cluster.representative.title` is read without checking; an empty cluster throws here.",
});
const xss = makeFinding({
  file: FILE,
  line: 60,
  model: "opus",
  title: "Unescaped model output in the `detail` helper",
  body: "`new Handlebars.SafeString(finding.body)` publishes model-written HTML verbatim.",
});
const magicNumber = makeFinding({
  file: FILE,
  line: 95,
  model: "kimi",
  title: "Magic number 30 for the inline comment cap",
  body: "Name it `MAX_INLINE_COMMENTS`.",
});

function round(previousFindings: readonly Finding[], currentFindings: readonly Finding[]) {
  const previous = published(clusterFindings(previousFindings, { modelOrder: MODELS }));
  const current = clusterFindings(currentFindings, { modelOrder: MODELS });
  return {
    previous,
    ...compareRounds({ round: 2, previousHeadSha: "abc1234", previous, clusters: current }),
  };
}

const titles = (clusters: readonly Cluster[]) =>
  clusters.map((cluster) => cluster.representative.title);

describe("compareRounds", () => {
  it("keeps a finding whose lines moved by 40 open", () => {
    const { comparison } = round([representativeNull, xss], [shifted(representativeNull, 40), xss]);
    expect(titles(comparison.stillOpen).sort()).toEqual(
      [representativeNull.title, xss.title].sort(),
    );
    expect(comparison.fresh).toEqual([]);
    expect(comparison.fixed).toEqual([]);
  });

  it("keeps a finding open when another model words it differently, and keeps its fingerprint", () => {
    const reworded = makeFinding({
      file: FILE,
      line: 52,
      model: "glm",
      title: "`representative` may be undefined for an empty cluster",
      body: "Guard `cluster.representative` before reading its title.",
    });
    const { previous, clusters, comparison } = round([representativeNull, xss], [reworded, xss]);
    expect(titles(comparison.stillOpen)).toContain(reworded.title);
    expect(comparison.fixed).toEqual([]);
    const earlier = previous.find((finding) => finding.title === representativeNull.title);
    expect(clusters.find((cluster) => cluster.representative === reworded)?.fingerprint).toBe(
      earlier?.fingerprint,
    );
  });

  it("reports a finding gone from this round as fixed, and a new one as fresh", () => {
    const { comparison } = round([representativeNull, xss], [xss, magicNumber]);
    expect(comparison.fixed.map((finding) => finding.title)).toEqual([representativeNull.title]);
    expect(titles(comparison.fresh)).toEqual([magicNumber.title]);
    expect(titles(comparison.stillOpen)).toEqual([xss.title]);
  });

  it("carries the round number and the previous head", () => {
    const { comparison } = round([xss], [xss]);
    expect(comparison.round).toBe(2);
    expect(comparison.previousHeadSha).toBe("abc1234");
  });

  it("does not match the same problem in another file", () => {
    const elsewhere = { ...representativeNull, file: "src/render/other.ts" };
    const { comparison } = round([representativeNull], [elsewhere]);
    expect(comparison.stillOpen).toEqual([]);
    expect(comparison.fixed).toHaveLength(1);
    expect(comparison.fresh).toHaveLength(1);
  });

  it("matches one to one: two old findings do not both claim one new cluster", () => {
    const twin = { ...representativeNull, line: 300, endLine: 300, model: "kimi" };
    const { comparison } = round([representativeNull, twin], [shifted(representativeNull, 5)]);
    expect(comparison.stillOpen).toHaveLength(1);
    expect(comparison.fixed).toHaveLength(1);
    expect(comparison.fixed[0]?.line).toBe(300);
  });

  it("lists this round's clusters in their ranked order, with no fingerprint twice", () => {
    const { clusters, comparison } = round(
      [representativeNull, xss],
      [xss, magicNumber, representativeNull],
    );
    expect(clusters).toHaveLength(3);
    expect(new Set(clusters.map((cluster) => cluster.fingerprint)).size).toBe(3);
    expect([...comparison.stillOpen, ...comparison.fresh]).toHaveLength(3);
  });
});

describe("compareRounds over the corpus", () => {
  /** The label most of a cluster's findings carry. */
  const labelOf = (findings: readonly Finding[]): string => {
    const counts = new Map<string, number>();
    for (const finding of findings as LabelledFinding[]) {
      counts.set(finding.cluster, (counts.get(finding.cluster) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
  };

  it("follows problems whose lines moved and whose representative's model is gone", () => {
    let right = 0;
    let wrong = 0;
    for (const scenario of corpus) {
      const first = clusterFindings(scenario.findings, { modelOrder: scenario.modelOrder });
      const previous = published(first);
      const previousLabel = new Map(
        first.map((cluster) => [cluster.fingerprint, labelOf(cluster.findings)]),
      );
      const labels = [...new Set(scenario.findings.map((finding) => finding.cluster))];
      const gone = new Set(labels.filter((_, index) => index % 3 === 2));
      const representatives = new Set<Finding>(first.map((cluster) => cluster.representative));
      const size = (label: string) => scenario.findings.filter((f) => f.cluster === label).length;
      // Round 2: a third of the problems fixed; the rest 40 lines lower, and every problem
      // reported by several models now worded by another one.
      const second = scenario.findings
        .filter((finding) => !gone.has(finding.cluster))
        .filter((finding) => !(representatives.has(finding) && size(finding.cluster) > 1))
        .map((finding) => shifted(finding, 40));
      const { comparison } = compareRounds({
        round: 2,
        previousHeadSha: "abc",
        previous,
        clusters: clusterFindings(second, { modelOrder: scenario.modelOrder }),
      });
      const existed = new Set(previousLabel.values());
      for (const cluster of comparison.stillOpen) {
        previousLabel.get(cluster.fingerprint) === labelOf(cluster.findings) ? right++ : wrong++;
      }
      for (const cluster of comparison.fresh) {
        existed.has(labelOf(cluster.findings)) ? wrong++ : right++;
      }
      const remaining = new Set(second.map((finding) => (finding as LabelledFinding).cluster));
      for (const finding of comparison.fixed) {
        const label = previousLabel.get(finding.fingerprint) ?? "";
        const stillMatched = comparison.stillOpen.some(
          (cluster) => labelOf(cluster.findings) === label,
        );
        remaining.has(label) && !stillMatched ? wrong++ : right++;
      }
    }
    const accuracy = right / (right + wrong);
    console.log(
      `round-over-round on the corpus: ${right} right, ${wrong} wrong (${accuracy.toFixed(3)})`,
    );
    expect(accuracy).toBeGreaterThanOrEqual(0.85);
  });
});
