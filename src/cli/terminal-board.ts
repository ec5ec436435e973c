import { supersededReason } from "../render/index.js";
import type { LensState, LensStatus, ReviewerStatus, RoundStatus } from "../run/index.js";
import { type Clock, systemClock } from "../time/index.js";
import { WORKTREE_PREFIX } from "./collect-local-change.js";
import { terminalSafeText } from "./terminal-safe-text.js";

/** Where the board writes: stderr by default, so stdout stays clean for `--format json`. */
export interface BoardStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

export interface TerminalBoardOptions {
  stream?: BoardStream;
  /** Default: the stream's own `isTTY`. */
  isTty?: boolean;
  /** The `CI` variable is set: plain lines even on a terminal (CI logs are not terminals). */
  ci?: boolean;
  clock?: Clock;
  /** At most one redraw per interval on a terminal; the final state is always drawn. */
  intervalMs?: number;
}

const SYMBOLS: Record<LensState, string> = {
  queued: "·",
  running: "›",
  done: "✓",
  failed: "✗",
  cancelled: "–",
  skipped: "»",
};

const DEFAULT_COLUMNS = 80;
const DEFAULT_ROWS = 24;

/**
 * The live status of a round on a terminal. On a TTY it redraws one block in place (cursor up,
 * clear, rewrite in a single write; throttled; identical frames skipped). Elsewhere, or under
 * CI, it appends one line per lens state change, e.g. `glm-5.2:cloud · security — done: Minor
 * issues`, and nothing for a state that did not change.
 */
export class TerminalBoard {
  private readonly stream: BoardStream;
  private readonly live: boolean;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private latest: RoundStatus | null = null;
  private lastDrawAt = Number.NEGATIVE_INFINITY;
  private timer: unknown = null;
  private drawnLines = 0;
  private drawnFrame: string | null = null;
  private readonly seenStates = new Map<string, string>();
  private readonly seenRoundEvents = new Set<string>();

  constructor(options: TerminalBoardOptions = {}) {
    this.stream = options.stream ?? process.stderr;
    this.live = (options.isTty ?? this.stream.isTTY === true) && options.ci !== true;
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 100;
  }

  /** Shows a new status: now, or at the end of the current interval on a terminal. */
  update(status: RoundStatus): void {
    if (!this.live) {
      this.appendChanges(status);
      return;
    }
    this.latest = status;
    const wait = this.lastDrawAt + this.intervalMs - this.clock.now();
    if (status.finished || wait <= 0) {
      this.draw();
    } else if (this.timer === null) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null;
        this.draw();
      }, wait);
    }
  }

  /** Draws the latest status if it is not on screen yet, and stops the timer. */
  close(): void {
    if (this.live) this.draw();
  }

  private draw(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.latest === null) return;
    this.lastDrawAt = this.clock.now();
    const columns = Math.max(20, this.stream.columns ?? DEFAULT_COLUMNS);
    const rows = Math.max(3, this.stream.rows ?? DEFAULT_ROWS);
    // A line that wraps, or a block taller than the screen, would break the cursor arithmetic.
    const lines = frameLines(this.latest, rows - 1).map((line) => fitWidth(line, columns - 1));
    const frame = lines.join("\n");
    if (frame === this.drawnFrame) return;
    let text = this.drawnLines > 0 ? `\x1b[${this.drawnLines}A\r` : "";
    for (const line of lines) text += `\x1b[2K${line}\n`;
    if (lines.length < this.drawnLines) text += "\x1b[J";
    this.stream.write(text);
    this.drawnLines = lines.length;
    this.drawnFrame = frame;
  }

  private appendChanges(status: RoundStatus): void {
    const lines: string[] = [];
    for (const reviewer of status.reviewers) {
      for (const lens of reviewer.lenses) {
        const key = `${reviewer.model}\0${lens.lens}`;
        // A lens never seen counts as queued: twenty "queued" lines would tell nothing.
        const previous = this.seenStates.get(key) ?? "queued";
        if (previous === lens.state) continue;
        this.seenStates.set(key, lens.state);
        lines.push(`${safe(reviewer.model)} · ${safe(lens.lens)} — ${plainLensDetail(lens)}`);
      }
    }
    for (const event of roundEvents(status)) {
      if (this.seenRoundEvents.has(event)) continue;
      this.seenRoundEvents.add(event);
      lines.push(event);
    }
    if (lines.length > 0) this.stream.write(`${lines.join("\n")}\n`);
  }
}

