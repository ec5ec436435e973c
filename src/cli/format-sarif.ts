import { pathToFileURL } from "node:url";
import type { Fix, Invocation, Log, ReportingDescriptor, Result } from "sarif";
import { agreementOf, type Cluster, type Consensus } from "../consensus/index.js";
import type { Severity } from "../findings/index.js";
import { lensMetadata } from "../render/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";
import type { ReportMeta } from "./report-meta.js";
import { usageReport } from "./usage-report.js";

const LEVELS: Record<Severity, Result.level> = {
  high: "error",
  medium: "warning",
  low: "note",
  nit: "note",
};

const SOURCE_ROOT = "%SRCROOT%";
/** Versioned, so a change of how fingerprints are computed can get a new key. */
const FINGERPRINT_KEY = "gadflyFingerprint/v1";

/**
 * The consensus as SARIF 2.1.0, for GitHub code scanning and editors: one run, one rule per
 * lens, one result per finding (cluster) located relative to %SRCROOT%, with the cluster's
 * fingerprint as a partial fingerprint so an alert is tracked across runs. No timestamps: a
 * replayed run prints the same bytes.
 */
export function formatSarif(consensus: Consensus, meta: ReportMeta): string {
  const lenses = lensIds(consensus);
  const rules: ReportingDescriptor[] = lenses.map((lens) => ({
    id: lens,
    shortDescription: { text: lensMetadata(lens, meta.lenses).title },
    defaultConfiguration: { level: "warning" },
    // GitHub code scanning files results of rules tagged "security" as security alerts.
    ...(lens === "security" ? { properties: { tags: ["security"] } } : {}),
  }));
  const log: Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "Gadfly",
            version: meta.toolVersion,
            rules,
          },
        },
        ...(meta.sourceRoot === undefined
          ? {}
          : { originalUriBaseIds: { [SOURCE_ROOT]: { uri: directoryUri(meta.sourceRoot) } } }),
        invocations: [invocation(consensus)],
        results: consensus.clusters.map((cluster) =>
          result(
            cluster,
            lenses.indexOf(cluster.representative.lens),
            consensus.modelCount,
            meta.suggestions?.get(cluster.fingerprint),
          ),
        ),
        columnKind: "utf16CodeUnits",
        properties: {
          headSha: meta.headSha,
          baseSha: meta.baseSha,
          verdict: consensus.verdict,
          modelCount: consensus.modelCount,
          notReviewed: meta.notReviewed.map((entry) => ({
            path: entry.path,
            reason: entry.reason,
          })),
          // What the run spent, as in the JSON report (json-report.md, `usage`).
          ...(consensus.usage === undefined
            ? {}
            : { usage: usageReport(consensus.usage, meta.usage) }),
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** Configured lenses in order, then any lens only a finding names. */
function lensIds(consensus: Consensus): string[] {
  const ids = new Set<string>();
  for (const model of consensus.models) for (const report of model.lenses) ids.add(report.lens);
  for (const cluster of consensus.clusters) ids.add(cluster.representative.lens);
  return [...ids];
}

function result(
  cluster: Cluster,
  ruleIndex: number,
  modelCount: number,
  suggestion: SuggestionOutcome | undefined,
): Result {
  const representative = cluster.representative;
  const agreement = `${agreementOf(cluster)}/${modelCount}`;
  const startLine = Math.max(1, Math.trunc(representative.line));
  const endLine = Math.max(startLine, Math.trunc(representative.endLine));
  const flagged = flaggedBy(cluster, modelCount);
  return {
    ruleId: representative.lens,
    ruleIndex,
    // Most of its challengers refuted it: kept visible, never raised as a warning.
    level: cluster.disputed === true ? "note" : LEVELS[cluster.severity],
    message: {
      text: `${oneLine(representative.title)} (${flagged})`,
      markdown: `**${oneLine(representative.title)}** (${flagged})\n\n${representative.body}`,
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: relativeUri(representative.file), uriBaseId: SOURCE_ROOT },
          region: { startLine, endLine },
        },
      },
    ],
    ...(suggestion === undefined ? {} : fixesOf(suggestion)),
    partialFingerprints: { [FINGERPRINT_KEY]: cluster.fingerprint },
    properties: {
      severity: cluster.severity,
      confidence: representative.confidence,
      agreement,
      models: [...cluster.models],
      confirmedBy: [...(cluster.confirmedBy ?? [])],
      disputed: cluster.disputed === true,
      lenses: [...new Set(cluster.findings.map((finding) => finding.lens))],
    },
  };
}

/**
 * A checked suggestion that passed, as SARIF's proposed fix: its whole lines replaced. A region
 * of lines without columns ends before the last line's newline (SARIF 2.1.0, 3.30.5), so the
 * inserted text carries none. A deletion is left out: removing whole lines would need the region
 * to reach the next line, which may not exist. One that failed is no fix at all.
 */
function fixesOf(suggestion: SuggestionOutcome): { fixes: Fix[] } | Record<string, never> {
  if (suggestion.kind !== "passed" || suggestion.lines.length === 0) return {};
  const supporters = suggestion.supporters.length;
  return {
    fixes: [
      {
        description: {
          text: `Suggested change, proposed by ${supporters} model${supporters === 1 ? "" : "s"} and checked against the head`,
        },
        artifactChanges: [
          {
            artifactLocation: { uri: relativeUri(suggestion.file), uriBaseId: SOURCE_ROOT },
            replacements: [
              {
                deletedRegion: { startLine: suggestion.line, endLine: suggestion.endLine },
                insertedContent: { text: suggestion.lines.join("\n") },
              },
            ],
          },
        ],
      },
    ],
  };
}

/** `flagged by 1/4 models, confirmed by b` or `…, disputed on cross-examination`. */
function flaggedBy(cluster: Cluster, modelCount: number): string {
  const flagged = `flagged by ${cluster.models.length}/${modelCount} models`;
  const confirmed = cluster.confirmedBy ?? [];
  return [
    flagged,
    ...(confirmed.length > 0 ? [`confirmed by ${confirmed.map(oneLine).join(", ")}`] : []),
    ...(cluster.disputed === true ? ["disputed on cross-examination"] : []),
  ].join(", ");
}

/** Lenses that failed are reported as notifications: a partial review is never silent. */
function invocation(consensus: Consensus): Invocation {
  const failures = consensus.models.flatMap((model) =>
    model.lenses
      .filter((report) => report.outcome !== "done")
      .map((report) => ({
        level: "warning" as const,
        message: {
          text: `${model.model} · ${report.lens}: ${report.outcome}${report.failure === null ? "" : ` (${report.failure})`}`,
        },
      })),
  );
  return {
    executionSuccessful: consensus.modelCount > 0,
    ...(failures.length === 0 ? {} : { toolExecutionNotifications: failures }),
  };
}

/**
 * A repository path as a relative URI reference: forward slashes, no leading `./` or `/`, each
 * segment percent-encoded (a `#` or `?` in a file name must not read as a fragment or a query).
 */
function relativeUri(path: string): string {
  return path
    .replace(/\\/g, "/")
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

function directoryUri(path: string): string {
  const href = pathToFileURL(path).href;
  return href.endsWith("/") ? href : `${href}/`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
