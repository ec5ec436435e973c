import { describe, expect, it } from "vitest";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const HOUR = 60 * 60 * 1000;
const repo = { owner: "octo-org", repo: "widgets" };

/** `@gadfly` requests in findings' threads: claimed once, limited per PR a day, spend counted. */
export function runStoreContractThreadAnswers(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);
  const claim = (replyCommentId: number, pullNumber = 7) => ({
    replyCommentId,
    installationId: 42,
    repo,
    pullNumber,
    fingerprint: "f00d",
    kind: "question" as const,
    actor: "maintainer",
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
