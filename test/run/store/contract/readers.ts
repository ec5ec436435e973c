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
  });
}
