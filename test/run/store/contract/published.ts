import { describe, expect, it } from "vitest";
import type { PreviousFinding } from "../../../../src/consensus/consensus.js";
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
    await t.store.markRoundRunning(round.id);
    return round;
  }

  describe("previous round", () => {
    it("is the last completed round before the given number, with its findings in order", async () => {
      const first = await roundAt("s1");
      await t.store.saveFingerprints(first.id, [loopFinding]);
      await t.store.saveFingerprints(first.id, [tokenFinding, loopFinding]);
      await t.store.finishRound(first.id, { state: "completed" });
      const second = await roundAt("s2");
      await t.store.saveFingerprints(second.id, [loopFinding]);
      // Round 2 is cancelled by round 3: it published nothing final, so round 3 compares with 1.
      const third = await roundAt("s3");

      expect(await t.store.previousRound(repo, 7, third.number)).toEqual({
        roundId: first.id,
        round: 1,
        headSha: "s1",
        findings: [tokenFinding, loopFinding],
      });
      expect(await t.store.previousRound(repo, 7, first.number)).toBeNull();
      expect(await t.store.previousRound(repo, 8, third.number)).toBeNull();

      await t.store.saveFingerprints(third.id, []);
      await t.store.finishRound(third.id, { state: "completed" });
      expect(await t.store.previousRound(repo, 7, 4)).toMatchObject({ round: 3, findings: [] });
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
  });
}
