import type { Scoreboard, ScoreLine } from "../scoreboard/index.js";

/** Every figure of a row, in this order; rates as fractions, unknowns empty. */
const FIELDS: readonly (keyof ScoreLine)[] = [
  "id",
  "lensRuns",
  "failed",
  "failureRate",
  "medianDurationMs",
  "reported",
  "findings",
  "agreed",
  "agreementRate",
  "challenged",
  "confirmed",
  "refuted",
  "fixed",
  "fixedRate",
  "dismissed",
  "dismissedRate",
  "thumbsUp",
  "thumbsDown",
  "useful",
  "inputTokens",
  "cachedInputTokens",
  "outputTokens",
  "costUsd",
  "tokensPerUseful",
  "costPerUseful",
];

/**
 * `gadfly stats --format csv`: one row per model and per lens (`kind` says which), with the
 * window and repository on each row so files from several runs can be concatenated.
 */
export function formatStatsCsv(board: Scoreboard): string {
  const header = ["kind", ...FIELDS.map(snakeCase), "since", "until", "repository"];
  const rows = [
    ...board.models.map((line) => ["model", line] as const),
    ...board.lenses.map((line) => ["lens", line] as const),
  ].map(([kind, line]) => [
    kind,
    ...FIELDS.map((field) => line[field]),
    board.since,
    board.until,
    board.repository ?? "",
  ]);
  return `${[header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * RFC 4180 quoting; a text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab,
 * CR) is prefixed with `'`: a lens id comes from a repository's config.
 */
function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
