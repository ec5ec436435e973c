/**
 * A round's life, in one place: its states, the transitions between them, who may take each,
 * and the conditions each checks. The run store is the only writer of a round's state and
 * implements each transition as one fenced statement (`run/store/round-transition-sql.ts`,
 * built from this table); everything else (the queue, the worker, the GitHub side) asks the
 * store for a transition and acts on its answer. ARCHITECTURE.md draws it.
 *
 *                      ┌──────────── supersede (receiver) ───────────┐
 *                      │                                             ▼
 *   start ──► queued ──┴─ claim ─► running ─┬─ complete ─► completed   cancelled
 *               ▲  ▲                 │  ▲   ├─ fail ─────► failed          ▲
 *               │  └─ release ───────┤  │   └─ cancel ─────────────────────┤
 *               ├──── retry ─────────┤  └─ take-over (lease expired)       │
 *               └──── hold ──────────┘     renew (same state)   supersede ─┘
 */

/** queued → running → completed | failed | cancelled; the last three are terminal. */
export type RoundState = "queued" | "running" | "completed" | "failed" | "cancelled";

export const ROUND_STATES: readonly RoundState[] = [
  "queued",
  "running",
  "completed",
  "failed",
  "cancelled",
];

/** Not yet ended: a round in one of these is "live" (at most one per pull request and SHA). */
export const LIVE_STATES: readonly RoundState[] = ["queued", "running"];

export function isLive(state: RoundState): boolean {
  return state === "queued" || state === "running";
}

/**
 * Who takes a transition. A receiver is whatever handles a webhook (it holds no lease); a worker
 * holds the round's lease once it claimed it. The sweeper only wakes rounds: it takes none.
 */
export type RoundActor = "receiver" | "worker";

export type RoundTransition =
  | "start"
  | "supersede"
  | "bring-forward"
  | "claim"
  | "take-over"
  | "renew"
  | "release"
  | "retry"
  | "hold"
  | "complete"
  | "fail"
  | "cancel";

/** A condition a transition checks besides the state, in the same statement. */
export type RoundGuard =
  /** The worker holds the lease: its epoch is the round's current one. */
  | "fenced"
  /** The round's `not_before` has passed (a push's quiet period, a retry's backoff). */
  | "due"
  /** The lease ran out: whoever held it stopped renewing (a crash, a frozen process). */
  | "lease-expired";

export interface TransitionRule {
  from: readonly RoundState[];
  /** The state after; `null` keeps it (a lease renewed, a start brought forward). */
  to: RoundState | null;
  by: RoundActor;
  guards: readonly RoundGuard[];
  /** Counts one of the round's attempts (MAX_ROUND_ATTEMPTS). */
  spendsAttempt: boolean;
  /** Starts a new lease: the epoch goes up, so every older holder's writes are refused. */
  newLease: boolean;
  /** In a sentence, for ARCHITECTURE.md and the refusals' messages. */
  meaning: string;
}

export const ROUND_TRANSITIONS: Readonly<Record<RoundTransition, TransitionRule>> = {
  start: {
    from: [],
    to: "queued",
    by: "receiver",
    guards: [],
    spendsAttempt: false,
    newLease: false,
    meaning: "a trigger for the pull request's current head records a new round",
  },
  supersede: {
    from: ["queued", "running"],
    to: "cancelled",
    by: "receiver",
    guards: [],
    spendsAttempt: false,
    newLease: false,
    meaning: "a newer head of the same pull request cancels the round, wherever it runs",
  },
  "bring-forward": {
    from: ["queued"],
    to: null,
    by: "receiver",
    guards: [],
    spendsAttempt: false,
    newLease: false,
    meaning: "a comment or re-run starts a round still waiting out its quiet period now",
  },
  claim: {
    from: ["queued"],
    to: "running",
    by: "worker",
    guards: ["due"],
    spendsAttempt: false,
    newLease: true,
    meaning: "a worker takes a queued round once it is due",
  },
  "take-over": {
    from: ["running"],
    to: "running",
    by: "worker",
    guards: ["lease-expired"],
    spendsAttempt: true,
    newLease: true,
    meaning:
      "a worker takes a round whose holder stopped renewing its lease: a crash spends an attempt",
  },
  renew: {
    from: ["running"],
    to: null,
    by: "worker",
    guards: ["fenced"],
    spendsAttempt: false,
    newLease: false,
    meaning: "the holder extends its lease",
  },
  release: {
    from: ["running"],
    to: "queued",
    by: "worker",
    guards: ["fenced"],
    spendsAttempt: false,
    newLease: false,
    meaning:
      "a worker shutting down hands the round back, due at once, without spending an attempt",
  },
  retry: {
    from: ["running"],
    to: "queued",
    by: "worker",
    guards: ["fenced"],
    spendsAttempt: true,
    newLease: false,
    meaning:
      "the round could not start (GitHub unreachable): it waits out a backoff and spends an attempt",
  },
  hold: {
    from: ["running"],
    to: "queued",
    by: "worker",
    guards: ["fenced"],
    spendsAttempt: false,
    newLease: false,
    meaning:
      "a reader's round claimed while a reader limit applies again waits until it lifts: no attempt spent, and it counts as not run",
  },
  complete: {
    from: ["running"],
    to: "completed",
    by: "worker",
    guards: ["fenced"],
    spendsAttempt: false,
    newLease: false,
    meaning: "the holder published the round",
  },
  fail: {
    from: ["running"],
    to: "failed",
    by: "worker",
    guards: ["fenced"],
    spendsAttempt: false,
    newLease: false,
    meaning:
      "the holder ends the round failed, with its reason (or gives it up after its attempts)",
  },
  cancel: {
    from: ["running"],
    to: "cancelled",
    by: "worker",
    guards: ["fenced"],
    spendsAttempt: false,
    newLease: false,
    meaning: "the holder ends the round cancelled (the pull request moved on or closed)",
  },
};

