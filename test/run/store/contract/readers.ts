import { describe, expect, it } from "vitest";
import type { RunStore, StartRoundInput } from "../../../../src/run/store/run-store.js";
import { claimRound } from "../helpers/claim-round.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const repo = { owner: "octo-org", repo: "widgets" };

function readerPush(pullNumber: number, actor: string): StartRoundInput {
  return {
    repo,
    installationId: 42,
    pullNumber,
    headSha: `sha-${pullNumber}`,
    trigger: { kind: "push", deliveryId: `d-${pullNumber}`, actor },
  };
}

/** What the reader limits rely on the store for: the reader's lock, their rounds, a writer joining. */
export function runStoreContractReaders(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  describe("readers' rounds", () => {
    it("let two simultaneous pushes to two PRs of one reader take their last round only once", async () => {
      const stores: [RunStore, RunStore] = [t.store, await t.fixture.open(t.clock)];
      const since = new Date(t.clock.now());
      // A receiver's decision for one reader push (readerHold's per-author count, allowance 1):
      // count, await GitHub a moment, then start, under the PR's lock and the reader's.
      const push = (store: RunStore, pullNumber: number) =>
        store.lockPullRequest(repo, pullNumber, () =>
          store.lockReader(42, pullNumber % 2 === 0 ? "Stranger" : "stranger", async () => {
            const theirs = await store.recentRounds({
              installationId: 42,
              pushActor: "stranger",
              since,
            });
            await new Promise((resolve) => setTimeout(resolve, 30));
            if (theirs.length >= 1) return "held";
            await store.startRound(readerPush(pullNumber, "stranger"));
            return "started";
          }),
        );
      const outcomes = await Promise.all([push(stores[0], 1), push(stores[1], 2)]);
      expect(outcomes.sort()).toEqual(["held", "started"]);
      const rounds = await t.store.recentRounds({
        installationId: 42,
        pushActor: "stranger",
        since,
      });
      expect(rounds).toHaveLength(1);

      // Another reader's lock, or another installation's, does not wait for this one.
      const order: string[] = [];
      let release: () => void = () => undefined;
      let entered: () => void = () => undefined;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const held = stores[0].lockReader(42, "stranger", async () => {
        order.push("stranger in");
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        order.push("stranger out");
      });
      await inside;
      await stores[1].lockReader(42, "someone-else", async () => {
        order.push("someone-else in");
      });
      await stores[1].lockReader(7, "stranger", async () => {
        order.push("other installation in");
      });
      release();
      await held;
      expect(order).toEqual([
        "stranger in",
        "someone-else in",
        "other installation in",
        "stranger out",
      ]);
    });

    it("make a reader's round the writer's when a writer's comment joins it, and only then", async () => {
      const { round } = await t.store.startRound({
        ...readerPush(5, "stranger"),
        delayMs: 86_400_000,
      });
      // Another reader push joining keeps it the reader's.
      const pushed = await t.store.startRound({ ...readerPush(5, "stranger"), delayMs: 1000 });
      expect(pushed.round.trigger).toMatchObject({ kind: "push", actor: "stranger" });
      const joined = await t.store.startRound({
        ...readerPush(5, "stranger"),
        trigger: { kind: "comment", deliveryId: "d-comment", actor: "maintainer", full: true },
      });
      expect(joined.created).toBe(false);
      expect(joined.round.id).toBe(round.id);
      expect(joined.round.trigger).toEqual({
        kind: "comment",
        deliveryId: "d-comment",
        actor: "maintainer",
        full: true,
      });
      expect((await t.store.findRound(round.id))?.trigger.kind).toBe("comment");
      // A writer's push round is no reader's: a comment joining it leaves its trigger as it is.
      const writer = await t.store.startRound({
        repo,
        installationId: 42,
        pullNumber: 6,
        headSha: "sha-6",
        trigger: { kind: "push", deliveryId: "d-6" },
      });
      await claimRound(t.store, writer.round.id);
      const commented = await t.store.startRound({
        repo,
        installationId: 42,
        pullNumber: 6,
        headSha: "sha-6",
        trigger: { kind: "comment", deliveryId: "d-c6", actor: "maintainer" },
      });
      expect(commented.round.trigger).toEqual({ kind: "push", deliveryId: "d-6" });
    });

    it("hold a claimed round back to waiting, counted as not run, and find a round by when it was claimed", async () => {
      const day = 86_400_000;
      const { round } = await t.store.startRound({ ...readerPush(8, "stranger"), delayMs: 1000 });
      await t.clock.advanceAndSettle(day);
      const today = new Date(t.clock.now());
      // Asked for yesterday, not yet claimed: not among today's rounds.
      expect(
        await t.store.recentRounds({ installationId: 42, pushActor: "stranger", since: today }),
      ).toEqual([]);
      const lease = await claimRound(t.store, round.id);
      const claimed = await t.store.findRound(round.id);
      expect(claimed).toMatchObject({ leaseEpoch: 1, holds: 0, claimedAt: today });
      // Claimed today: today's, by the pull request and by the author.
      expect(
        (
          await t.store.recentRounds({ installationId: 42, pushActor: "stranger", since: today })
        ).map((r) => r.id),
      ).toEqual([round.id]);
      expect(
        (await t.store.recentRounds({ installationId: 42, repo, pullNumber: 8, since: today })).map(
          (r) => r.id,
        ),
      ).toEqual([round.id]);

      const held = await t.store.holdRound(lease, 3_600_000);
      expect(held.ok).toBe(true);
      expect(held.round).toMatchObject({
        state: "queued",
        attempts: 0,
        leaseEpoch: 1,
        holds: 1,
        notBefore: new Date(t.clock.now() + 3_600_000),
      });
      // Fenced: the lease it handed back holds nothing any more.
      expect((await t.store.holdRound(lease, 1)).ok).toBe(false);
      expect((await t.store.finishRound(lease, { state: "completed" })).ok).toBe(false);
      expect(await t.store.claimRound(round.id, { owner: "w", leaseMs: 1000 })).toMatchObject({
        kind: "not-due",
      });
      await t.clock.advanceAndSettle(3_600_000);
      const again = await claimRound(t.store, round.id);
      expect(await t.store.findRound(round.id)).toMatchObject({
        state: "running",
        leaseEpoch: 2,
        holds: 1,
        attempts: 0,
        claimedAt: new Date(t.clock.now()),
      });
      expect(again.epoch).toBe(2);
    });

    it("let two rounds of one reader claimed at once on two stores, one slot left, run only once", async () => {
      const stores: [RunStore, RunStore] = [t.store, await t.fixture.open(t.clock)];
      const since = new Date(t.clock.now());
      const leases = [];
      for (const pull of [11, 12]) {
        const { round } = await t.store.startRound(readerPush(pull, "stranger"));
        leases.push(await claimRound(t.store, round.id));
      }
      // Each worker's check (readerHoldAtClaim, allowance 1): the other rounds that ran, then hold.
      const check = (store: RunStore, lease: { roundId: string; epoch: number }) =>
        store.lockReader(42, "stranger", async () => {
          const theirs = await store.recentRounds({
            installationId: 42,
            pushActor: "stranger",
            since,
          });
          const ran = theirs.filter((r) => r.id !== lease.roundId && r.leaseEpoch > r.holds);
          await new Promise((resolve) => setTimeout(resolve, 30));
          if (ran.length < 1) return "runs";
          return (await store.holdRound(lease, 60_000)).ok ? "held" : "lost";
        });
      const [first, second] = leases as [(typeof leases)[0], (typeof leases)[0]];
      const outcomes = await Promise.all([check(stores[0], first), check(stores[1], second)]);
      expect(outcomes.sort()).toEqual(["held", "runs"]);
      const rounds = await t.store.recentRounds({
        installationId: 42,
        pushActor: "stranger",
        since,
      });
      expect(rounds.map((r) => r.state).sort()).toEqual(["queued", "running"]);
    });
  });
}
