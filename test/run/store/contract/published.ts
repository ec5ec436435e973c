import { describe, expect, it } from "vitest";
import type { LensReport } from "../../../../src/agent/index.js";
import type { PreviousFinding } from "../../../../src/consensus/consensus.js";
import { MAX_DETAIL_BODY_CHARS } from "../../../../src/run/store/store-rows.js";
import { lensReport } from "../../../builders/lens-report.js";
import { claimRound, endRound } from "../helpers/claim-round.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const repo = { owner: "octo-org", repo: "widgets" };

const tokenFinding: PreviousFinding = {
  fingerprint: "f00d0000000000aa",
  title: "Token compared without constant time",
  file: "src/auth.ts",
  line: 12,
  severity: "high",
  url: "https://github.com/octo-org/widgets/pull/7#discussion_r1",
};
const loopFinding: PreviousFinding = {
  fingerprint: "f00d0000000000bb",
  title: "Quadratic loop over files",
  file: "src/scan.ts",
  line: 40,
  severity: "medium",
};

/** What a round published, read by the next round, for any RunStore. */
export function runStoreContractPublished(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  async function roundAt(headSha: string, pullNumber = 7) {
    const { round } = await t.store.startRound({
      repo,
      installationId: 42,
      pullNumber,
      headSha,
      trigger: { kind: "push", deliveryId: `d-${headSha}-${pullNumber}` },
    });
    await claimRound(t.store, round.id);
    return round;
  }

  describe("previous round", () => {
    it("is the last completed round before the given number, with its findings in order", async () => {
      const first = await roundAt("s1");
      await t.store.saveFingerprints(first.id, [loopFinding]);
      await t.store.saveFingerprints(first.id, [tokenFinding, loopFinding]);
      await t.store.setArtifacts(first.id, { statusCommentId: 11, consensusCommentId: 12 });
      await endRound(t.store, first.id, { state: "completed" });
      const second = await roundAt("s2");
      await t.store.saveFingerprints(second.id, [loopFinding]);
      // Round 2 is cancelled by round 3: it published nothing final, so round 3 compares with 1.
      const third = await roundAt("s3");

      expect(await t.store.previousRound(repo, 7, third.number)).toEqual({
        roundId: first.id,
        round: 1,
        headSha: "s1",
        // The sticky comments it wrote, which the next round edits by id.
        artifacts: { statusCommentId: 11, consensusCommentId: 12 },
        findings: [tokenFinding, loopFinding],
        unfinishedLenses: [],
        base: null,
      });
      expect(await t.store.previousRound(repo, 7, first.number)).toBeNull();
      expect(await t.store.previousRound(repo, 8, third.number)).toBeNull();

      await t.store.saveFingerprints(third.id, []);
      await endRound(t.store, third.id, { state: "completed" });
      expect(await t.store.previousRound(repo, 7, 4)).toMatchObject({ round: 3, findings: [] });
    });
  });

  describe("incremental rounds", () => {
    it("keeps the base a round reviewed against, for the next round's step", async () => {
      const first = await roundAt("b1");
      await t.store.saveReviewBase(first.id, { ref: "main", mergeBaseSha: "m1" });
      await t.store.saveReviewBase(first.id, { ref: "release", mergeBaseSha: "m2" });
      await endRound(t.store, first.id, { state: "completed" });
      const second = await roundAt("b2");
      expect((await t.store.previousRound(repo, 7, second.number))?.base).toEqual({
        ref: "release",
        mergeBaseSha: "m2",
      });
    });

    it("names the lenses no model finished: a round where none finished is no baseline", async () => {
      const first = await roundAt("u1");
      const report = (model: string, lens: string, outcome: LensReport["outcome"]) =>
        lensReport({ model, lens, outcome, ...(outcome === "done" ? {} : { failure: "down" }) });
      // security: one model finished; correctness: failed and skipped (daily budget);
      // performance: cancelled. Only security was reviewed at this head.
      await t.store.saveLensReport(first.id, report("a", "security", "failed"));
      await t.store.saveLensReport(first.id, report("b", "security", "done"));
      await t.store.saveLensReport(first.id, report("a", "correctness", "failed"));
      await t.store.saveLensReport(first.id, report("b", "correctness", "skipped"));
      await t.store.saveLensReport(first.id, report("a", "performance", "cancelled"));
      await endRound(t.store, first.id, { state: "completed" });
      const second = await roundAt("u2");
      expect((await t.store.previousRound(repo, 7, second.number))?.unfinishedLenses).toEqual([
        "correctness",
        "performance",
      ]);
      // A lens finished later in the same round (a resumed round saves it again): reviewed.
      await t.store.saveLensReport(first.id, report("a", "correctness", "done"));
      expect((await t.store.previousRound(repo, 7, second.number))?.unfinishedLenses).toEqual([
        "performance",
      ]);
    });

    it("keeps a finding's detail for the next round, bounded, and reads an unknown shape as absent", async () => {
      const carried: PreviousFinding = {
        ...tokenFinding,
        detail: {
          endLine: 14,
          models: ["glm", "opus"],
          confirmedBy: ["gpt"],
          unsure: true,
          lens: "security",
          confidence: "high",
          body: `${"x".repeat(MAX_DETAIL_BODY_CHARS)}tail`,
          since: 1,
        },
      };
      const first = await roundAt("s1");
      await t.store.saveFingerprints(first.id, [carried, loopFinding]);
      await endRound(t.store, first.id, { state: "completed" });
      const second = await roundAt("s2");

      const previous = await t.store.previousRound(repo, 7, second.number);
      expect(previous?.findings).toEqual([
        { ...carried, detail: { ...carried.detail, body: "x".repeat(MAX_DETAIL_BODY_CHARS) } },
        loopFinding,
      ]);
    });

    it("keeps '@gadfly review full' with the round, and a push is not forced", async () => {
      const { round } = await t.store.startRound({
        repo,
        installationId: 42,
        pullNumber: 9,
        headSha: "f1",
        trigger: { kind: "comment", deliveryId: "d-full", actor: "octocat", full: true },
      });
      expect(round.trigger).toEqual({
        kind: "comment",
        deliveryId: "d-full",
        actor: "octocat",
        full: true,
      });
      expect((await t.store.findRound(round.id))?.trigger.full).toBe(true);
      const push = await roundAt("f2", 9);
      expect(push.trigger).toEqual({ kind: "push", deliveryId: "d-f2-9" });
      expect((await t.store.findRound(push.id))?.trigger.full).toBeUndefined();
    });
  });

  describe("posted inline comments", () => {
    it("remembers per pull request which findings were posted, keeping the latest comment", async () => {
      await t.store.savePostedInline(repo, 7, tokenFinding.fingerprint, 101);
      await t.store.savePostedInline(repo, 7, loopFinding.fingerprint, 102);
      await t.store.savePostedInline(repo, 8, tokenFinding.fingerprint, 201);
      await t.store.savePostedInline(repo, 7, tokenFinding.fingerprint, 103);

      const posted = await t.store.postedInline(repo, 7);
      expect(
        Object.fromEntries(posted.map((entry) => [entry.fingerprint, entry.commentId])),
      ).toEqual({ [tokenFinding.fingerprint]: 103, [loopFinding.fingerprint]: 102 });
      expect((await t.store.postedInline(repo, 8)).map((entry) => entry.commentId)).toEqual([201]);
      expect(await t.store.postedInline({ owner: "octo-org", repo: "gears" }, 7)).toEqual([]);
    });

    it("records the fixed reply under the comment it answers, and forgets it when the finding is posted again", async () => {
      await t.store.savePostedInline(repo, 7, tokenFinding.fingerprint, 101);
      await t.store.savePostedInline(repo, 7, loopFinding.fingerprint, 102);

      expect(await t.store.saveFixedReply(repo, 7, tokenFinding.fingerprint, 101, 501)).toBe(true);
      // Not the stored comment, not a stored finding, not this pull request: nothing written.
      expect(await t.store.saveFixedReply(repo, 7, loopFinding.fingerprint, 999, 502)).toBe(false);
      expect(await t.store.saveFixedReply(repo, 7, "f00d0000000000cc", 103, 503)).toBe(false);
      expect(await t.store.saveFixedReply(repo, 8, tokenFinding.fingerprint, 101, 504)).toBe(false);

      const replies = async () =>
        Object.fromEntries(
          (await t.store.postedInline(repo, 7)).map((entry) => [
            entry.fingerprint,
            entry.fixedReplyId,
          ]),
        );
      expect(await replies()).toEqual({
        [tokenFinding.fingerprint]: 501,
        [loopFinding.fingerprint]: undefined,
      });
      const [withoutReply] = (await t.store.postedInline(repo, 7)).filter(
        (entry) => entry.fingerprint === loopFinding.fingerprint,
      );
      expect(withoutReply).not.toHaveProperty("fixedReplyId");

      // The problem came back and was posted anew: the new comment has no reply yet.
      await t.store.savePostedInline(repo, 7, tokenFinding.fingerprint, 105);
      expect((await replies())[tokenFinding.fingerprint]).toBeUndefined();
    });
  });

  describe("findings listed as not placeable inline", () => {
    it("are remembered per pull request, once each, in the order first listed", async () => {
      expect(await t.store.listedUnplaced(repo, 7)).toEqual([]);
      t.clock.advance(1_000);
      await t.store.saveListedUnplaced(repo, 7, [loopFinding.fingerprint]);
      t.clock.advance(1_000);
      await t.store.saveListedUnplaced(repo, 7, [
        tokenFinding.fingerprint,
        loopFinding.fingerprint,
        tokenFinding.fingerprint,
      ]);
      await t.store.saveListedUnplaced(repo, 7, []);
      await t.store.saveListedUnplaced(repo, 8, [tokenFinding.fingerprint]);

      expect(await t.store.listedUnplaced(repo, 7)).toEqual([
        loopFinding.fingerprint,
        tokenFinding.fingerprint,
      ]);
      expect(await t.store.listedUnplaced(repo, 8)).toEqual([tokenFinding.fingerprint]);
      expect(await t.store.listedUnplaced({ owner: "octo-org", repo: "gears" }, 7)).toEqual([]);
    });
  });
}
