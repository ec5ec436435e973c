import { figureText, type Scoreboard, type ScoreLine } from "../scoreboard/index.js";

const { dollars, percent, seconds } = figureText;

/** The model table's columns a reader can sort by; `id` sorts by name. */
export const DASHBOARD_SORT_KEYS = [
  "id",
  "findings",
  "agreementRate",
  "confirmed",
  "refuted",
  "fixedRate",
  "dismissedRate",
  "thumbsUp",
  "thumbsDown",
  "costUsd",
  "costPerUseful",
  "medianDurationMs",
  "failureRate",
] as const;
export type DashboardSortKey = (typeof DASHBOARD_SORT_KEYS)[number];

export interface DashboardPageInput {
  board: Scoreboard;
  /** The window as asked (`30d`), kept in every link. */
  since: string;
  sort: DashboardSortKey;
  descending: boolean;
  /** The GitHub web address pull requests are linked on, e.g. `https://github.com`. */
  webUrl: string;
  /** The per-response nonce the Content-Security-Policy allows the sorting script with. */
  nonce: string;
  /** The page's own path, e.g. `/gadfly/dashboard`. */
  path: string;
}

interface Column {
  key: DashboardSortKey;
  title: string;
  text: (line: ScoreLine) => string;
}

const COLUMNS: readonly Column[] = [
  { key: "id", title: "Model", text: (line) => line.id },
  { key: "findings", title: "Findings", text: (line) => String(line.findings) },
  { key: "agreementRate", title: "Agreed", text: (line) => percent(line.agreementRate) },
  {
    key: "confirmed",
    title: "Confirmed",
    text: (line) => `${line.confirmed} of ${line.challenged}`,
  },
  { key: "refuted", title: "Refuted", text: (line) => String(line.refuted) },
  { key: "fixedRate", title: "Fixed", text: (line) => percent(line.fixedRate) },
  { key: "dismissedRate", title: "Dismissed", text: (line) => percent(line.dismissedRate) },
  { key: "thumbsUp", title: "👍", text: (line) => String(line.thumbsUp) },
  { key: "thumbsDown", title: "👎", text: (line) => String(line.thumbsDown) },
  { key: "costUsd", title: "Cost", text: (line) => dollars(line.costUsd) },
  { key: "costPerUseful", title: "$ / useful", text: (line) => dollars(line.costPerUseful) },
  { key: "medianDurationMs", title: "Median time", text: (line) => seconds(line.medianDurationMs) },
  {
    key: "failureRate",
    title: "Failed",
    text: (line) => `${percent(line.failureRate)} (${line.failed}/${line.lensRuns})`,
  },
];

const WINDOWS = ["7d", "30d", "90d"];
const CHART_LABEL = 170;
const CHART_BAR = 330;
const CHART_ROW = 26;

/** Everything the dashboard template shows, every number formatted, every link built. */
export function dashboardView(input: DashboardPageInput) {
  const { board } = input;
  const link = (changes: Record<string, string | null>) => pageLink(input, changes);
  const models = sortLines(board.models, input.sort, input.descending);
  return {
    nonce: input.nonce,
    title: board.repository === null ? "all repositories" : board.repository,
    since: input.since,
    from: board.since.slice(0, 10),
    until: board.until.slice(0, 10),
    totals: [
      `${board.rounds} rounds (${board.completedRounds} completed)`,
      `${board.pullRequests} pull requests`,
      `${board.findings} findings`,
      board.costUsd === null
        ? "cost unknown (a model has no price)"
        : `cost ${dollars(board.costUsd)}`,
    ],
    windows: WINDOWS.map((window) => ({
      label: window,
      href: link({ since: window }),
      current: window === input.since,
    })),
    repositories: [
      { label: "All", href: link({ repo: null }), current: board.repository === null },
      ...board.repositories.map((repository) => ({
        label: repository,
        href: link({ repo: repository }),
        current: repository === board.repository,
      })),
    ],
    columns: COLUMNS.map((column) => ({
      key: column.key,
      title: column.title,
      href: link({
        sort: column.key,
        dir: column.key === input.sort && input.descending ? "asc" : "desc",
      }),
      ariaSort:
        column.key === input.sort ? (input.descending ? "descending" : "ascending") : "none",
    })),
    models: models.map((line) => ({
      cells: COLUMNS.map((column) => ({
        text: column.text(line),
        value: sortValue(line, column.key),
      })),
    })),
    lenses: board.lenses.map((line) => ({
      id: line.id,
      findings: line.findings,
      agreed: percent(line.agreementRate),
      fixed: percent(line.fixedRate),
      dismissed: percent(line.dismissedRate),
      reported: line.reported,
      cost: dollars(line.costUsd),
      perUseful: dollars(line.costPerUseful),
      median: seconds(line.medianDurationMs),
      failed: `${percent(line.failureRate)} (${line.failed}/${line.lensRuns})`,
    })),
    findingsChart: findingsChart(board.models),
    costChart: costChart(board.models),
    rounds: board.recentRounds.map((round) => ({
      repository: round.repository,
      pullNumber: round.pullNumber,
      href: pullUrl(input.webUrl, round.repository, round.pullNumber),
      round: round.round,
      state: round.state,
      sha: round.headSha.slice(0, 7),
      when: `${round.createdAt.slice(0, 16).replace("T", " ")}Z`,
      findings: round.findings,
      topFinding: round.topFinding ?? "",
      cost: dollars(round.costUsd),
    })),
    empty: board.rounds === 0,
  };
}

