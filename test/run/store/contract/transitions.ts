import { describe, expect, it } from "vitest";
import {
  applyTransition,
  type MachineRow,
  type RoundTransition,
} from "../../../../src/run/round-machine.js";
import type { RunStore, StoredRound } from "../../../../src/run/store/run-store.js";
import type { FakeClock } from "../../../helpers/fake-clock.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const repo = { owner: "octo-org", repo: "widgets" };
const LEASE_MS = 10_000;

/** Where a round can be when a transition is asked for, reached through the store's own calls. */
const SITUATIONS = {
  "queued, due": async (store: RunStore) => start(store, 0),
  "queued, waiting out a delay": async (store: RunStore) => start(store, 30_000),
  "running, lease live": async (store: RunStore) => running(store),
  "running, lease run out": async (store: RunStore, clock: FakeClock) => {
    const round = await running(store);
    await clock.advanceAndSettle(LEASE_MS);
    return round;
  },
  completed: async (store: RunStore) => ended(store, { state: "completed" }),
  failed: async (store: RunStore) => ended(store, { state: "failed", failure: "boom" }),
  cancelled: async (store: RunStore) => {
    const round = await running(store);
    await store.startRound({ ...startInput(0), headSha: "bbb222" });
    return (await store.findRound(round.id)) as StoredRound;
  },
} as const;

/** The holder's transitions, asked with the round's current epoch and with a stale one. */
const HOLDER: readonly Exclude<
  RoundTransition,
  "start" | "supersede" | "bring-forward" | "claim" | "take-over"
>[] = ["renew", "release", "retry", "hold", "complete", "fail", "cancel"];

function startInput(delayMs: number) {
  return {
    repo,
    installationId: 42,
    pullNumber: 7,
    headSha: "aaa111",
    trigger: { kind: "push" as const, deliveryId: `d-${delayMs}` },
    delayMs,
  };
}

async function start(store: RunStore, delayMs: number): Promise<StoredRound> {
  return (await store.startRound(startInput(delayMs))).round;
}

async function running(store: RunStore): Promise<StoredRound> {
  const round = await start(store, 0);
  const claim = await store.claimRound(round.id, { owner: "holder", leaseMs: LEASE_MS });
  if (claim.kind !== "claimed") throw new Error(claim.kind);
  return claim.round;
}

async function ended(
  store: RunStore,
  ending: Parameters<RunStore["finishRound"]>[1],
): Promise<StoredRound> {
  const round = await running(store);
  const done = await store.finishRound({ roundId: round.id, epoch: round.leaseEpoch }, ending);
  return done.round as StoredRound;
}

function machineRowOf(round: StoredRound, leaseExpiresAt: number | null): MachineRow {
  return {
    state: round.state,
    attempts: round.attempts,
    leaseEpoch: round.leaseEpoch,
    leaseOwner: null,
    leaseExpiresAt,
    notBefore: round.notBefore?.getTime() ?? null,
    holds: round.holds,
  };
}

async function ask(
  store: RunStore,
  transition: (typeof HOLDER)[number],
  lease: { roundId: string; epoch: number },
): Promise<{ ok: boolean; round: StoredRound | null }> {
  switch (transition) {
    case "renew":
      return store.renewLease(lease, LEASE_MS);
    case "release":
      return store.releaseRound(lease);
    case "retry":
      return store.retryRound(lease, 5_000);
    case "hold":
      return store.holdRound(lease, 5_000);
    case "complete":
      return store.finishRound(lease, { state: "completed" });
    case "fail":
      return store.finishRound(lease, { state: "failed", failure: "x" });
    case "cancel":
      return store.finishRound(lease, { state: "cancelled", failure: "closed" });
  }
}

/**
 * Every transition from every situation, as the store answers it, against the machine's table
 * (`applyTransition`): the legal ones change the round exactly as the table says, the illegal
 * ones (wrong state, stale epoch, not due, lease still live) change nothing.
 */
export function runStoreContractTransitions(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  describe("the round state machine, transition by transition", () => {
    for (const [situation, reach] of Object.entries(SITUATIONS)) {
      for (const transition of HOLDER) {
        for (const fence of ["current", "stale"] as const) {
          it(`${transition} with the ${fence} lease, from ${situation}`, async () => {
            const before = await reach(t.store, t.clock);
            const live = situation === "running, lease live";
            const expiresAt =
              before.state === "running" ? t.clock.now() + (live ? LEASE_MS : 0) : null;
            const epoch = before.leaseEpoch - (fence === "stale" ? 1 : 0);
            const expected = applyTransition(machineRowOf(before, expiresAt), transition, {
              now: t.clock.now(),
              epoch,
              leaseMs: LEASE_MS,
              delayMs: 5_000,
            });
            const answer = await ask(t.store, transition, { roundId: before.id, epoch });
            const after = (await t.store.findRound(before.id)) as StoredRound;
            expect(answer.ok).toBe(expected.ok);
            if (expected.ok) {
              expect({
                state: after.state,
                attempts: after.attempts,
                epoch: after.leaseEpoch,
                notBefore: after.notBefore?.getTime() ?? null,
                holds: after.holds,
              }).toEqual({
                state: expected.row.state,
                attempts: expected.row.attempts,
                epoch: expected.row.leaseEpoch,
                notBefore: expected.row.notBefore,
                holds: expected.row.holds,
              });
            } else {
              expect(after).toEqual(before);
            }
          });
        }
      }

      it(`claim (or take-over) from ${situation}`, async () => {
        const before = await reach(t.store, t.clock);
        const live = situation === "running, lease live";
        const expiresAt = before.state === "running" ? t.clock.now() + (live ? LEASE_MS : 0) : null;
        const row = machineRowOf(before, expiresAt);
        const input = { now: t.clock.now(), owner: "claimer", leaseMs: LEASE_MS };
        const claimed = applyTransition(row, "claim", input);
        const tookOver = applyTransition(row, "take-over", input);
        const answer = await t.store.claimRound(before.id, { owner: "claimer", leaseMs: LEASE_MS });
        const expected = claimed.ok ? claimed : tookOver;
        expect(answer.kind === "claimed").toBe(expected.ok);
        if (answer.kind === "claimed" && expected.ok) {
          expect(answer.tookOver).toBe(!claimed.ok);
          expect({
            state: answer.round.state,
            attempts: answer.round.attempts,
            epoch: answer.round.leaseEpoch,
          }).toEqual({
            state: expected.row.state,
            attempts: expected.row.attempts,
            epoch: expected.row.leaseEpoch,
          });
        } else {
          const kind =
            before.state === "queued" ? "not-due" : before.state === "running" ? "held" : "ended";
          expect(answer.kind).toBe(kind);
          expect(await t.store.findRound(before.id)).toEqual(before);
        }
      });
    }
  });
}
