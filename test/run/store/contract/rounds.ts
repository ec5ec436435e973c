import { describe, expect, it } from "vitest";
import type { StartRoundInput } from "../../../../src/run/store/run-store.js";
import { claimRound, endRound } from "../helpers/claim-round.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const repo = { owner: "octo-org", repo: "widgets" };

function trigger(headSha: string, overrides: Partial<StartRoundInput> = {}): StartRoundInput {
  return {
    repo,
    installationId: 42,
    pullNumber: 7,
    headSha,
    trigger: { kind: "push", deliveryId: `delivery-${headSha}` },
    ...overrides,
  };
}

/** Deliveries and the round lifecycle, for any RunStore. */
export function runStoreContractRounds(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  describe("deliveries", () => {
    it("records a delivery id once", async () => {
      const at = new Date(t.clock.now());
      expect(await t.store.recordDelivery("d-1", "pull_request", at)).toBe("new");
      expect(await t.store.recordDelivery("d-1", "pull_request", at)).toBe("duplicate");
      expect(await t.store.recordDelivery("d-2", "issue_comment", at)).toBe("new");
    });

    it("answers new exactly once when two connections record the same id", async () => {
      const other = await t.fixture.open(t.clock);
      const at = new Date(t.clock.now());
      const answers = await Promise.all([
        t.store.recordDelivery("d-race", "pull_request", at),
        other.recordDelivery("d-race", "pull_request", at),
      ]);
      expect(answers.sort()).toEqual(["duplicate", "new"]);
    });

    it("forgets a delivery so its redelivery is new again, and only that one", async () => {
      const at = new Date(t.clock.now());
      await t.store.recordDelivery("d-failed", "pull_request", at);
      await t.store.recordDelivery("d-kept", "pull_request", at);
      await t.store.forgetDelivery("d-failed");
      await t.store.forgetDelivery("d-never-recorded");
      expect(await t.store.recordDelivery("d-failed", "pull_request", at)).toBe("new");
      expect(await t.store.recordDelivery("d-kept", "pull_request", at)).toBe("duplicate");
    });

    it("prunes only deliveries older than the cut-off", async () => {
      await t.store.recordDelivery("old", "pull_request", new Date(Date.UTC(2026, 0, 1)));
      await t.store.recordDelivery("recent", "pull_request", new Date(Date.UTC(2026, 0, 10)));
      expect(await t.store.pruneDeliveries(new Date(Date.UTC(2026, 0, 5)))).toBe(1);
      expect(await t.store.recordDelivery("recent", "pull_request", new Date())).toBe("duplicate");
      expect(await t.store.recordDelivery("old", "pull_request", new Date())).toBe("new");
    });
  });

  describe("rounds", () => {
    it("starts a queued round with its trigger and timestamps", async () => {
      const { round, created, superseded } = await t.store.startRound(
        trigger("aaa111", { trigger: { kind: "comment", deliveryId: "d-9", actor: "mona" } }),
      );
      expect(created).toBe(true);
      expect(superseded).toEqual([]);
      expect(round).toMatchObject({
        repo,
        installationId: 42,
        pullNumber: 7,
        headSha: "aaa111",
        number: 1,
        trigger: { kind: "comment", deliveryId: "d-9", actor: "mona" },
        state: "queued",
        attempts: 0,
        leaseEpoch: 0,
        notBefore: null,
        supersededBy: null,
        failure: null,
        artifacts: {},
        finishedAt: null,
      });
      expect(round.createdAt.getTime()).toBe(t.clock.now());
      expect(await t.store.findRound(round.id)).toEqual(round);
    });

    it("joins the queued or running round of the same head SHA instead of starting another", async () => {
      const first = await t.store.startRound(trigger("aaa111"));
      const whileQueued = await t.store.startRound(trigger("aaa111"));
      expect(whileQueued.created).toBe(false);
      expect(whileQueued.round.id).toBe(first.round.id);

      await claimRound(t.store, first.round.id);
      const whileRunning = await t.store.startRound(
        trigger("aaa111", { trigger: { kind: "rerequest", deliveryId: "d-2" } }),
      );
      expect(whileRunning).toMatchObject({ created: false, superseded: [] });
      expect(whileRunning.round).toMatchObject({
        id: first.round.id,
        state: "running",
        attempts: 0,
        leaseEpoch: 1,
      });
    });

    it("keeps a push's round waiting out its quiet period, and a comment joining it brings it forward", async () => {
      const push = await t.store.startRound(trigger("aaa111", { delayMs: 30_000 }));
      expect(push.round.notBefore?.getTime()).toBe(t.clock.now() + 30_000);
      expect(
        await t.store.claimRound(push.round.id, { owner: "w", leaseMs: 60_000 }),
      ).toMatchObject({
        kind: "not-due",
        dueInMs: 30_000,
      });
      // A duplicate push with a longer quiet period never pushes the start back.
      const again = await t.store.startRound(trigger("aaa111", { delayMs: 60_000 }));
      expect(again.round.notBefore?.getTime()).toBe(t.clock.now() + 30_000);
      await t.clock.advanceAndSettle(5_000);
      const comment = await t.store.startRound(
        trigger("aaa111", { trigger: { kind: "comment", deliveryId: "d-c", actor: "mona" } }),
      );
      expect(comment.created).toBe(false);
      expect(comment.round.notBefore?.getTime()).toBe(t.clock.now());
      expect((await t.store.claimRound(push.round.id, { owner: "w", leaseMs: 60_000 })).kind).toBe(
        "claimed",
      );
    });

    it("supersedes the running round of an older head SHA and numbers the new one after it", async () => {
      const older = await t.store.startRound(trigger("aaa111"));
      const lease = await claimRound(t.store, older.round.id);
      await t.clock.advanceAndSettle(1000);

      const newer = await t.store.startRound(trigger("bbb222"));
      expect(newer.created).toBe(true);
      expect(newer.round.number).toBe(2);
      expect(newer.superseded.map((round) => round.id)).toEqual([older.round.id]);
      expect(newer.superseded[0]).toMatchObject({
        state: "cancelled",
        supersededBy: "bbb222",
        failure: "superseded by bbb222",
      });

      const stored = await t.store.findRound(older.round.id);
      expect(stored).toMatchObject({ state: "cancelled", supersededBy: "bbb222" });
      expect(stored?.finishedAt?.getTime()).toBe(t.clock.now());
      // The cancelled round cannot be revived, renewed or completed by the worker holding it.
      expect(await t.store.renewLease(lease, 60_000)).toMatchObject({
        ok: false,
        round: { state: "cancelled", supersededBy: "bbb222" },
      });
      expect((await t.store.finishRound(lease, { state: "completed" })).ok).toBe(false);
      expect((await t.store.claimRound(older.round.id, { owner: "w2", leaseMs: 1 })).kind).toBe(
        "ended",
      );
      expect((await t.store.findRound(older.round.id))?.state).toBe("cancelled");
    });

    it("numbers rounds per pull request over its whole history", async () => {
      const numbers: number[] = [];
      for (const sha of ["s1", "s2", "s3"]) {
        const { round } = await t.store.startRound(trigger(sha));
        numbers.push(round.number);
        await endRound(t.store, round.id, { state: "completed" });
      }
      // The same SHA again after its round ended (a re-request): a new round, not a join.
      const again = await t.store.startRound(trigger("s3"));
      expect(again.created).toBe(true);
      numbers.push(again.round.number);
      expect(numbers).toEqual([1, 2, 3, 4]);

      expect((await t.store.startRound(trigger("s1", { pullNumber: 8 }))).round.number).toBe(1);
      const otherRepo = { owner: "octo-org", repo: "gears" };
      expect((await t.store.startRound(trigger("s1", { repo: otherRepo }))).round.number).toBe(1);
    });

    it("keeps the first ending of a round", async () => {
      const { round } = await t.store.startRound(trigger("aaa111"));
      const lease = await claimRound(t.store, round.id);
      await t.clock.advanceAndSettle(5000);
      const failed = await t.store.finishRound(lease, {
        state: "failed",
        failure: "snapshot failed",
      });
      expect(failed.ok).toBe(true);
      expect((await t.store.finishRound(lease, { state: "completed" })).ok).toBe(false);
      const stored = await t.store.findRound(round.id);
      expect(stored).toMatchObject({ state: "failed", failure: "snapshot failed" });
      expect(stored?.finishedAt?.getTime()).toBe(t.clock.now());
    });

    it("hands a released round back due at once with no attempt spent, and a crashed one costs an attempt", async () => {
      const { round } = await t.store.startRound(trigger("aaa111"));
      const first = await claimRound(t.store, round.id, "w1", 10_000);
      // A graceful shutdown: released, claimed again at once, nothing spent.
      expect((await t.store.releaseRound(first)).ok).toBe(true);
      const second = await t.store.claimRound(round.id, { owner: "w2", leaseMs: 10_000 });
      expect(second).toMatchObject({ kind: "claimed", tookOver: false, round: { attempts: 0 } });
      if (second.kind !== "claimed") return;
      // A crash: the lease is never renewed; until it runs out the round is held.
      expect((await t.store.claimRound(round.id, { owner: "w3", leaseMs: 10_000 })).kind).toBe(
        "held",
      );
      await t.clock.advanceAndSettle(10_000);
      const third = await t.store.claimRound(round.id, { owner: "w3", leaseMs: 10_000 });
      expect(third).toMatchObject({
        kind: "claimed",
        tookOver: true,
        round: { attempts: 1, leaseEpoch: 3, state: "running" },
      });
      // The crashed holder, come back, is fenced off: every transition of its old lease fails.
      expect((await t.store.renewLease(second.lease, 10_000)).ok).toBe(false);
      expect((await t.store.releaseRound(second.lease)).ok).toBe(false);
      expect((await t.store.finishRound(second.lease, { state: "completed" })).ok).toBe(false);
      expect((await t.store.findRound(round.id))?.state).toBe("running");
    });

    it("spends an attempt on a retry and keeps the round until its backoff passed", async () => {
      const { round } = await t.store.startRound(trigger("aaa111"));
      const lease = await claimRound(t.store, round.id);
      expect(await t.store.retryRound(lease, 20_000)).toMatchObject({
        ok: true,
        round: { state: "queued", attempts: 1 },
      });
      expect(await t.store.claimRound(round.id, { owner: "w", leaseMs: 1000 })).toMatchObject({
        kind: "not-due",
        dueInMs: 20_000,
      });
      expect(await t.store.dueRounds()).toEqual([
        { roundId: round.id, installationId: 42, state: "queued", dueInMs: 20_000 },
      ]);
      await t.clock.advanceAndSettle(20_000);
      expect((await t.store.claimRound(round.id, { owner: "w", leaseMs: 1000 })).kind).toBe(
        "claimed",
      );
    });

    it("ends every lease but its owner's at once for the single-process store's restart", async () => {
      const mine = await t.store.startRound(trigger("aaa111", { pullNumber: 1 }));
      const theirs = await t.store.startRound(trigger("aaa111", { pullNumber: 2 }));
      await claimRound(t.store, mine.round.id, "me");
      await claimRound(t.store, theirs.round.id, "dead-process");
      expect(await t.store.expireLeases("me")).toBe(1);
      expect((await t.store.claimRound(mine.round.id, { owner: "x", leaseMs: 1 })).kind).toBe(
        "held",
      );
      expect(await t.store.claimRound(theirs.round.id, { owner: "me", leaseMs: 1 })).toMatchObject({
        kind: "claimed",
        tookOver: true,
      });
    });

    it("sets artifact ids one at a time without clearing the others", async () => {
      const { round } = await t.store.startRound(trigger("aaa111"));
      await t.store.setArtifacts(round.id, { statusCommentId: 9_000_000_001, checkRunId: 55 });
      await t.store.setArtifacts(round.id, { consensusCommentId: 9_000_000_002 });
      await t.store.setArtifacts(round.id, { reviewId: 77, checkRunId: 56 });
      expect((await t.store.findRound(round.id))?.artifacts).toEqual({
        statusCommentId: 9_000_000_001,
        consensusCommentId: 9_000_000_002,
        reviewId: 77,
        checkRunId: 56,
      });
      await expect(t.store.setArtifacts("no-such-round", { reviewId: 1 })).rejects.toThrow(
        /no-such-round/,
      );
    });

    it("has the database itself refuse a second live round for one (PR, SHA)", async () => {
      await t.store.startRound(trigger("aaa111"));
      await expect(
        t.fixture.insertRawRound({ id: "raw-1", roundNumber: 2, state: "running" }),
      ).rejects.toThrow(/unique/i);
      // A terminal round of the same SHA is history, not a rival.
      await t.fixture.insertRawRound({ id: "raw-2", roundNumber: 2, state: "completed" });
      expect((await t.store.findRound("raw-2"))?.state).toBe("completed");
    });
  });

  describe("recent rounds", () => {
    it("lists a PR's rounds since a time, oldest first, and a reader's push rounds by actor across PRs", async () => {
      const reader = { kind: "push" as const, deliveryId: "r-1", actor: "mallory" };
      const first = await t.store.startRound(trigger("aaa", { trigger: reader }));
      await t.clock.advanceAndSettle(1000);
      const second = await t.store.startRound(trigger("bbb"));
      await t.store.startRound(
        trigger("ccc", { pullNumber: 8, trigger: { ...reader, deliveryId: "r-2" } }),
      );
      await t.store.startRound(
        trigger("ddd", {
          installationId: 99,
          pullNumber: 9,
          trigger: { ...reader, deliveryId: "r-3" },
        }),
      );
      const ofPull = await t.store.recentRounds({
        installationId: 42,
        repo,
        pullNumber: 7,
        since: new Date(0),
      });
      expect(ofPull.map((round) => round.id)).toEqual([first.round.id, second.round.id]);
      // The first was superseded by the second: listed as it is now.
      expect(ofPull.map((round) => [round.state, round.trigger.actor])).toEqual([
        ["cancelled", "mallory"],
        ["queued", undefined],
      ]);
      const later = await t.store.recentRounds({
        installationId: 42,
        repo,
        pullNumber: 7,
        since: second.round.createdAt,
      });
      expect(later.map((round) => round.id)).toEqual([second.round.id]);
      const byActor = await t.store.recentRounds({
        installationId: 42,
        pushActor: "mallory",
        since: new Date(0),
      });
      expect(byActor.map((round) => [round.pullNumber, round.headSha])).toEqual([
        [7, "aaa"],
        [8, "ccc"],
      ]);
    });
  });
}