function frameLines(status: RoundStatus, maxLines: number): string[] {
  const finished = status.reviewers.filter(hasFinished).length;
  const header = `Gadfly · ${describeHead(status.headSha)} · ${finished}/${status.reviewers.length} reviewers finished`;
  const footer = roundEvents(status);
  const full = status.reviewers.flatMap((reviewer) => [
    reviewerLine(reviewer),
    ...reviewer.lenses.map(
      (lens) => `    ${SYMBOLS[lens.state]} ${safe(lens.lens)} — ${liveLensDetail(lens)}`,
    ),
  ]);
  const fixed = 1 + footer.length;
  if (fixed + full.length <= maxLines) return [header, ...full, ...footer];
  // Too tall for the screen: one line per reviewer, its lenses as symbols.
  const compact = status.reviewers.map(
    (reviewer) =>
      `${reviewerLine(reviewer)} ${reviewer.lenses.map((lens) => SYMBOLS[lens.state]).join("")}`,
  );
  const room = Math.max(1, maxLines - fixed);
  if (compact.length > room) {
    const shown = compact.slice(0, room - 1);
    shown.push(`  … and ${compact.length - shown.length} more reviewers`);
    return [header, ...shown, ...footer];
  }
  return [header, ...compact, ...footer];
}

function reviewerLine(reviewer: ReviewerStatus): string {
  const done = reviewer.lenses.filter((lens) => lens.state === "done").length;
  const state = hasFinished(reviewer)
    ? done === reviewer.lenses.length
      ? "done"
      : `ended (${done}/${reviewer.lenses.length} done)`
    : reviewer.lenses.every((lens) => lens.state === "queued")
      ? "queued"
      : `running (${done}/${reviewer.lenses.length} done)`;
  return `  ${safe(reviewer.model)} · ${safe(reviewer.provider)} — ${state}`;
}

function liveLensDetail(lens: LensStatus): string {
  if (lens.state === "running") {
    return lens.turn === undefined ? "running" : `running (turn ${lens.turn})`;
  }
  return plainLensDetail(lens);
}

/** The lens's state, then each failover hop, as the status board says it: "done · a → b: 503". */
function plainLensDetail(lens: LensStatus): string {
  const hops = (lens.failovers ?? []).map(
    (hop) => `${safe(hop.from)} → ${safe(hop.to)}: ${safe(hop.reason)}`,
  );
  return [stateOf(lens), ...hops].join(" · ");
}

function stateOf(lens: LensStatus): string {
  switch (lens.state) {
    case "queued":
    case "running":
      return lens.state;
    case "done":
      return lens.verdict === undefined ? "done" : `done: ${lens.verdict}`;
    case "failed":
    case "cancelled":
    case "skipped":
      return lens.reason === undefined ? lens.state : `${lens.state}: ${safe(lens.reason)}`;
  }
}

/** Round-level news, each said once in plain mode. */
function roundEvents(status: RoundStatus): string[] {
  const events: string[] = [];
  if (status.failure !== undefined) events.push(`round failed: ${safe(status.failure)}`);
  if (status.supersededBy !== undefined) {
    events.push(safe(supersededReason(status.supersededBy)));
  }
  if (status.finished) {
    const skipped = status.notReviewed.length;
    events.push(
      skipped === 0
        ? "review finished"
        : `review finished · ${skipped} ${skipped === 1 ? "file" : "files"} not reviewed`,
    );
  }
  return events;
}

function hasFinished(reviewer: ReviewerStatus): boolean {
  return reviewer.lenses.every((lens) => lens.state !== "queued" && lens.state !== "running");
}

function describeHead(headSha: string): string {
  return headSha.startsWith(WORKTREE_PREFIX)
    ? "reviewing the working tree"
    : `reviewing ${safe(headSha).slice(0, 7)}`;
}

function safe(text: string): string {
  return terminalSafeText(text, { oneLine: true });
}

/** Cuts a line to `width` characters (code points, so no emoji is split). */
function fitWidth(line: string, width: number): string {
  const characters = [...line];
  return characters.length <= width ? line : `${characters.slice(0, width - 1).join("")}…`;
}
