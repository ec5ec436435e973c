import { describe, expect, it } from "vitest";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const repo = { owner: "octo-org", repo: "widgets" };

/** `@gadfly` requests in findings' threads: claimed once, limited per PR a day, spend counted. */
export function runStoreContractThreadAnswers(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);
  const claim = (replyCommentId: number, pullNumber = 7, installationId = 42) => ({
    replyCommentId,
    installationId,
    repo,
    pullNumber,
    fingerprint: "f00d",
    kind: "question" as const,
    actor: "maintainer",
    rootCommentId: 500 + replyCommentId,
    leaseMs: MINUTE,
  });

  describe("thread answers", () => {
    it("claims a reply once and refuses the PR's request past its limit since a time", async () => {
      const since = new Date(t.clock.now());
      const limit = { perPullRequest: 2, since };
      expect(await t.store.claimThreadAnswer(claim(1), limit)).toBe("claimed");
      expect(await t.store.claimThreadAnswer(claim(1), limit)).toBe("duplicate");
      expect(await t.store.claimThreadAnswer(claim(2), limit)).toBe("claimed");
      expect(await t.store.claimThreadAnswer(claim(3), limit)).toBe("limit");
      // Another PR has its own count; a new day starts the count again.
      expect(await t.store.claimThreadAnswer(claim(4, 8), limit)).toBe("claimed");
      t.clock.advance(24 * HOUR);
      const tomorrow = { perPullRequest: 2, since: new Date(t.clock.now()) };
      expect(await t.store.claimThreadAnswer(claim(3), tomorrow)).toBe("claimed");
    });

    it("leases a claim: renewed while unanswered, found stale once it lapses, taken once, given back", async () => {
      const limit = () => ({ perPullRequest: 1, since: new Date(t.clock.now() - HOUR) });
      expect(await t.store.claimThreadAnswer(claim(20, 70, 77), limit())).toBe("claimed");
      expect(await t.store.claimThreadAnswer(claim(21, 70, 77), limit())).toBe("limit");
      const mine = async () =>
        (await t.store.staleThreadAnswers(100)).filter((entry) => entry.installationId === 77);
      expect(await mine()).toEqual([]);
      t.clock.advance(MINUTE / 2);
      expect(await t.store.renewThreadAnswer(20, MINUTE)).toBe(true);
      t.clock.advance(MINUTE / 2 + 1);
      // Renewed: half a minute more to go.
      expect(await mine()).toEqual([]);
      t.clock.advance(MINUTE);
      expect(await mine()).toEqual([
        {
          replyCommentId: 20,
          installationId: 77,
          repo,
          pullNumber: 70,
          rootCommentId: 520,
          kind: "question",
        },
      ]);
      expect(await t.store.interruptThreadAnswer(20)).toBe(true);
      expect(await t.store.interruptThreadAnswer(20)).toBe(false);
      expect(await t.store.renewThreadAnswer(20, MINUTE)).toBe(false);
      expect(await mine()).toEqual([]);
      // Given back: the PR may ask again today.
      expect(await t.store.claimThreadAnswer(claim(21, 70, 77), limit())).toBe("claimed");
      // A late finish of the interrupted one still counts what it spent, and stays given back.
      await t.store.finishThreadAnswer(20, {
        outcome: "answered",
        model: "alpha",
        usage: { inputTokens: 300, outputTokens: 30 },
        answerCommentId: null,
      });
      expect(await t.store.installationSpend(77, new Date(t.clock.now() - HOUR))).toEqual([
        {
          model: "alpha",
          usage: { inputTokens: 300, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 30 },
        },
      ]);
      expect(
        await t.store.claimThreadAnswer(claim(22, 70, 77), { ...limit(), perPullRequest: 2 }),
      ).toBe("claimed");
    });

    it("never finds a finished or a live claim stale, and never takes a live one", async () => {
      const limit = { perPullRequest: 5, since: new Date(t.clock.now() - HOUR) };
      await t.store.claimThreadAnswer(claim(30, 71, 78), limit);
      await t.store.claimThreadAnswer(claim(31, 71, 78), limit);
      await t.store.finishThreadAnswer(30, {
        outcome: "failed",
        model: null,
        usage: { inputTokens: 0, outputTokens: 0 },
        answerCommentId: 7,
      });
      expect(await t.store.interruptThreadAnswer(31)).toBe(false);
      t.clock.advance(2 * MINUTE);
      const stale = await t.store.staleThreadAnswers(100);
      expect(
        stale.filter((entry) => entry.installationId === 78).map((entry) => entry.replyCommentId),
      ).toEqual([31]);
      expect(await t.store.staleThreadAnswers(0)).toEqual([]);
    });

    it("counts a finished answer's usage in the installation's spend", async () => {
      const since = new Date(t.clock.now() - HOUR);
      await t.store.claimThreadAnswer(claim(10), { perPullRequest: 5, since });
      expect(await t.store.installationSpend(42, since)).toEqual([]);
      await t.store.finishThreadAnswer(10, {
        outcome: "answered",
        model: "alpha",
        usage: { inputTokens: 1200, cachedInputTokens: 200, outputTokens: 80 },
        answerCommentId: 99,
      });
      expect(await t.store.installationSpend(42, since)).toEqual([
        {
          model: "alpha",
          usage: {
            inputTokens: 1200,
            cachedInputTokens: 200,
            cacheWriteTokens: 0,
            outputTokens: 80,
          },
        },
      ]);
      expect(await t.store.installationSpend(43, since)).toEqual([]);
    });
  });
}
