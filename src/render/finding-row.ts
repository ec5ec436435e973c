import { agreementOf, type Cluster } from "../consensus/index.js";
import type { Severity } from "../findings/index.js";
import { truncateText } from "./escape/text.js";
import { fixHandoff, type HandoffFinding } from "./fix-handoff.js";
import { SEVERITY_EMOJI, severityLabel } from "./format.js";
import { tidyModelText } from "./tidy-model-text.js";

/** A challenger's id as a note names it (ids come from the app config; still bounded). */
const MODEL_ID_LENGTH = 100;
/** A refutation's reason as the disputed list shows it (model text, escaped by the template). */
export const REFUTATION_LENGTH = 500;
/** A finding's explanation (and its proposed fix) as a row's details and its hand-off show it. */
export const EXPLANATION_LENGTH = 1_500;

/** Where the reviewed code is on the web: rows link to their lines at this commit. */
export interface CodeLinks {
  /** `https://github.com/owner/repo` (or a GitHub Enterprise host's). */
  repoUrl: string;
  headSha: string;
}

/** One refutation of a disputed cluster: who refuted it, why, and what it checked. */
export interface Refutation {
  model: string;
  reason: string;
  checked: string | null;
}

/** One cluster as the tables and lists show it; text is raw, templates escape it. */
export interface FindingRow {
  emoji: string;
  /** `🔴 high`: the emoji with its word, so the severity reads without a legend. */
  severityLabel: string;
  severity: Severity;
  title: string;
  file: string;
  line: number;
  endLine: number;
  /** `3/4`: models that agree on it (flagged or confirmed on challenge) out of those that reviewed. */
  agreement: string;
  /**
   * The Models cell: `3/4`, then `✓` when a challenger confirmed it, `✗` when one refuted it,
   * `?` when one was unsure; who and why are in the row's details (`challenge`).
   */
  modelsCell: string;
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
  /** Its lines at the head SHA reviewed, when the code's web address is known. */
  codeUrl: string | null;
  /** The representative finding's explanation, cut to EXPLANATION_LENGTH. */
  explanation: string;
  /** The replacement a model proposed for its lines, when one did; null otherwise. */
  fix: string | null;
  /** A self-contained prompt for a coding agent (raw text: the template fences it). */
  handoff: string;
  /** `dismissed by @user` / `false positive per @user` (mentions defused by the template); empty otherwise. */
  dismissed: string;
}

export function findingRow(
  cluster: Cluster,
  modelCount: number,
  urls: Readonly<Record<string, string>> = {},
  code?: CodeLinks,
  /** Also the explanation, the fix and the hand-off (the row's details): work only when shown. */
  withDetails = false,
): FindingRow {
  const representative = cluster.representative;
  const lenses = [...new Set([representative.lens, ...cluster.findings.map((f) => f.lens)])];
  const disputed = cluster.disputed === true;
  const agreement = `${agreementOf(cluster)}/${modelCount}`;
  const handoff = withDetails ? handoffFinding(cluster, modelCount) : null;
  return {
    emoji: SEVERITY_EMOJI[cluster.severity],
    severityLabel: severityLabel(cluster.severity),
    severity: cluster.severity,
    title: representative.title,
    file: representative.file,
    line: representative.line,
    endLine: representative.endLine,
    agreement,
    modelsCell: agreement + challengeMarks(cluster),
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
    codeUrl: code === undefined ? null : codeUrl(code, representative),
    explanation: handoff?.explanation ?? "",
    fix: handoff?.fix ?? null,
    handoff: handoff === null ? "" : fixHandoff(handoff, { headSha: code?.headSha ?? null }),
  };
}

/** A cluster as a coding agent's hand-off tells it: raw text, cut; the template fences it. */
export function handoffFinding(cluster: Cluster, modelCount: number): HandoffFinding {
  const representative = cluster.representative;
  const lenses = [...new Set([representative.lens, ...cluster.findings.map((f) => f.lens)])];
  return {
    severity: cluster.severity,
    title: representative.title,
    file: representative.file,
    line: representative.line,
    endLine: representative.endLine,
    lenses: lenses.join(", "),
    agreement: `${agreementOf(cluster)}/${modelCount}`,
    // Cut before it is tidied too, so a huge body costs no more than a short one.
    explanation: truncateText(
      tidyModelText(truncateText(representative.body, 2 * EXPLANATION_LENGTH).text, {
        dropVerdicts: false,
      }),
      EXPLANATION_LENGTH,
    ).text,
    fix: proposedFix(representative),
  };
}

/** `https://github.com/o/r/blob/<sha>/src/a.ts#L12-L14`: each path segment encoded. */
export function codeUrl(
  code: CodeLinks,
  at: { file: string; line: number; endLine: number },
): string {
  const path = at.file.split("/").map(encodeURIComponent).join("/");
  const lines = at.endLine > at.line ? `#L${at.line}-L${at.endLine}` : `#L${at.line}`;
  return `${code.repoUrl.replace(/\/+$/, "")}/blob/${encodeURIComponent(code.headSha)}/${path}${lines}`;
}

/**
 * A finding's proposed replacement for its lines (the findings contract's `suggestion`); without
 * one the hand-off says to apply the fix the explanation describes. Shown as the model's proposal:
 * only the inline comment's ```suggestion block is the checked one.
 */
function proposedFix(finding: Cluster["representative"]): string | null {
  const { suggestion } = finding;
  if (suggestion === undefined || suggestion.trim() === "") return null;
  return truncateText(suggestion, EXPLANATION_LENGTH).text;
}

/** ` ✓`, ` ✗`, ` ?` (any of them, in that order) after the count: cross-examination at a glance. */
function challengeMarks(cluster: Cluster): string {
  const answers = cluster.challenges ?? [];
  const marks = [
    (cluster.confirmedBy ?? []).length > 0 ? "✓" : "",
    answers.some((answer) => answer.verdict === "refute") ? "✗" : "",
    answers.some((answer) => answer.verdict === "unsure") ? "?" : "",
  ].join("");
  return marks === "" ? "" : ` ${marks}`;
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
