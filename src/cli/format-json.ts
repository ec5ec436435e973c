import type { LensReport } from "../agent/index.js";
import { agreementOf, type Cluster, type Consensus } from "../consensus/index.js";
import type { LensFinding } from "../findings/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";
import type { ReportMeta } from "./report-meta.js";
import type {
  JsonFinding,
  JsonLensFinding,
  JsonLensReport,
  JsonReport,
  JsonSuggestion,
  JsonSummary,
} from "./schema.js";
import { usageReport } from "./usage-report.js";

/**
 * The consensus as `--format json` prints it: schema version 1 (see schema.ts and
 * json-report.md), two-space indented, ending with a newline. Nothing in it depends on the
 * clock (a replay's usage has no durations), so a replayed run prints the same bytes.
 */
export function formatJson(consensus: Consensus, meta: ReportMeta): string {
  const report: JsonReport = {
    schemaVersion: 1,
    tool: { name: "gadfly", version: meta.toolVersion },
    headSha: meta.headSha,
    baseSha: meta.baseSha,
    verdict: consensus.verdict,
    modelCount: consensus.modelCount,
    models: consensus.models.map((model) => ({
      id: model.model,
      provider: model.provider,
      verdict: model.verdict,
      lenses: model.lenses.map((lens) => ({
        ...lensReport(lens),
        error: meta.lensErrors?.errorOf(model.model, lens) ?? null,
      })),
    })),
    findings: consensus.clusters.map((cluster, index) =>
      finding(cluster, index + 1, consensus.modelCount, meta.suggestions?.get(cluster.fingerprint)),
    ),
    notReviewed: meta.notReviewed.map((entry) => ({ path: entry.path, reason: entry.reason })),
    comparison:
      consensus.comparison === null
        ? null
        : {
            round: consensus.comparison.round,
            previousHeadSha: consensus.comparison.previousHeadSha,
            fresh: consensus.comparison.fresh.map((cluster) => cluster.fingerprint),
            stillOpen: consensus.comparison.stillOpen.map((cluster) => cluster.fingerprint),
            fixed: consensus.comparison.fixed.map((fixed) => ({
              fingerprint: fixed.fingerprint,
              title: fixed.title,
              file: fixed.file,
              line: fixed.line,
              severity: fixed.severity,
              url: fixed.url ?? null,
            })),
          },
    ...(consensus.usage === undefined ? {} : { usage: usageReport(consensus.usage, meta.usage) }),
    summary: summary(consensus.summary),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

function lensReport(report: LensReport): JsonLensReport {
  return {
    lens: report.lens,
    outcome: report.outcome,
    verdict: report.verdict,
    statedVerdict: report.statedVerdict,
    findings: report.findings.map(lensFinding),
    dropped: report.dropped.map(lensFinding),
    overLimit: report.overLimit ?? 0,
    failure: report.failure,
    turns: report.turns,
    recovered: report.recovered,
    usage: { inputTokens: report.usage.inputTokens, outputTokens: report.usage.outputTokens },
    answeredBy: report.answeredBy ?? null,
    failovers: (report.failovers ?? []).map(({ from, to, reason }) => ({ from, to, reason })),
    text: report.text,
  };
}

/** Copies the known fields only: extra properties on the input never leak into the report. */
function lensFinding(finding: LensFinding): JsonLensFinding {
  return {
    file: finding.file,
    line: finding.line,
    endLine: finding.endLine,
    severity: finding.severity,
    confidence: finding.confidence,
    title: finding.title,
    body: finding.body,
  };
}

function finding(
  cluster: Cluster,
  rank: number,
  modelCount: number,
  checked: SuggestionOutcome | undefined,
): JsonFinding {
  const representative = cluster.representative;
  return {
    rank,
    fingerprint: cluster.fingerprint,
    file: representative.file,
    line: representative.line,
    endLine: representative.endLine,
    severity: cluster.severity,
    confidence: representative.confidence,
    title: representative.title,
    body: representative.body,
    lens: representative.lens,
    lenses: [...new Set([representative.lens, ...cluster.findings.map((member) => member.lens)])],
    models: [...cluster.models],
    agreement: `${agreementOf(cluster)}/${modelCount}`,
    confirmedBy: [...(cluster.confirmedBy ?? [])],
    disputed: cluster.disputed === true,
    challenges: (cluster.challenges ?? []).map(({ model, verdict, reason, checked }) => ({
      model,
      verdict,
      reason,
      checked,
    })),
    members: cluster.findings.map((member) => ({
      ...lensFinding(member),
      model: member.model,
      lens: member.lens,
    })),
    suggestion: checked === undefined ? null : suggestion(checked),
  };
}

function suggestion(outcome: SuggestionOutcome): JsonSuggestion {
  return {
    status: outcome.kind,
    file: outcome.file,
    line: outcome.line,
    endLine: outcome.endLine,
    lines: [...outcome.lines],
    original: [...outcome.original],
    supporters: [...outcome.supporters],
    grammar: outcome.kind === "passed" ? outcome.grammar : null,
    note: outcome.kind === "failed" ? outcome.reason : (outcome.syntaxNote ?? null),
  };
}

/** Copies the known fields only, as for findings. */
function summary(written: Consensus["summary"]): JsonSummary | null {
  if (written === undefined) return null;
  if (written.state === "unavailable") {
    return { state: "unavailable", model: written.model, reason: written.reason };
  }
  return {
    state: "written",
    model: written.model,
    lines: [...written.lines],
    groups: written.groups.map((group) => ({ label: group.label, files: [...group.files] })),
    verdictLinesDropped: written.verdictLinesDropped,
  };
}
