import { describe, expect, it } from "vitest";
import type { RunStore, StartRoundInput } from "../../../../src/run/store/run-store.js";
import { claimRound } from "../helpers/claim-round.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const repo = { owner: "octo-org", repo: "widgets" };

function trigger(pullNumber: number, headSha: string, deliveryId: string): StartRoundInput {
  return {
    repo,
    installationId: 42,
    pullNumber,
    headSha,
    trigger: { kind: "push", deliveryId },
  };
}

/**
 * Two store instances (two connections, or two pools) racing on the same
 * data, as two receivers or two workers do: the database decides, once.
 */
export function runStoreContractRaces(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  async function twoStores(): Promise<[RunStore, RunStore]> {
    return [t.store, await t.fixture.open(t.clock)];
  }

  describe("two instances racing", () => {
    it("hold a pull request's lock one at a time across instances, and another PR's at once", async () => {
      const stores = await twoStores();
      let inside = 0;
      let most = 0;
      const hold = (store: RunStore, pullNumber: number) =>
        store.lockPullRequest(repo, pullNumber, async () => {
          inside += 1;
          most = Math.max(most, inside);
          // A receiver awaiting GitHub's answer while it holds the lock.
          await new Promise((resolve) => setTimeout(resolve, 20));
          inside -= 1;
        });
      await Promise.all(
        Array.from({ length: 6 }, (_, index) => hold(stores[index % 2] as RunStore, 9)),
      );
      expect(most).toBe(1);

      // Different pull requests do not wait for each other.
      const order: string[] = [];
      let release: () => void = () => undefined;
      let entered: () => void = () => undefined;
      const inside10 = new Promise<void>((resolve) => (entered = resolve));
      const held = stores[0].lockPullRequest(repo, 10, async () => {
        order.push("10 in");
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        order.push("10 out");
      });
      await inside10;
      await stores[1].lockPullRequest(repo, 11, async () => {
        order.push("11 in");
      });
      release();
      await held;
      expect(order).toEqual(["10 in", "11 in", "10 out"]);
    });

    it("answer new exactly once for each delivery both record", async () => {
      const stores = await twoStores();
      const at = new Date(t.clock.now());
      const ids = Array.from({ length: 25 }, (_, index) => `race-${index}`);
      const answers = await Promise.all(
        ids.flatMap((id) => stores.map((store) => store.recordDelivery(id, "pull_request", at))),
      );
      expect(answers.filter((answer) => answer === "new")).toHaveLength(ids.length);
      expect(answers.filter((answer) => answer === "duplicate")).toHaveLength(ids.length);
    });

    it("create one round for a (PR, SHA) however many triggers race, and the rest join it", async () => {
      const stores = await twoStores();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          (stores[index % 2] as RunStore).startRound(trigger(7, "aaa111", `d-${index}`)),
        ),
      );
      const created = results.filter((result) => result.created);
      expect(created).toHaveLength(1);
      expect(new Set(results.map((result) => result.round.id))).toEqual(
        new Set([created[0]?.round.id]),
      );
      expect(results.every((result) => result.superseded.length === 0)).toBe(true);
      expect((await t.store.dueRounds()).map((entry) => entry.roundId)).toEqual([
        created[0]?.round.id,
      ]);
    });

    it("number racing rounds of one PR without gaps or repeats and leave one live round", async () => {
      const stores = await twoStores();
      const shas = Array.from({ length: 10 }, (_, index) => `sha-${index}`);
      const results = await Promise.all(
        shas.map((sha, index) =>
          (stores[index % 2] as RunStore).startRound(trigger(7, sha, `d-${sha}`)),
        ),
      );
      expect(results.every((result) => result.created)).toBe(true);
      expect(results.map((result) => result.round.number).sort((a, b) => a - b)).toEqual(
        shas.map((_, index) => index + 1),
      );
      const live = await t.store.dueRounds();
      expect(live).toHaveLength(1);
      // The last round numbered is the one every other start saw last: it alone survives.
      const last = results.find((result) => result.round.number === shas.length);
      expect(live[0]?.roundId).toBe(last?.round.id);
      // Every other round was cancelled exactly once, by whichever start came after it.
      const cancelled = results.flatMap((result) => result.superseded.map((round) => round.id));
      expect(cancelled.sort()).toEqual(
        results
          .filter((result) => result !== last)
          .map((result) => result.round.id)
          .sort(),
      );
    });

    it("let only one of its holder's ending and a newer head's supersede end a round", async () => {
      const [first, second] = await twoStores();
      const { round } = await first.startRound(trigger(7, "aaa111", "d-1"));
      const lease = await claimRound(first, round.id);
      const endings = await Promise.all([
        first.finishRound(lease, { state: "completed" }),
        second.finishRound(lease, { state: "failed", failure: "worker lost" }),
        second.startRound(trigger(7, "bbb222", "d-2")),
      ]);
      const winners = [endings[0].ok, endings[1].ok, endings[2].superseded.length === 1];
      expect(winners.filter(Boolean)).toHaveLength(1);
    });

    it("let only one of two workers claim a due round, however they race", async () => {
      const [first, second] = await twoStores();
      const { round } = await first.startRound(trigger(7, "aaa111", "d-1"));
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? first : second).claimRound(round.id, {
            owner: `worker-${index}`,
            leaseMs: 60_000,
          }),
        ),
      );
      expect(claims.filter((claim) => claim.kind === "claimed")).toHaveLength(1);
      expect(claims.filter((claim) => claim.kind === "held")).toHaveLength(7);
    });
  });
}
