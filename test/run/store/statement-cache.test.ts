import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LensReport } from "../../../src/agent/index.js";
import { SqliteRunStore } from "../../../src/run/store/sqlite-run-store.js";
import { StatementCache } from "../../../src/run/store/statement-cache.js";
import { temporaryStoreDirectory } from "../../helpers/temporary-store-directory.js";
import { startRunningRound } from "./helpers/start-running-round.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("StatementCache", () => {
  it("compiles each SQL text once and gives back the same statement, which runs as prepared", () => {
    const database = new BetterSqlite3(":memory:");
    try {
      database.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
      const prepare = vi.spyOn(database, "prepare");
      const statements = new StatementCache(database);
      const insert = "INSERT INTO t (k, v) VALUES (?, ?)";
      for (let index = 0; index < 5; index += 1) {
        statements.prepare<[string, number]>(insert).run(`k${index}`, index);
      }
      const select = "SELECT v FROM t WHERE k = ?";
      expect(statements.prepare<[string], { v: number }>(select).get("k3")).toEqual({ v: 3 });
      expect(statements.prepare<[string], { v: number }>(select).get("k4")).toEqual({ v: 4 });
      expect(statements.prepare(insert)).toBe(statements.prepare(insert));
      expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([insert, select]);
    } finally {
      database.close();
    }
  });
});

describe("SqliteRunStore statements", () => {
  it("compiles nothing more for a round's second and later lens runs, transcripts and publish steps", async () => {
    const temporary = await temporaryStoreDirectory();
    try {
      const store = temporary.track(await SqliteRunStore.open(temporary.path));
      const roundId = await startRunningRound(store, 1);
      const lens = async (name: string) => {
        await store.markLensRunning(roundId, "m", name);
        await store.saveTranscript(roundId, "m", name, [{ role: "user", content: name }]);
        await store.saveLensReport(roundId, report(name));
        await store.markPublishStep(roundId, `step-${name}`, "intent");
        await store.markPublishStep(roundId, `step-${name}`, "done");
      };
      await lens("first");
      const prepare = vi.spyOn(BetterSqlite3.prototype, "prepare");
      for (const name of ["security", "tests", "style", "docs"]) await lens(name);
      expect(prepare).not.toHaveBeenCalled();
      expect(await store.transcript(roundId, "m", "docs")).toEqual([
        { role: "user", content: "docs" },
      ]);
      expect((await store.lensReports(roundId)).map((saved) => saved.lens)).toEqual([
        "docs",
        "first",
        "security",
        "style",
        "tests",
      ]);
      expect(await store.publishSteps(roundId)).toMatchObject({ "step-docs": "done" });
    } finally {
      await temporary.remove();
    }
  });
});

function report(lens: string): LensReport {
  return {
    model: "m",
    provider: "p",
    lens,
    outcome: "done",
    verdict: "No material issues found",
    statedVerdict: "No material issues found",
    text: "fine",
    findings: [],
    dropped: [],
    failure: null,
    turns: 1,
    usage: { inputTokens: 10, outputTokens: 2 },
    recovered: false,
  };
}
