import { describe, expect, it } from "vitest";
import type { PreviousFinding } from "../../../../src/consensus/consensus.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const repo = { owner: "octo-org", repo: "widgets" };
const other = { owner: "octo-org", repo: "gears" };

const tokenFinding: PreviousFinding = {
  fingerprint: "f00d0000000000aa",
  title: "Token compared without constant time",
  file: "src/auth.ts",
  line: 12,
  severity: "high",
};

/** Feedback on findings (reactions, dismissals) and the repository's standing dismissals. */
export function runStoreContractFeedback(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  describe("feedback", () => {
    it("is kept per PR with who, when, why and the round, oldest first", async () => {
      const first = await t.store.saveFeedback({
        repo,
        pullNumber: 7,
        fingerprint: "aa",
        kind: "thumbs_down",
        actor: "maintainer",
        roundId: "round-1",
      });
      t.clock.advance(1000);
      await t.store.saveFeedback({
        repo,
        pullNumber: 7,
        fingerprint: "aa",
        kind: "dismiss",
        actor: "maintainer",
        reason: "intended\u0000 behaviour",
      });
      await t.store.saveFeedback({
        repo,
        pullNumber: 8,
        fingerprint: "aa",
        kind: "thumbs_up",
        actor: "someone",
      });
      await t.store.saveFeedback({
        repo: other,
        pullNumber: 7,
        fingerprint: "aa",
        kind: "thumbs_up",
        actor: "someone",
      });

      expect(first).toMatchObject({ kind: "thumbs_down", reason: null, roundId: "round-1" });
      const rows = await t.store.feedback(repo, 7);
      expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
        {
          repo,
          pullNumber: 7,
          fingerprint: "aa",
          kind: "thumbs_down",
          actor: "maintainer",
          reason: null,
          roundId: "round-1",
          createdAt: new Date(t.clock.now() - 1000),
        },
        {
          repo,
          pullNumber: 7,
          fingerprint: "aa",
          kind: "dismiss",
          actor: "maintainer",
          reason: "intended\uFFFD behaviour",
          roundId: null,
          createdAt: new Date(t.clock.now()),
        },
      ]);
      expect(rows[0]?.id).toBe(first.id);
      expect((rows[1]?.id ?? 0) > first.id).toBe(true);
    });

    it("since a time, for every repository or one", async () => {
      await t.store.saveFeedback({
        repo,
        pullNumber: 1,
        fingerprint: "a",
        kind: "thumbs_up",
        actor: "x",
      });
      t.clock.advance(10_000);
      const cutoff = new Date(t.clock.now());
      await t.store.saveFeedback({
        repo,
        pullNumber: 1,
        fingerprint: "b",
        kind: "thumbs_up",
        actor: "x",
      });
      await t.store.saveFeedback({
        repo: other,
        pullNumber: 1,
        fingerprint: "c",
        kind: "dismiss",
        actor: "x",
      });

      expect((await t.store.feedbackSince(cutoff)).map((row) => row.fingerprint)).toEqual([
        "b",
        "c",
      ]);
      expect((await t.store.feedbackSince(cutoff, other)).map((row) => row.fingerprint)).toEqual([
        "c",
      ]);
      expect(await t.store.feedbackSince(new Date(t.clock.now() + 1))).toEqual([]);
    });

    it("rejects a kind outside the list (the database checks it)", async () => {
      await expect(
        t.store.saveFeedback({
          repo,
          pullNumber: 1,
          fingerprint: "a",
          // @ts-expect-error: what a bug or a bad cast would pass
          kind: "heart",
          actor: "x",
        }),
      ).rejects.toThrow();
    });
  });

  describe("repository dismissals", () => {
    it("are the findings whose last dismiss/false-positive/undismiss is not an undismiss, with their published title and file", async () => {
      const { round } = await t.store.startRound({
        repo,
        installationId: 42,
        pullNumber: 7,
        headSha: "s1",
        trigger: { kind: "push", deliveryId: "d1" },
      });
      const context = "a".repeat(64);
      await t.store.saveFingerprints(round.id, [
        {
          ...tokenFinding,
          detail: {
            endLine: 14,
            models: ["m"],
            lens: "security",
            confidence: "high",
            body: "b",
            context,
          },
        },
      ]);
      const save = (
        fingerprint: string,
        kind: "dismiss" | "false_positive" | "undismiss" | "thumbs_down",
      ) =>
        t.store.saveFeedback({
          repo,
          pullNumber: 7,
          fingerprint,
          kind,
          actor: "maintainer",
          reason: `${kind}!`,
        });

      await save(tokenFinding.fingerprint, "dismiss");
      await save("bb", "false_positive");
      await save("bb", "undismiss");
      await save("cc", "dismiss");
      await save("cc", "undismiss");
      await save("cc", "false_positive");
      await save("dd", "thumbs_down");
      // Same fingerprint in another PR and another repository: separate dismissals / not ours.
      await t.store.saveFeedback({
        repo,
        pullNumber: 9,
        fingerprint: "bb",
        kind: "dismiss",
        actor: "lead",
      });
      await t.store.saveFeedback({
        repo: other,
        pullNumber: 7,
        fingerprint: "ee",
        kind: "dismiss",
        actor: "x",
      });
      // Feedback after a dismissal that is not a decision keeps it dismissed.
      await save(tokenFinding.fingerprint, "thumbs_down");

      const dismissals = await t.store.repoDismissals(repo);
      expect(
        dismissals.map((d) => [d.pullNumber, d.fingerprint, d.kind, d.actor, d.title, d.file]),
      ).toEqual([
        [
          7,
          tokenFinding.fingerprint,
          "dismiss",
          "maintainer",
          tokenFinding.title,
          tokenFinding.file,
        ],
        [7, "cc", "false_positive", "maintainer", null, null],
        [9, "bb", "dismiss", "lead", null, null],
      ]);
      expect(dismissals[0]?.reason).toBe("dismiss!");
      // The place and the code it was at, for matching it only there (learn: repo).
      expect(dismissals.map((d) => [d.line, d.endLine, d.context])).toEqual([
        [12, 14, context],
        [null, null, null],
        [null, null, null],
      ]);
      expect(await t.store.repoDismissals({ owner: "nobody", repo: "none" })).toEqual([]);
    });
  });
}
