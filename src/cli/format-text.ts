import { USAGE_PHASES } from "../accounting/index.js";
import {
  agreementOf,
  type Cluster,
  type Consensus,
  type ModelSummary,
} from "../consensus/index.js";
import type { Severity, Verdict } from "../findings/index.js";
import { MAX_FINDINGS_PER_LENS } from "../findings/index.js";
import {
  challengeNote,
  formatLocation,
  notReviewedLabel,
  roundUsageLine,
  suggestionView,
  usageLine,
} from "../render/index.js";
import type { NotReviewed } from "../run/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";
import type { LensErrorLog } from "./lens-error-log.js";
import { suggestionText } from "./suggestion-text.js";
import { summaryText } from "./summary-text.js";
import { terminalSafeText } from "./terminal-safe-text.js";

export interface FormatTextOptions {
  /** Raw ANSI colours; the caller decides (a TTY, NO_COLOR, FORCE_COLOR). */
  color: boolean;
  notReviewed: readonly NotReviewed[];
  /** Lines of each finding's body shown. Default: all of it (main.ts wraps it to the terminal). */
  bodyLines?: number;
  /** False for a replayed run: no model time to show. Default true. */
  timed?: boolean;
  /** The error behind each failed lens, shown under its reason. */
  lensErrors?: LensErrorLog;
  /** Each cluster's checked suggestion, by fingerprint: shown under its explanation. */
  suggestions?: ReadonlyMap<string, SuggestionOutcome>;
}

const ANSI = {
  bold: "1",
  dim: "2",
  red: "31",
  green: "32",
  yellow: "33",
  blue: "34",
} as const;
type Style = keyof typeof ANSI;

const SEVERITY_STYLE: Record<Severity, Style[]> = {
  high: ["bold", "red"],
  medium: ["yellow"],
  low: ["blue"],
  nit: ["dim"],
};

const VERDICT_STYLE: Record<Verdict, Style> = {
  "No material issues found": "green",
  "Minor issues": "yellow",
  "Significant issues": "red",
};

/** A refutation's reason on a disputed finding: one line, cut like a body line. */
const MAX_REASON = 160;

/**
 * The consensus for a person at a terminal: the verdict, the ranked findings (agreement,
 * location, lens, the explanation and any checked suggestion), each model's verdict, the files
 * not reviewed. Text from models is stripped of escape sequences, so only our own colours reach
 * the terminal.
 */
