import { describe, expect, it } from "vitest";
import type { ChallengeRecord } from "../../../../src/run/cross-examine.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { startRunningRound } from "../helpers/start-running-round.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

function answered(
  fingerprint: string,
  model: string,
  overrides: Partial<Extract<ChallengeRecord, { outcome: "answered" }>> = {},
): ChallengeRecord {
  return {
    outcome: "answered",
    fingerprint,
    model,
    verdict: "confirm",
    reason: "the query concatenates the user's input",
    checked: "src/db.ts:42",
    ...overrides,
  };
}

function ended(
  fingerprint: string,
  model: string,
  outcome: "failed" | "cancelled",
  reason: string,
): ChallengeRecord {
  return { outcome, fingerprint, model, reason };
}

/** Cross-examination challenges a round saved as they ended, for any RunStore. */
export function runStoreContractChallenges(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  const runningRound = (pullNumber = 7) => startRunningRound(t.store, pullNumber);

  describe("challenges", () => {
    it("keeps what each challenge spent, and reads a record saved without it as without", async () => {
      const roundId = await runningRound(11);
      const spent: ChallengeRecord = {
        ...answered("fp-cost", "zeta"),
        usage: {
          inputTokens: 12_345_678_901,
          cachedInputTokens: 4_000,
          cacheWriteTokens: 300,
          outputTokens: 678,
        },
        durationMs: 4_321,
      };
      const failed: ChallengeRecord = {
        ...ended("fp-cost", "alpha", "failed", "timed out after 180 s"),
        usage: { inputTokens: 900, outputTokens: 0 },
        durationMs: 180_000,
      };
      const bare = answered("fp-bare", "mid");
      for (const record of [spent, failed, bare]) await t.store.saveChallenge(roundId, record);
      expect(await t.store.challenges(roundId)).toEqual([spent, failed, bare]);
    });

    it("reads back answered, failed and cancelled challenges as saved, in the order saved", async () => {
      const roundId = await runningRound();
      // Neither fingerprint nor model order: the order of saving, all in the same millisecond.
      const saved: ChallengeRecord[] = [
        answered("fp-b", "zeta", { verdict: "refute", checked: null }),
        ended("fp-a", "alpha", "failed", "timed out after 300 s"),
        answered("fp-a", "zeta", { verdict: "unsure" }),
        ended("fp-b", "alpha", "cancelled", "cancelled"),
        answered("fp-c", "mid"),
      ];
      for (const record of saved) await t.store.saveChallenge(roundId, record);

      const read = await t.store.challenges(roundId);
      expect(read).toEqual(saved);
      // No vote nor `checked` appears on a challenge that did not answer.
      expect(read[1]).not.toHaveProperty("verdict");
      expect(read[1]).not.toHaveProperty("checked");
      expect(read[0]).toHaveProperty("checked", null);
    });

    it("keeps the order of saving past ten challenges", async () => {
      const roundId = await runningRound();
      const saved = Array.from({ length: 12 }, (_, index) =>
        answered(`fp-${11 - index}`, `model-${index % 3}`),
      );
      for (const record of saved) await t.store.saveChallenge(roundId, record);
      expect(await t.store.challenges(roundId)).toEqual(saved);
    });

    it("replaces a challenge saved again for the same (fingerprint, model), moving it last", async () => {
      const roundId = await runningRound();
      const first = answered("fp-a", "glm", { verdict: "refute" });
      const other = answered("fp-a", "opus");
      const sameModelOtherFinding = ended("fp-b", "glm", "failed", "model error");
      await t.store.saveChallenge(roundId, first);
      await t.store.saveChallenge(roundId, other);
      await t.store.saveChallenge(roundId, sameModelOtherFinding);

      const again = ended("fp-a", "glm", "cancelled", "cancelled");
      await t.store.saveChallenge(roundId, again);
      expect(await t.store.challenges(roundId)).toEqual([other, sameModelOtherFinding, again]);

      // And back to an answer: the vote is the new one, nothing left from before.
      const answer = answered("fp-a", "glm", { verdict: "unsure", checked: null, reason: "n/a" });
      await t.store.saveChallenge(roundId, answer);
      expect(await t.store.challenges(roundId)).toEqual([other, sameModelOtherFinding, answer]);
    });

    it("keeps each round's challenges apart", async () => {
      const first = await runningRound(7);
      const second = await runningRound(8);
      const inFirst = answered("fp-a", "glm", { verdict: "confirm" });
      const inSecond = answered("fp-a", "glm", { verdict: "refute" });
      await t.store.saveChallenge(first, inFirst);
      await t.store.saveChallenge(second, inSecond);
      await t.store.saveChallenge(second, ended("fp-b", "glm", "failed", "no answer"));

      expect(await t.store.challenges(first)).toEqual([inFirst]);
      expect(await t.store.challenges(second)).toEqual([
        inSecond,
        ended("fp-b", "glm", "failed", "no answer"),
      ]);
      expect(await t.store.challenges("no-such-round")).toEqual([]);
    });

    it("round-trips reasons and locations with quotes, newlines, backslashes and unicode", async () => {
      const roundId = await runningRound();
      const tricky = [
        answered("fp-'\"", "glm", {
          reason: `It's "fine": \`a\\b\`; DROP TABLE rounds; --\nline two\r\n\ttabbed — ünïcødé 🐛 漢字 end`,
          checked: "src/ファイル 'x'.ts:7",
        }),
        ended("fp-2", "model/with:colons", "failed", 'could not start: 429 "rate limited"\n'),
        ended("fp-3", "glm", "cancelled", ""),
      ];
      for (const record of tricky) await t.store.saveChallenge(roundId, record);
      expect(await t.store.challenges(roundId)).toEqual(tricky);
    });

    it("reads a NUL in model text back as U+FFFD on every store (PostgreSQL's TEXT holds none)", async () => {
      const roundId = await runningRound();
      await t.store.saveChallenge(
        roundId,
        answered("fp-a", "glm", { reason: "a\u0000b", checked: "src/a\u0000.ts:3" }),
      );
      await t.store.saveChallenge(roundId, ended("fp-b", "glm", "failed", "\u0000"));
      expect(await t.store.challenges(roundId)).toEqual([
        answered("fp-a", "glm", { reason: "a\uFFFDb", checked: "src/a\uFFFD.ts:3" }),
        ended("fp-b", "glm", "failed", "\uFFFD"),
      ]);
    });

    it("keeps every challenge saved concurrently, each once", async () => {
      const roundId = await runningRound();
      const records = Array.from({ length: 8 }, (_, index) =>
        answered(`fp-${index}`, index % 2 === 0 ? "glm" : "opus"),
      );
      await Promise.all(records.map((record) => t.store.saveChallenge(roundId, record)));
      const read = await t.store.challenges(roundId);
      expect(read).toHaveLength(records.length);
      expect(read).toEqual(expect.arrayContaining(records));
    });

    it("keeps challenges through a restart, for a resumed round not to ask again", async () => {
      const roundId = await runningRound();
      const saved = [answered("fp-a", "glm"), ended("fp-a", "opus", "failed", "timed out")];
      for (const record of saved) await t.store.saveChallenge(roundId, record);
      // No close(): the handle is dropped as a crash would leave it.

      const reopened = await t.fixture.open(t.clock);
      expect(await reopened.challenges(roundId)).toEqual(saved);
      const next = ended("fp-b", "glm", "cancelled", "cancelled");
      await reopened.saveChallenge(roundId, next);
      expect(await t.store.challenges(roundId)).toEqual([...saved, next]);
    });

    it("refuses a challenge of a round it does not know", async () => {
      await expect(t.store.saveChallenge("no-such-round", answered("fp-a", "glm"))).rejects.toThrow(
        /foreign key/i,
      );
    });
  });
}
