import { describe, expect, it } from "vitest";
import { TerminalBoard } from "../../src/cli/terminal-board.js";
import type { LensStatus, RoundStatus } from "../../src/run/round-status.js";
import { FakeClock } from "../helpers/fake-clock.js";

class FakeStream {
  readonly writes: string[] = [];
  constructor(
    readonly columns = 100,
    readonly rows = 40,
  ) {}
  write(text: string): boolean {
    this.writes.push(text);
    return true;
  }
}

const LENSES = ["security", "correctness"];

function status(
  lenses: Record<string, Partial<LensStatus>[]>,
  extra: Partial<RoundStatus> = {},
): RoundStatus {
  return {
    headSha: "0123456789abcdef0123456789abcdef01234567",
    round: 1,
    updatedAt: new Date(0),
    reviewers: Object.entries(lenses).map(([model, states]) => ({
      model,
      provider: "ollama",
      lenses: LENSES.map((lens, index) => ({ lens, state: "queued", ...states[index] })),
    })),
    notReviewed: [],
    finished: false,
    ...extra,
  };
}

const QUEUED = status({ "glm-5.2:cloud": [{}, {}], "kimi:cloud": [{}, {}] });
const RUNNING = status({
  "glm-5.2:cloud": [{ state: "running", turn: 1 }, {}],
  "kimi:cloud": [{}, {}],
});
const RUNNING_LATER = status({
  "glm-5.2:cloud": [{ state: "running", turn: 5 }, {}],
  "kimi:cloud": [{}, {}],
});
const DONE_ONE = status({
  "glm-5.2:cloud": [{ state: "done", verdict: "Minor issues" }, { state: "running" }],
  "kimi:cloud": [{ state: "failed", reason: "timed out after 900 s" }, {}],
});
const FINISHED = status(
  {
    "glm-5.2:cloud": [
      { state: "done", verdict: "Minor issues" },
      { state: "done", verdict: "No material issues found" },
    ],
    "kimi:cloud": [{ state: "failed", reason: "timed out after 900 s" }, { state: "cancelled" }],
  },
  { finished: true, notReviewed: [{ path: "logo.png", reason: "binary" }] },
);

describe("TerminalBoard in plain mode (not a TTY, or CI)", () => {
  it("prints one line per lens state change and nothing for unchanged states", () => {
    const stream = new FakeStream();
    const board = new TerminalBoard({ stream, isTty: false, clock: new FakeClock() });
    board.update(QUEUED);
    expect(stream.writes).toEqual([]);
    board.update(RUNNING);
    board.update(RUNNING_LATER);
    board.update(DONE_ONE);
    board.update(DONE_ONE);
    board.update(FINISHED);
    board.update(FINISHED);
    board.close();
    expect(stream.writes.join("")).toBe(
      [
        "glm-5.2:cloud · security — running",
        "glm-5.2:cloud · security — done: Minor issues",
        "glm-5.2:cloud · correctness — running",
        "kimi:cloud · security — failed: timed out after 900 s",
        "glm-5.2:cloud · correctness — done: No material issues found",
        "kimi:cloud · correctness — cancelled",
        "review finished · 1 file not reviewed",
        "",
      ].join("\n"),
    );
  });

  it("is plain under CI even on a terminal, and writes no escape sequence", () => {
    const stream = new FakeStream();
    const board = new TerminalBoard({ stream, isTty: true, ci: true, clock: new FakeClock() });
    board.update(RUNNING);
    board.update(FINISHED);
    expect(stream.writes.length).toBe(2);
    expect(stream.writes.join("")).not.toContain("\x1b");
  });

  it("strips escape sequences from model ids and reasons", () => {
    const stream = new FakeStream();
    const board = new TerminalBoard({ stream, isTty: false, clock: new FakeClock() });
    board.update(
      status({
        "evil\x1b[2J": [{ state: "failed", reason: "bad\x1b]0;title\x07 thing\nhere" }, {}],
      }),
    );
    expect(stream.writes).toEqual(["evil · security — failed: bad thing here\n"]);
  });
});