/** The same page with some query parameters changed (null removes one). */
function pageLink(input: DashboardPageInput, changes: Record<string, string | null>): string {
  const current: Record<string, string | null> = {
    since: input.since,
    repo: input.board.repository,
    sort: input.sort,
    dir: input.descending ? "desc" : "asc",
    ...changes,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(current)) if (value !== null) query.set(name, value);
  return `${input.path}?${query.toString()}`;
}

/** Each path segment encoded: a repository name can never change where the link goes. */
function pullUrl(webUrl: string, repository: string, pullNumber: number): string {
  const [owner = "", repo = ""] = repository.split("/");
  return `${webUrl.replace(/\/+$/, "")}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pull/${pullNumber}`;
}

function sortValue(line: ScoreLine, key: DashboardSortKey): string {
  const value = line[key];
  return value === null ? "" : String(value);
}

function sortLines(lines: readonly ScoreLine[], key: DashboardSortKey, descending: boolean) {
  const sign = descending ? -1 : 1;
  return [...lines].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    // Unknowns (no price, nothing to divide) go last whichever the direction.
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    if (typeof x === "string" || typeof y === "string") {
      return sign * String(x).localeCompare(String(y));
    }
    return sign * (x - y) || a.id.localeCompare(b.id);
  });
}

/** Horizontal bars: agreed findings solid, the others light, the count at the end. */
function findingsChart(lines: readonly ScoreLine[]) {
  const most = Math.max(1, ...lines.map((line) => line.findings));
  return {
    height: Math.max(1, lines.length) * CHART_ROW + 8,
    rows: lines.map((line, index) => {
      const agreed = (line.agreed / most) * CHART_BAR;
      const all = (line.findings / most) * CHART_BAR;
      return {
        label: line.id,
        y: index * CHART_ROW + 4,
        textY: index * CHART_ROW + 20,
        barX: CHART_LABEL,
        agreed: round(agreed),
        loneX: round(CHART_LABEL + agreed),
        lone: round(all - agreed),
        valueX: round(CHART_LABEL + all + 6),
        value: `${line.findings} (${line.agreed} agreed)`,
      };
    }),
  };
}

/** Cost per useful finding; a model without a price or a useful finding says so. */
function costChart(lines: readonly ScoreLine[]) {
  const most = Math.max(0.000001, ...lines.map((line) => line.costPerUseful ?? 0));
  return {
    height: Math.max(1, lines.length) * CHART_ROW + 8,
    rows: lines.map((line, index) => {
      const width = line.costPerUseful === null ? 0 : (line.costPerUseful / most) * CHART_BAR;
      return {
        label: line.id,
        y: index * CHART_ROW + 4,
        textY: index * CHART_ROW + 20,
        barX: CHART_LABEL,
        width: round(width),
        valueX: round(CHART_LABEL + width + 6),
        value:
          line.costPerUseful !== null
            ? dollars(line.costPerUseful)
            : line.costUsd === null
              ? "no price"
              : "no useful finding",
      };
    }),
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
