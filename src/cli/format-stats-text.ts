import { figureText, type Scoreboard, type ScoreLine } from "../scoreboard/index.js";
import { terminalSafeText } from "./terminal-safe-text.js";

const { dollars, percent, seconds, tokens } = figureText;

const COLUMNS: readonly { title: string; value: (line: ScoreLine) => string }[] = [
  { title: "findings", value: (line) => String(line.findings) },
  { title: "agreed", value: (line) => percent(line.agreementRate) },
  { title: "confirmed", value: (line) => `${line.confirmed}/${line.challenged}` },
  { title: "refuted", value: (line) => String(line.refuted) },
  { title: "fixed", value: (line) => percent(line.fixedRate) },
  { title: "dismissed", value: (line) => percent(line.dismissedRate) },
  { title: "up/down", value: (line) => `${line.thumbsUp}/${line.thumbsDown}` },
  { title: "tokens", value: (line) => tokens(line.inputTokens + line.outputTokens) },
  { title: "cost", value: (line) => dollars(line.costUsd) },
  {
    title: "tok/useful",
    value: (line) => (line.tokensPerUseful === null ? "—" : tokens(line.tokensPerUseful)),
  },
  { title: "$/useful", value: (line) => dollars(line.costPerUseful) },
  { title: "median", value: (line) => seconds(line.medianDurationMs) },
  {
    title: "failed",
    value: (line) => `${percent(line.failureRate)} (${line.failed}/${line.lensRuns})`,
  },
];

/**
 * `gadfly stats` for a person: a heading with the window and totals, then one table per
 * model and per lens. Ids come from configs and repositories: made safe for a terminal.
 */
export function formatStatsText(
  board: Scoreboard,
  options: { since: string; priced: boolean },
): string {
  const scope = board.repository === null ? "all repositories" : board.repository;
  const cost =
    board.costUsd === null
      ? options.priced
        ? "cost unknown (a model has no price)"
        : "no prices (no app config)"
      : `cost ${dollars(board.costUsd)}`;
  const lines = [
    `Gadfly scoreboard · last ${options.since} (${board.since.slice(0, 10)} → ${board.until.slice(0, 10)}) · ${safe(scope)}`,
    `${board.rounds} rounds (${board.completedRounds} completed) · ${board.pullRequests} pull requests · ${board.findings} findings · ${cost}`,
    "",
    ...table("model", board.models),
    "",
    ...table("lens", board.lenses),
    "",
    "agreed: reported by 2+ models · confirmed: of those cross-examined · fixed: gone in a later round",
    "useful: agreed, confirmed or fixed · median: a lens's time · failed: of lens runs done or failed",
  ];
  return `${lines.join("\n")}\n`;
}

function table(heading: string, rows: readonly ScoreLine[]): string[] {
  if (rows.length === 0) return [`${heading}: nothing in this window`];
  const cells = [
    [heading, ...COLUMNS.map((column) => column.title)],
    ...rows.map((row) => [safe(row.id), ...COLUMNS.map((column) => column.value(row))]),
  ];
  const widths =
    cells[0]?.map((_, index) => Math.max(...cells.map((row) => (row[index] ?? "").length))) ?? [];
  return cells.map((row) =>
    row
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}

function safe(text: string): string {
  return terminalSafeText(text, { oneLine: true }).slice(0, 60);
}
