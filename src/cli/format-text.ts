import type { Cluster, Consensus, ModelSummary } from "../consensus/index.js";
import type { Severity, Verdict } from "../findings/index.js";
import { MAX_FINDINGS_PER_LENS } from "../findings/index.js";
import { formatLocation, notReviewedLabel } from "../render/index.js";
import type { NotReviewed } from "../run/index.js";
import { terminalSafeText } from "./terminal-safe-text.js";

export interface FormatTextOptions {
  /** Raw ANSI colours; the caller decides (a TTY, NO_COLOR, FORCE_COLOR). */
  color: boolean;
  notReviewed: readonly NotReviewed[];
  /** Lines of each finding's body shown. Default 3. */
  bodyLines?: number;
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

const MAX_BODY_LINE = 160;

/**
 * The consensus for a person at a terminal: the verdict, the ranked findings (agreement,
 * location, lens, the start of the body), each model's verdict, the files not reviewed. Text
 * from models is stripped of escape sequences, so only our own colours reach the terminal.
 */
export function formatText(consensus: Consensus, options: FormatTextOptions): string {
  const paint = (text: string, ...styles: Style[]): string =>
    options.color && styles.length > 0
      ? `\x1b[${styles.map((style) => ANSI[style]).join(";")}m${text}\x1b[0m`
      : text;
  const safe = (text: string): string => terminalSafeText(text, { oneLine: true });
  const lines: string[] = [];
  const multi = consensus.clusters.filter((cluster) => cluster.models.length >= 2).length;
  const count = consensus.clusters.length;

  lines.push(
    paint(`Gadfly review — consensus across ${plural(consensus.modelCount, "model")}`, "bold"),
  );
  lines.push(
    `Verdict: ${paint(consensus.verdict, "bold", VERDICT_STYLE[consensus.verdict])} · ${plural(count, "finding")} (${multi} with multi-model agreement)`,
  );
  if (consensus.modelCount === 0) lines.push(paint("No model completed a review.", "yellow"));

  const width = String(count).length;
  consensus.clusters.forEach((cluster, index) => {
    if (index === 0 && cluster.models.length >= 2) lines.push("", paint("Findings", "bold"));
    if (
      cluster.models.length < 2 &&
      (index === 0 || (consensus.clusters[index - 1]?.models.length ?? 0) >= 2)
    ) {
      lines.push("", paint("Single-model findings (lower confidence)", "bold"));
    }
    lines.push(...findingLines(cluster, index + 1, width));
  });

  lines.push("", paint("Models", "bold"));
  for (const model of consensus.models) lines.push(...modelLines(model));

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
    const agreement = `${cluster.models.length}/${consensus.modelCount}`;
    const indent = " ".repeat(rankWidth + 4);
    const where = formatLocation(
      safe(representative.file),
      representative.line,
      representative.endLine,
    );
    const lenses = [...new Set([representative.lens, ...cluster.findings.map((f) => f.lens)])];
    return [
      `  ${String(rank).padStart(rankWidth)}. ${paint(label, ...SEVERITY_STYLE[cluster.severity])} ${paint(safe(representative.title), "bold")} ${paint(`[${agreement}]`, cluster.models.length >= 2 ? "green" : "dim")}`,
      `${indent}${paint(`${where} · ${safe(lenses.join(", "))} · ${safe(cluster.models.join(", "))}`, "dim")}`,
      ...bodyLines(representative.body).map((line) => `${indent}${line}`),
    ];
  }

  function bodyLines(body: string): string[] {
    const limit = options.bodyLines ?? 3;
    const all = terminalSafeText(body)
      .split("\n")
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== "");
    const shown = all
      .slice(0, limit)
      .map((line) => (line.length > MAX_BODY_LINE ? `${line.slice(0, MAX_BODY_LINE - 1)}…` : line));
    if (all.length > limit) shown.push(paint("…", "dim"));
    return shown;
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
      if (lens.outcome === "done") continue;
      const reason = lens.failure === null ? "" : `: ${safe(lens.failure)}`;
      lines.push(`    ${paint(`${safe(lens.lens)} ${lens.outcome}${reason}`, "yellow")}`);
    }
    return lines;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