/** "superseded by 1a2b3c4": the one wording a superseded round, its lenses and its check carry. */
export function supersededReason(bySha: string): string {
  return `superseded by ${bySha.slice(0, 7)}`;
}

/** Attempts a round may spend (crashes, failed starts) before it is given up for good. */
export const MAX_ROUND_ATTEMPTS = 3;

/** The failure a given-up round ends with, on the board, in the store and on its check. */
export function gaveUpReason(attempts: number): string {
  return `gave up after ${attempts} attempts`;
}

/**
 * How long a round that could not start waits before it is tried again: 10 s, 20 s, 40 s…
 * (at most 5 minutes), by the attempts it has spent so far.
 */
export function retryDelayMs(attemptsSpent: number): number {
  return Math.min(300_000, 10_000 * 2 ** Math.max(0, attemptsSpent - 1));
}

/** The part of a round the machine reads and writes. */
export interface MachineRow {
  state: RoundState;
  attempts: number;
  /** Goes up with every claim or take-over: the fence a holder's writes are checked against. */
  leaseEpoch: number;
  leaseOwner: string | null;
  /** Epoch ms; null unless running. */
  leaseExpiresAt: number | null;
  /** Epoch ms; a queued round is not claimed before it. Null: at once. */
  notBefore: number | null;
  /**
   * Claims handed back by `hold` before the round ran: `leaseEpoch - holds` is how many times it
   * really ran, which the reader limits count.
   */
  holds: number;
}

export interface TransitionInput {
  now: number;
  /** For fenced transitions: the epoch the caller's lease has. */
  epoch?: number;
  /** For claim and take-over: who takes the lease, and for how long (also renew). */
  owner?: string;
  leaseMs?: number;
  /** For retry: the backoff; for hold: until the limit lifts; for bring-forward: how soon. */
  delayMs?: number;
}

export type TransitionOutcome =
  | { ok: true; row: MachineRow }
  | { ok: false; refused: "state" | "fence" | "not-due" | "lease-live" };

/**
 * What a transition does to a round, or why it is refused: the specification the stores'
 * statements follow (each store's contract suite checks every state against every transition).
 */
export function applyTransition(
  row: MachineRow,
  transition: RoundTransition,
  input: TransitionInput,
): TransitionOutcome {
  const rule = ROUND_TRANSITIONS[transition];
  if (!rule.from.includes(row.state)) return { ok: false, refused: "state" };
  const { now } = input;
  for (const guard of rule.guards) {
    if (guard === "fenced" && input.epoch !== row.leaseEpoch)
      return { ok: false, refused: "fence" };
    if (guard === "due" && row.notBefore !== null && row.notBefore > now) {
      return { ok: false, refused: "not-due" };
    }
    if (guard === "lease-expired" && row.leaseExpiresAt !== null && row.leaseExpiresAt > now) {
      return { ok: false, refused: "lease-live" };
    }
  }
  const attempts = row.attempts + (rule.spendsAttempt ? 1 : 0);
  const to = rule.to ?? row.state;
  const leaseMs = input.leaseMs ?? 0;
  if (rule.newLease) {
    return {
      ok: true,
      row: {
        state: to,
        attempts,
        leaseEpoch: row.leaseEpoch + 1,
        leaseOwner: input.owner ?? null,
        leaseExpiresAt: now + leaseMs,
        notBefore: null,
        holds: row.holds,
      },
    };
  }
  switch (transition) {
    case "renew":
      return { ok: true, row: { ...row, leaseExpiresAt: now + leaseMs } };
    case "bring-forward": {
      const at = now + (input.delayMs ?? 0);
      return {
        ok: true,
        row: { ...row, notBefore: row.notBefore === null ? null : Math.min(row.notBefore, at) },
      };
    }
    case "release":
    case "retry":
    case "hold":
      return {
        ok: true,
        row: {
          ...row,
          state: to,
          attempts,
          leaseOwner: null,
          leaseExpiresAt: null,
          notBefore: now + (transition === "release" ? 0 : (input.delayMs ?? 0)),
          holds: row.holds + (transition === "hold" ? 1 : 0),
        },
      };
    default:
      return {
        ok: true,
        row: { ...row, state: to, attempts, leaseOwner: null, leaseExpiresAt: null },
      };
  }
}

/** Who holds a claimed round, as its fenced transitions name it. */
export interface RoundLeaseRef {
  roundId: string;
  epoch: number;
}

/**
 * Why a running round stopped early. `superseded` and `cancelled` end it (its check completed
 * as cancelled); `shutdown` hands it back (released: it resumes on the next start or another
 * worker, no attempt spent); `lost` means another worker holds it now and this one writes
 * nothing more; `ended` is the round's own end, whatever it was, which stops what is left of it.
 */
export type StopReason =
  | { kind: "superseded"; by: string }
  | { kind: "cancelled"; reason: string }
  | { kind: "shutdown" }
  | { kind: "lost" }
  | { kind: "ended" };

/** A stop that leaves the round to whoever takes it next: nothing may say it ended. */
export function isHandover(stop: StopReason | null): boolean {
  return stop?.kind === "shutdown" || stop?.kind === "lost";
}