export function formatText(consensus: Consensus, options: FormatTextOptions): string {
  const paint = (text: string, ...styles: Style[]): string =>
    options.color && styles.length > 0
      ? `\x1b[${styles.map((style) => ANSI[style]).join(";")}m${text}\x1b[0m`
      : text;
  const safe = (text: string): string => terminalSafeText(text, { oneLine: true });
  const lines: string[] = [];
  // A confirmation on cross-examination is agreement; a disputed finding is listed apart.
  const disputed = consensus.clusters.filter((cluster) => cluster.disputed === true);
  const agreed = consensus.clusters.filter(
    (cluster) => cluster.disputed !== true && agreementOf(cluster) >= 2,
  );
  const lone = consensus.clusters.filter(
    (cluster) => cluster.disputed !== true && agreementOf(cluster) < 2,
  );
  const multi = agreed.length;
  const count = consensus.clusters.length;

  lines.push(
    paint(`Gadfly review — consensus across ${plural(consensus.modelCount, "model")}`, "bold"),
  );
  lines.push(
    `Verdict: ${paint(consensus.verdict, "bold", VERDICT_STYLE[consensus.verdict])} · ${plural(count, "finding")} (${multi} with multi-model agreement${disputed.length === 0 ? "" : `, ${disputed.length} disputed`})`,
  );
  if (consensus.modelCount === 0) lines.push(paint("No model completed a review.", "yellow"));
  lines.push(...summaryText(consensus.summary, (text) => paint(text, "bold")));

  const width = String(count).length;
  let rank = 0;
  const section = (title: string, clusters: readonly Cluster[]): void => {
    if (clusters.length === 0) return;
    lines.push("", paint(title, "bold"));
    for (const cluster of clusters) {
      rank += 1;
      lines.push(...findingLines(cluster, rank, width));
    }
  };
  section("Findings", agreed);
  section("Single-model findings (lower confidence)", lone);
  section("Disputed findings (refuted on cross-examination)", disputed);

  lines.push("", paint("Models", "bold"));
  for (const model of consensus.models) lines.push(...modelLines(model));
  lines.push(...usageLines());

  if (options.notReviewed.length > 0) {
    lines.push("", paint(`Not reviewed (${options.notReviewed.length})`, "bold"));
    for (const file of options.notReviewed) {
      lines.push(`  ${safe(file.path)} ${paint(`— ${notReviewedLabel(file.reason)}`, "dim")}`);
    }
  }
  return `${lines.join("\n")}\n`;

  function findingLines(cluster: Cluster, rank: number, rankWidth: number): string[] {
    const representative = cluster.representative;
    const label = cluster.severity.toUpperCase().padEnd(6);
    const agreeing = agreementOf(cluster);
    const agreement = `${agreeing}/${consensus.modelCount}${cluster.disputed === true ? " disputed" : ""}`;
    const challenge = challengeNote(cluster);
    const indent = " ".repeat(rankWidth + 4);
    const where = formatLocation(
      safe(representative.file),
      representative.line,
      representative.endLine,
    );
    const lenses = [...new Set([representative.lens, ...cluster.findings.map((f) => f.lens)])];
    return [
      `  ${String(rank).padStart(rankWidth)}. ${paint(label, ...SEVERITY_STYLE[cluster.severity])} ${paint(safe(representative.title), "bold")} ${paint(`[${agreement}]`, cluster.disputed === true ? "yellow" : agreeing >= 2 ? "green" : "dim")}`,
      `${indent}${paint(`${where} · ${safe(lenses.join(", "))} · ${safe(cluster.models.join(", "))}${challenge === "" ? "" : ` · ${safe(challenge)}`}`, "dim")}`,
      ...(cluster.disputed === true ? refutationLines(cluster) : []).map(
        (line) => `${indent}${line}`,
      ),
      ...bodyLines(representative.body).map((line) => `${indent}${line}`),
      ...suggestionText(
        suggestionView(options.suggestions?.get(cluster.fingerprint), cluster.models.length),
        (text, style) => paint(text, style),
      ).map((line) => `${indent}${line}`),
    ];
  }

  /** Who refuted a disputed finding and why (model text: one line, made terminal-safe, cut). */
  function refutationLines(cluster: Cluster): string[] {
    return (cluster.challenges ?? [])
      .filter((answer) => answer.verdict === "refute")
      .map((answer) => {
        const reason = safe(answer.reason).trim();
        const cut = reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
        return paint(`refuted by ${safe(answer.model)}: ${cut}`, "yellow");
      });
  }

  function bodyLines(body: string): string[] {
    const limit = options.bodyLines ?? Number.POSITIVE_INFINITY;
    const all = terminalSafeText(body)
      .split("\n")
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== "");
    // Whole lines: the explanation is the point, and the caller wraps it to the terminal's width.
    const shown = all.slice(0, limit);
    if (all.length > limit) shown.push(paint("…", "dim"));
    return shown;
  }

  /** Each model's spend, each phase that spent anything on a line of its own, then the run's. */
  function usageLines(): string[] {
    const usage = consensus.usage;
    if (usage === undefined) return [];
    const timed = { timed: options.timed !== false };
    const lines = ["", paint("Usage (estimated from the tokens the providers reported)", "bold")];
    for (const model of usage.models) {
      // As on the board: a model that spent nothing (an agent CLI reports no tokens) has no line.
      if (model.total.inputTokens + model.total.outputTokens === 0) continue;
      lines.push(`  ${safe(model.model)}: ${usageLine(model.total, timed)}`);
      for (const phase of USAGE_PHASES) {
        const figures = model.phases[phase];
        if (figures.inputTokens + figures.outputTokens === 0) continue;
        lines.push(paint(`    ${phase}: ${usageLine(figures, timed)}`, "dim"));
      }
    }
    lines.push(`  Total: ${roundUsageLine(usage, timed)}`);
    return lines;
  }

  function modelLines(model: ModelSummary): string[] {
    const done = model.lenses.filter((lens) => lens.outcome === "done").length;
    const verdict =
      model.verdict === null
        ? paint("no lens completed", "yellow")
        : paint(model.verdict, VERDICT_STYLE[model.verdict]);
    const lines = [
      `  ${safe(model.model)} ${paint(`(${safe(model.provider)})`, "dim")} — ${verdict} ${paint(`· ${done}/${model.lenses.length} lenses done`, "dim")}`,
    ];
    for (const lens of model.lenses) {
      const overLimit = lens.overLimit ?? 0;
      if (overLimit > 0) {
        lines.push(
          `    ${paint(`${safe(lens.lens)}: ${plural(overLimit, "more finding")} dropped (limit ${MAX_FINDINGS_PER_LENS} per lens)`, "yellow")}`,
        );
      }
      // A lens that went on along the model's failover chain says where, and why.
      for (const hop of lens.failovers ?? []) {
        lines.push(
          `    ${paint(`${safe(lens.lens)}: ${safe(hop.from)} → ${safe(hop.to)}: ${safe(hop.reason)}`, "dim")}`,
        );
      }
      if (lens.outcome === "done") continue;
      const reason = lens.failure === null ? "" : `: ${safe(lens.failure)}`;
      lines.push(`    ${paint(`${safe(lens.lens)} ${lens.outcome}${reason}`, "yellow")}`);
      const error = options.lensErrors?.errorOf(model.model, lens);
      if (error != null && error !== lens.failure) {
        lines.push(`      ${paint(`error: ${safe(error)}`, "dim")}`);
      }
    }
    return lines;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
