import { describe, expect, it } from "vitest";
import type { StartRoundInput } from "../../../../src/run/store/run-store.js";
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

      expect(await t.store.markRoundRunning(first.round.id)).toBe(true);
      const whileRunning = await t.store.startRound(
        trigger("aaa111", { trigger: { kind: "rerequest", deliveryId: "d-2" } }),
      );
      expect(whileRunning).toMatchObject({ created: false, superseded: [] });
      expect(whileRunning.round).toMatchObject({
        id: first.round.id,
        state: "running",
        attempts: 1,
      });
    });

    it("supersedes the running round of an older head SHA and numbers the new one after it", async () => {
      const older = await t.store.startRound(trigger("aaa111"));
      await t.store.markRoundRunning(older.round.id);
      await t.clock.advanceAndSettle(1000);

      const newer = await t.store.startRound(trigger("bbb222"));
      expect(newer.created).toBe(true);
      expect(newer.round.number).toBe(2);
      expect(newer.superseded.map((round) => round.id)).toEqual([older.round.id]);
      expect(newer.superseded[0]).toMatchObject({ state: "cancelled", supersededBy: "bbb222" });

      const stored = await t.store.findRound(older.round.id);
      expect(stored).toMatchObject({ state: "cancelled", supersededBy: "bbb222" });
      expect(stored?.finishedAt?.getTime()).toBe(t.clock.now());
      // The cancelled round cannot be revived or completed by a worker still holding it.
      expect(await t.store.markRoundRunning(older.round.id)).toBe(false);
      expect(await t.store.finishRound(older.round.id, { state: "completed" })).toBe(false);
      expect((await t.store.findRound(older.round.id))?.state).toBe("cancelled");
    });

    it("supersedes on request, leaving the round of the new SHA and other pull requests alone", async () => {
      const older = await t.store.startRound(trigger("aaa111"));
      const otherPull = await t.store.startRound(trigger("aaa111", { pullNumber: 8 }));
      const superseded = await t.store.supersedeRounds(repo, 7, "ccc333");
      expect(superseded.map((round) => round.id)).toEqual([older.round.id]);
      expect(await t.store.supersedeRounds(repo, 7, "ccc333")).toEqual([]);
      expect((await t.store.findRound(otherPull.round.id))?.state).toBe("queued");
    });

    it("numbers rounds per pull request over its whole history", async () => {
      const numbers: number[] = [];
      for (const sha of ["s1", "s2", "s3"]) {
        const { round } = await t.store.startRound(trigger(sha));
        numbers.push(round.number);
        await t.store.markRoundRunning(round.id);
        await t.store.finishRound(round.id, { state: "completed" });
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
      await t.store.markRoundRunning(round.id);
      await t.clock.advanceAndSettle(5000);
      expect(
        await t.store.finishRound(round.id, { state: "failed", failure: "snapshot failed" }),
      ).toBe(true);
      expect(await t.store.finishRound(round.id, { state: "completed" })).toBe(false);
      const stored = await t.store.findRound(round.id);
      expect(stored).toMatchObject({ state: "failed", failure: "snapshot failed" });
      expect(stored?.finishedAt?.getTime()).toBe(t.clock.now());
    });

    it("counts an attempt each time a round is marked running, so resumes are visible", async () => {
      const { round } = await t.store.startRound(trigger("aaa111"));
      await t.store.markRoundRunning(round.id);
      await t.store.markRoundRunning(round.id);
      expect(await t.store.findRound(round.id)).toMatchObject({ state: "running", attempts: 2 });
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
}