describe("TerminalBoard on a TTY", () => {
  it("draws a block, then redraws it in place: cursor up over the old block, each line cleared", () => {
    const stream = new FakeStream();
    const clock = new FakeClock();
    const board = new TerminalBoard({ stream, isTty: true, clock });
    board.update(QUEUED);
    expect(stream.writes).toHaveLength(1);
    const first = stream.writes[0] ?? "";
    expect(first).not.toContain("\x1b[A");
    const firstLines = first.split("\n").filter((line) => line !== "");
    expect(firstLines).toHaveLength(7);
    expect(firstLines.every((line) => line.startsWith("\x1b[2K"))).toBe(true);
    expect(firstLines[0]).toBe("\x1b[2KGadfly · reviewing 0123456 · 0/2 reviewers finished");
    expect(first).toContain("\x1b[2K  glm-5.2:cloud · ollama — queued\n");

    clock.advance(150);
    board.update(DONE_ONE);
    const second = stream.writes[1] ?? "";
    expect(second.startsWith("\x1b[7A\r")).toBe(true);
    expect(second).toContain("\x1b[2K    ✓ security — done: Minor issues\n");
    expect(second).toContain("\x1b[2K    ✗ security — failed: timed out after 900 s\n");
    expect(second).toContain("\x1b[2K  kimi:cloud · ollama — running (0/2 done)\n");
  });

  it("throttles redraws to one per interval, drawing the latest state at its end", () => {
    const stream = new FakeStream();
    const clock = new FakeClock();
    const board = new TerminalBoard({ stream, isTty: true, clock, intervalMs: 100 });
    board.update(QUEUED);
    clock.advance(10);
    board.update(RUNNING);
    board.update(RUNNING_LATER);
    expect(stream.writes).toHaveLength(1);
    clock.advance(89);
    expect(stream.writes).toHaveLength(1);
    clock.advance(1);
    expect(stream.writes).toHaveLength(2);
    expect(stream.writes[1]).toContain("running (turn 5)");
    expect(stream.writes[1]).not.toContain("turn 1");
    expect(clock.pending()).toBe(0);
  });

  it("always draws the final state at once, and skips a frame identical to the one shown", () => {
    const stream = new FakeStream();
    const clock = new FakeClock();
    const board = new TerminalBoard({ stream, isTty: true, clock });
    board.update(RUNNING);
    board.update(FINISHED);
    expect(stream.writes).toHaveLength(2);
    expect(stream.writes[1]).toContain("review finished · 1 file not reviewed");
    expect(clock.pending()).toBe(0);
    clock.advance(500);
    board.update(FINISHED);
    board.close();
    expect(stream.writes).toHaveLength(2);
  });

  it("close() draws a state still waiting for its interval", () => {
    const stream = new FakeStream();
    const clock = new FakeClock();
    const board = new TerminalBoard({ stream, isTty: true, clock });
    board.update(QUEUED);
    board.update(RUNNING);
    expect(stream.writes).toHaveLength(1);
    board.close();
    expect(stream.writes).toHaveLength(2);
    expect(stream.writes[1]).toContain("› security — running (turn 1)");
    expect(clock.pending()).toBe(0);
  });

  it("clears what is left below when the block shrinks", () => {
    const stream = new FakeStream(100, 8);
    const clock = new FakeClock();
    const board = new TerminalBoard({ stream, isTty: true, clock });
    board.update(QUEUED);
    clock.advance(200);
    // The round-level line makes the full block too tall for 8 rows: one line per reviewer.
    board.update({ ...QUEUED, failure: "the snapshot could not be taken" });
    const compact = stream.writes[1] ?? "";
    expect(compact.startsWith("\x1b[7A\r")).toBe(true);
    expect(compact.endsWith("\x1b[J")).toBe(true);
    expect(compact).toContain("\x1b[2K  glm-5.2:cloud · ollama — queued ··\n");
    expect(compact).toContain("round failed: the snapshot could not be taken");
  });

  it("keeps every line narrower than the terminal, so nothing wraps", () => {
    const stream = new FakeStream(30, 40);
    const board = new TerminalBoard({ stream, isTty: true, clock: new FakeClock() });
    board.update(DONE_ONE);
    const lines = (stream.writes[0] ?? "").split("\n").filter((line) => line !== "");
    for (const line of lines) expect([...line.replace("\x1b[2K", "")].length).toBeLessThan(30);
    expect(lines.some((line) => line.endsWith("…"))).toBe(true);
  });

  it("names the working tree rather than a hash", () => {
    const stream = new FakeStream();
    const board = new TerminalBoard({ stream, isTty: true, clock: new FakeClock() });
    board.update({ ...QUEUED, headSha: `WORKTREE-${"ab".repeat(20)}` });
    expect(stream.writes[0]).toContain("Gadfly · reviewing the working tree · 0/2");
  });
});
