import { describe, expect, it } from "vitest";
import {
  applyTransition,
  gaveUpReason,
  MAX_ROUND_ATTEMPTS,
  type MachineRow,
  ROUND_STATES,
  ROUND_TRANSITIONS,
  type RoundState,
  type RoundTransition,
  retryDelayMs,
} from "../../src/run/round-machine.js";

const NOW = 1_000_000;

function row(state: RoundState, overrides: Partial<MachineRow> = {}): MachineRow {
  return {
    state,
    attempts: 0,
    leaseEpoch: 4,
    leaseOwner: state === "running" ? "w" : null,
    leaseExpiresAt: state === "running" ? NOW + 1 : null,
    notBefore: null,
    holds: 0,
    ...overrides,
  };
}

/** Which states each transition may leave: everything else is refused. */
const LEGAL: Record<Exclude<RoundTransition, "start">, readonly RoundState[]> = {
  supersede: ["queued", "running"],
  "bring-forward": ["queued"],
  claim: ["queued"],
  "take-over": ["running"],
  renew: ["running"],
  release: ["running"],
  retry: ["running"],
  hold: ["running"],
  complete: ["running"],
  fail: ["running"],
  cancel: ["running"],
};

/** Every transition from every state, with its guards met (due, lease run out, current epoch). */
const TABLE: [RoundState, Exclude<RoundTransition, "start">, RoundState | "refused", number][] = [];
for (const state of ROUND_STATES) {
  for (const [transition, from] of Object.entries(LEGAL) as [
    Exclude<RoundTransition, "start">,
    readonly RoundState[],
  ][]) {
    const rule = ROUND_TRANSITIONS[transition];
    const to = from.includes(state) ? (rule.to ?? state) : "refused";
    TABLE.push([state, transition, to, rule.spendsAttempt && to !== "refused" ? 1 : 0]);
  }
}

describe("the round state machine", () => {
  it.each(TABLE)("%s --%s--> %s (attempts +%i)", (state, transition, to, spent) => {
    const met = row(state, { leaseExpiresAt: state === "running" ? NOW : null });
    const outcome = applyTransition(met, transition, {
      now: NOW,
      epoch: 4,
      owner: "x",
      leaseMs: 60,
    });
    if (to === "refused") {
      expect(outcome).toEqual({ ok: false, refused: "state" });
      return;
    }
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.row.state).toBe(to);
    expect(outcome.row.attempts).toBe(spent);
  });

  it("has a rule for exactly the transitions the table covers, and terminal states lead nowhere", () => {
    expect(Object.keys(ROUND_TRANSITIONS).sort()).toEqual([...Object.keys(LEGAL), "start"].sort());
    for (const terminal of ["completed", "failed", "cancelled"] as const) {
      for (const rule of Object.values(ROUND_TRANSITIONS))
        expect(rule.from).not.toContain(terminal);
    }
  });

  it("refuses a holder's transition with a stale epoch, and leaves the round as it was", () => {
    for (const transition of [
      "renew",
      "release",
      "retry",
      "hold",
      "complete",
      "fail",
      "cancel",
    ] as const) {
      expect(applyTransition(row("running"), transition, { now: NOW, epoch: 3 })).toEqual({
        ok: false,
        refused: "fence",
      });
    }
  });

  it("claims a queued round only once it is due, and takes over a running one only once its lease ran out", () => {
    const waiting = row("queued", { notBefore: NOW + 1 });
    expect(applyTransition(waiting, "claim", { now: NOW })).toEqual({
      ok: false,
      refused: "not-due",
    });
    expect(
      applyTransition(waiting, "claim", { now: NOW + 1, owner: "a", leaseMs: 10 }),
    ).toMatchObject({
      ok: true,
      row: {
        state: "running",
        leaseEpoch: 5,
        leaseOwner: "a",
        leaseExpiresAt: NOW + 11,
        notBefore: null,
      },
    });
    const held = row("running", { leaseExpiresAt: NOW + 1 });
    expect(applyTransition(held, "take-over", { now: NOW })).toEqual({
      ok: false,
      refused: "lease-live",
    });
    expect(
      applyTransition(held, "take-over", { now: NOW + 1, owner: "b", leaseMs: 10 }),
    ).toMatchObject({
      ok: true,
      row: { state: "running", attempts: 1, leaseEpoch: 5, leaseOwner: "b" },
    });
  });

  it("hands a released round back due at once with no attempt spent; a retry waits its backoff and spends one", () => {
    expect(applyTransition(row("running"), "release", { now: NOW, epoch: 4 })).toMatchObject({
      ok: true,
      row: { state: "queued", attempts: 0, notBefore: NOW, leaseOwner: null, leaseExpiresAt: null },
    });
    expect(
      applyTransition(row("running"), "retry", { now: NOW, epoch: 4, delayMs: 10_000 }),
    ).toMatchObject({
      ok: true,
      row: { state: "queued", attempts: 1, notBefore: NOW + 10_000 },
    });
  });

  it("holds a reader's round until its limit lifts: no attempt spent, the claim counted as not run", () => {
    const claimed = row("running", { leaseEpoch: 2, holds: 1, attempts: 1 });
    expect(applyTransition(claimed, "hold", { now: NOW, epoch: 2, delayMs: 3_600_000 })).toEqual({
      ok: true,
      row: {
        state: "queued",
        attempts: 1,
        leaseEpoch: 2,
        leaseOwner: null,
        leaseExpiresAt: null,
        notBefore: NOW + 3_600_000,
        holds: 2,
      },
    });
    // The next claim starts a new lease and keeps the holds: 3 claims, 2 handed back, 1 run.
    const waiting = row("queued", { leaseEpoch: 2, holds: 2 });
    expect(applyTransition(waiting, "claim", { now: NOW, owner: "w", leaseMs: 5 })).toMatchObject({
      ok: true,
      row: { state: "running", leaseEpoch: 3, holds: 2 },
    });
    // No other transition counts a hold.
    expect(applyTransition(claimed, "retry", { now: NOW, epoch: 2, delayMs: 1 })).toMatchObject({
      row: { holds: 1, attempts: 2 },
    });
  });

  it("brings a waiting round forward, never back", () => {
    const waiting = row("queued", { notBefore: NOW + 30_000 });
    expect(applyTransition(waiting, "bring-forward", { now: NOW, delayMs: 0 })).toMatchObject({
      row: { notBefore: NOW },
    });
    expect(applyTransition(waiting, "bring-forward", { now: NOW, delayMs: 60_000 })).toMatchObject({
      row: { notBefore: NOW + 30_000 },
    });
  });

  it("gives up after three attempts and backs off 10 s, 20 s, 40 s … at most 5 minutes", () => {
    expect(MAX_ROUND_ATTEMPTS).toBe(3);
    expect(gaveUpReason(3)).toBe("gave up after 3 attempts");
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([10_000, 20_000, 40_000, 300_000]);
  });
});
