import { agreementOf, type Cluster } from "../consensus/index.js";
import type { Severity } from "../findings/index.js";
import { truncateText } from "./escape/text.js";
import { SEVERITY_EMOJI } from "./format.js";

/** A challenger's id as a note names it (ids come from the app config; still bounded). */
const MODEL_ID_LENGTH = 100;
/** A refutation's reason as the disputed list shows it (model text, escaped by the template). */
export const REFUTATION_LENGTH = 500;

/** One refutation of a disputed cluster: who refuted it, why, and what it checked. */
export interface Refutation {
  model: string;
  reason: string;
  checked: string | null;
}

/** One cluster as the tables and lists show it; text is raw, templates escape it. */
export interface FindingRow {
  emoji: string;
  severity: Severity;
  title: string;
  file: string;
  line: number;
  endLine: number;
  /** `3/4`: models that agree on it (flagged or confirmed on challenge) out of those that reviewed. */
  agreement: string;
  /** Models that agree on it: those that flagged it and those that confirmed it (agreementOf). */
  agreeing: number;
  /** Models that flagged it themselves. */
  flagging: number;
  /** The first (or only) model that flagged it. */
  model: string;
  models: string;
  /** Models that confirmed it on cross-examination, `, `-joined; empty when none. */
  confirmedBy: string;
  /**
   * What cross-examination said beyond the count, e.g. `confirmed by beta on challenge ·
   * 1 challenger unsure`; empty when it was not challenged (so nothing changes then).
   */
  challenge: string;
  /** Refuted by a majority of its challengers: shown apart, never as agreement. */
  disputed: boolean;
  /** A disputed cluster's refutations, in challenge order; empty otherwise. */
  refutations: Refutation[];
  /** Distinct lenses of its findings, the representative's first. */
  lenses: string;
  fingerprint: string;
  /** Where it was shown (an inline comment), when known. */
  url: string | null;
  /** `dismissed by @user` / `false positive per @user` (mentions defused by the template); empty otherwise. */
  dismissed: string;
}

export function findingRow(
  cluster: Cluster,
  modelCount: number,
  urls: Readonly<Record<string, string>> = {},
): FindingRow {
  const representative = cluster.representative;
  const lenses = [...new Set([representative.lens, ...cluster.findings.map((f) => f.lens)])];
  const disputed = cluster.disputed === true;
  return {
    emoji: SEVERITY_EMOJI[cluster.severity],
    severity: cluster.severity,
    title: representative.title,
    file: representative.file,
    line: representative.line,
    endLine: representative.endLine,
    agreement: `${agreementOf(cluster)}/${modelCount}`,
    agreeing: agreementOf(cluster),
    flagging: cluster.models.length,
    model: cluster.models[0] ?? representative.model,
    models: cluster.models.join(", "),
    confirmedBy: modelList(cluster.confirmedBy ?? []),
    challenge: challengeNote(cluster),
    disputed,
    refutations: disputed
      ? (cluster.challenges ?? [])
          .filter((answer) => answer.verdict === "refute")
          .map((answer) => ({
            model: answer.model,
            reason: truncateText(answer.reason.trim(), REFUTATION_LENGTH).text,
            checked: answer.checked,
          }))
      : [],
    lenses: lenses.join(", "),
    fingerprint: cluster.fingerprint,
    url: Object.hasOwn(urls, cluster.fingerprint) ? (urls[cluster.fingerprint] ?? null) : null,
    dismissed: dismissedNote(cluster),
  };
}

/** Who dismissed the cluster on this PR, as the row says it; empty when nobody did. */
function dismissedNote(cluster: Cluster): string {
  const dismissed = cluster.dismissed;
  if (dismissed === undefined) return "";
  const who = `@${truncateText(dismissed.by, 100).text}`;
  return dismissed.kind === "false_positive" ? `false positive per ${who}` : `dismissed by ${who}`;
}

/**
 * Cross-examination beyond the agreement count, as one raw line (templates escape it):
 * `confirmed by beta on challenge`, `refuted by gamma`, `1 challenger unsure`, joined by ` · `.
 * Unsure answers are no vote, so they are counted, never named as agreeing or not.
 */
export function challengeNote(cluster: Cluster): string {
  const answers = cluster.challenges ?? [];
  const confirmed = cluster.confirmedBy ?? [];
  const refuting = answers.filter((a) => a.verdict === "refute").map((a) => a.model);
  const unsure = answers.filter((a) => a.verdict === "unsure").length;
  return [
    ...(confirmed.length === 0 ? [] : [`confirmed by ${modelList(confirmed)} on challenge`]),
    ...(refuting.length === 0 ? [] : [`refuted by ${modelList(refuting)}`]),
    ...(unsure === 0 ? [] : [`${unsure} ${unsure === 1 ? "challenger" : "challengers"} unsure`]),
  ].join(" · ");
}

function modelList(models: readonly string[]): string {
  return models.map((model) => truncateText(model, MODEL_ID_LENGTH).text).join(", ");
}
