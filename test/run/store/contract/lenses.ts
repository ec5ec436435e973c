import { describe, expect, it } from "vitest";
import type { Message } from "../../../../src/llm/message.js";
import { sampleLensReport } from "../../../builders/lens-report.js";
import { claimRound, endRound } from "../helpers/claim-round.js";
import type { RunStoreBackend } from "../helpers/run-store-backend.js";
import { useRunStoreFixture } from "../helpers/use-run-store-fixture.js";

const repo = { owner: "octo-org", repo: "widgets" };
const DAY = 24 * 60 * 60 * 1000;

/** Lens runs, transcripts, retention and resume, for any RunStore. */
export function runStoreContractLenses(backend: RunStoreBackend): void {
  const t = useRunStoreFixture(backend);

  async function runningRound(headSha = "aaa111", pullNumber = 7): Promise<string> {
    const { round } = await t.store.startRound({
      repo,
      installationId: 42,
      pullNumber,
      headSha,
      trigger: { kind: "push", deliveryId: `d-${headSha}-${pullNumber}` },
    });
    await claimRound(t.store, round.id);
    return round.id;
  }

  describe("lenses", () => {
    it("saves each lens's report with its usage and refuses to run a finished lens again", async () => {
      const roundId = await runningRound();
      expect(await t.store.markLensRunning(roundId, "glm-5.2:cloud", "security")).toBe(true);
      const done = sampleLensReport();
      await t.store.saveLensReport(roundId, done);
      const failed = sampleLensReport({
        lens: "performance",
        outcome: "failed",
        verdict: null,
        statedVerdict: null,
        findings: [],
        failure: "timed out after 900 s",
        usage: { inputTokens: 50_000, outputTokens: 0 },
      });
      await t.store.saveLensReport(roundId, failed);

      expect(await t.store.lensReports(roundId)).toEqual([failed, done]);
      expect(await t.store.markLensRunning(roundId, "glm-5.2:cloud", "security")).toBe(false);
      expect(await t.store.markLensRunning(roundId, "glm-5.2:cloud", "performance")).toBe(false);
      // Another model's lens of the same name is its own lens.
      expect(await t.store.markLensRunning(roundId, "claude-code/opus", "security")).toBe(true);
    });

    it("lets a lens left running (e.g. by a crash) run again", async () => {
      const roundId = await runningRound();
      expect(await t.store.markLensRunning(roundId, "glm-5.2:cloud", "security")).toBe(true);
      expect(await t.store.markLensRunning(roundId, "glm-5.2:cloud", "security")).toBe(true);
      expect(await t.store.lensReports(roundId)).toEqual([]);
    });

    it("keeps reports per round", async () => {
      const first = await runningRound("aaa111", 7);
      const second = await runningRound("aaa111", 8);
      await t.store.saveLensReport(first, sampleLensReport());
      expect(await t.store.lensReports(second)).toEqual([]);
      expect(await t.store.markLensRunning(second, "glm-5.2:cloud", "security")).toBe(true);
    });

    it("stores transcripts apart and prunes only those older than the cut-off", async () => {
      const roundId = await runningRound();
      const oldMessages: Message[] = [
        { role: "user", content: "review this" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"src/a.ts"}' }],
        },
        { role: "tool", content: "export {}", toolCallId: "c1" },
      ];
      await t.store.saveTranscript(roundId, "glm-5.2:cloud", "security", oldMessages);
      await t.store.saveLensReport(roundId, sampleLensReport());
      await t.clock.advanceAndSettle(10 * DAY);
      const recentMessages: Message[] = [{ role: "assistant", content: "VERDICT: Minor issues" }];
      await t.store.saveTranscript(roundId, "glm-5.2:cloud", "performance", recentMessages);

      expect(await t.store.transcript(roundId, "glm-5.2:cloud", "security")).toEqual(oldMessages);
      expect(await t.store.pruneTranscripts(new Date(t.clock.now() - 7 * DAY))).toBe(1);
      expect(await t.store.transcript(roundId, "glm-5.2:cloud", "security")).toBeNull();
      expect(await t.store.transcript(roundId, "glm-5.2:cloud", "performance")).toEqual(
        recentMessages,
      );
      // Pruning transcripts never loses what resume and publishing need.
      expect(await t.store.lensReports(roundId)).toEqual([sampleLensReport()]);
    });
  });

  describe("transcripts' shared texts", () => {
    /** A round's lens sessions as the app records them: one opening, then each its own turns. */
    const opening: Message = {
      role: "user",
      content: `## The change\n${"@@ -1,3 +1,4 @@ export function query(name) — one line\n".repeat(400)}`,
    };
    const session = (lens: string): Message[] => [
      { role: "system", content: "You are Gadfly." },
      opening,
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "read_file", arguments: `{"path":"src/${lens}.ts"}` }],
      },
      {
        role: "tool",
        content: `${lens}: ${"export const x = 1;\n".repeat(300)}`,
        toolCallId: "c1",
      },
      { role: "assistant", content: `VERDICT: Minor issues (${lens})` },
    ];
    const lenses = ["security", "correctness", "performance", "error-handling"];

    it("stores an opening the round's transcripts share once and gives each transcript back whole", async () => {
      const roundId = await runningRound();
      for (const lens of lenses) await t.store.saveTranscript(roundId, "m1", lens, session(lens));

      for (const lens of lenses) {
        expect(await t.store.transcript(roundId, "m1", lens)).toEqual(session(lens));
      }
      const whole = lenses.reduce((sum, lens) => sum + JSON.stringify(session(lens)).length, 0);
      const stored = await t.fixture.storedTranscriptChars();
      // The opening (~24K characters) is kept once, not four times.
      expect(stored).toBeLessThan(whole - 2.5 * opening.content.length);
      expect(stored).toBeGreaterThan(whole - 3.5 * opening.content.length);
      // Saved again (a resumed lens), nothing is duplicated.
      await t.store.saveTranscript(roundId, "m1", "security", session("security"));
      expect(await t.fixture.storedTranscriptChars()).toBe(stored);
    });

    it("keeps another round's copy of the same text apart: pruning one round leaves the other whole", async () => {
      const first = await runningRound("aaa111", 7);
      await t.store.saveTranscript(first, "m1", "security", session("security"));
      const oneRound = await t.fixture.storedTranscriptChars();
      await endRound(t.store, first, { state: "completed" });
      await t.clock.advanceAndSettle(10 * DAY);
      const second = await runningRound("bbb222", 8);
      await t.store.saveTranscript(second, "m1", "security", session("security"));
      expect(await t.fixture.storedTranscriptChars()).toBe(2 * oneRound);

      expect(await t.store.pruneTranscripts(new Date(t.clock.now() - 7 * DAY))).toBe(1);

      expect(await t.store.transcript(first, "m1", "security")).toBeNull();
      expect(await t.store.transcript(second, "m1", "security")).toEqual(session("security"));
      // The finished round's texts went with its last transcript.
      expect(await t.fixture.storedTranscriptChars()).toBe(oneRound);
    });

    it("reads back whole a transcript a round saves after retention took its earlier ones", async () => {
      const roundId = await runningRound();
      await t.store.saveTranscript(roundId, "m1", "security", session("security"));
      await t.clock.advanceAndSettle(10 * DAY);
      expect(await t.store.pruneTranscripts(new Date(t.clock.now() - 7 * DAY))).toBe(1);
      // A lens of the same round saves its transcript after the prune: its opening is there.
      await t.store.saveTranscript(roundId, "m1", "correctness", session("correctness"));
      expect(await t.store.transcript(roundId, "m1", "correctness")).toEqual(
        session("correctness"),
      );
    });
  });

  describe("resume", () => {
    it("wakes rounds left queued or running after an unclean stop, and keeps their saved reports", async () => {
      const running = await runningRound("aaa111", 7);
      await t.store.saveLensReport(running, sampleLensReport());
      await t.store.saveLensReport(running, sampleLensReport({ lens: "correctness" }));
      await t.store.markLensRunning(running, "glm-5.2:cloud", "performance");
      await t.clock.advanceAndSettle(1000);
      const { round: queued } = await t.store.startRound({
        repo,
        installationId: 42,
        pullNumber: 9,
        headSha: "ddd444",
        trigger: { kind: "comment", deliveryId: "d-9", actor: "mona" },
      });
      const completed = await runningRound("aaa111", 8);
      await endRound(t.store, completed, { state: "completed" });
      // No close(): the handle is dropped as a crash would leave it.

      const reopened = await t.fixture.open(t.clock);
      const due = await reopened.dueRounds();
      expect(due.map((entry) => [entry.roundId, entry.state])).toEqual([
        [running, "running"],
        [queued.id, "queued"],
      ]);
      expect(await reopened.lensReports(running)).toEqual([
        sampleLensReport({ lens: "correctness" }),
        sampleLensReport(),
      ]);
      expect(await reopened.lensReports(queued.id)).toEqual([]);
      expect((await reopened.findRound(queued.id))?.trigger).toEqual({
        kind: "comment",
        deliveryId: "d-9",
        actor: "mona",
      });
      expect(await reopened.markLensRunning(running, "glm-5.2:cloud", "security")).toBe(false);
      expect(await reopened.markLensRunning(running, "glm-5.2:cloud", "performance")).toBe(true);
    });

    it("keeps a skipped lens skipped through a restart: resumed, it is not started", async () => {
      const roundId = await runningRound();
      const skipped = sampleLensReport({
        model: "claude-code/opus",
        provider: "claude-code",
        outcome: "skipped",
        verdict: null,
        statedVerdict: null,
        text: "",
        findings: [],
        failure: "agent CLIs do not review fork PRs here",
        turns: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
      });
      await t.store.saveLensReport(roundId, skipped);

      const reopened = await t.fixture.open(t.clock);
      expect(await reopened.lensReports(roundId)).toEqual([skipped]);
      expect(await reopened.markLensRunning(roundId, "claude-code/opus", "security")).toBe(false);
    });
  });
}
