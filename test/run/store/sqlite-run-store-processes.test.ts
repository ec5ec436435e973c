import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../../src/run/store/sqlite-run-store.js";
import { sampleLensReport } from "../../builders/lens-report.js";
import {
  type TemporaryStoreDirectory,
  temporaryStoreDirectory,
} from "../../helpers/temporary-store-directory.js";

const CHILD = fileURLToPath(new URL("./helpers/store-child.ts", import.meta.url));

interface Child {
  process: ChildProcessWithoutNullStreams;
  /** Resolves with everything the child printed once it exits, and how it exited. */
  exit: Promise<{ stdout: string; code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the child has printed `text`. */
  printed(text: string): Promise<void>;
}

function startChild(args: string[]): Child {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiting: { text: string; resolve: () => void }[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const wait of waiting) if (stdout.includes(wait.text)) wait.resolve();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exit = once(child, "exit").then(([code, signal]) => {
    if (code !== 0 && signal !== "SIGKILL") throw new Error(`child failed: ${stderr}`);
    return { stdout, code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  return {
    process: child,
    exit,
    printed: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) return resolve();
        waiting.push({ text, resolve });
        exit.then(() => reject(new Error(`child exited before printing ${text}`)), reject);
      }),
  };
}

let temporary: TemporaryStoreDirectory;

beforeEach(async () => {
  temporary = await temporaryStoreDirectory();
  // Created here, so the children race on writes rather than on creating the file.
  await (await SqliteRunStore.open(temporary.path)).close();
});

afterEach(async () => {
  await temporary.remove();
});

describe("SqliteRunStore across processes", () => {
  it("gives each delivery and each (PR, SHA) round to exactly one of two racing processes", async () => {
    const count = 60;
    const children = [
      startChild(["race", temporary.path, String(count)]),
      startChild(["race", temporary.path, String(count)]),
    ];
    await Promise.all(children.map((child) => child.printed("ready")));
    for (const child of children) child.process.stdin.write("go\n");
    const results = await Promise.all(
      children.map(async (child) => {
        const { stdout } = await child.exit;
        const last = stdout.trim().split("\n").at(-1) ?? "";
        return JSON.parse(last) as { newDeliveries: string[]; createdRounds: string[] };
      }),
    );

    const deliveries = results.flatMap((result) => result.newDeliveries);
    expect(deliveries.sort()).toEqual(
      Array.from({ length: count }, (_, index) => `d-${index}`).sort(),
    );
    const rounds = results.flatMap((result) => result.createdRounds);
    expect(rounds).toHaveLength(count);

    const store = temporary.track(await SqliteRunStore.open(temporary.path));
    const due = await store.dueRounds();
    expect(due.map((entry) => entry.roundId).sort()).toEqual([...rounds].sort());
    const pulls = await Promise.all(
      due.map(async (entry) => (await store.findRound(entry.roundId))?.pullNumber),
    );
    expect(new Set(pulls).size).toBe(count);
  });

  it("keeps what a killed process wrote and resumes its round without its finished lenses", async () => {
    const child = startChild(["crash", temporary.path]);
    const { stdout, signal } = await child.exit;
    expect(signal).toBe("SIGKILL");
    const roundId = stdout.trim();

    const store = temporary.track(await SqliteRunStore.open(temporary.path));
    expect((await store.dueRounds()).map((entry) => entry.roundId)).toEqual([roundId]);
    expect(await store.findRound(roundId)).toMatchObject({
      state: "running",
      attempts: 0,
      leaseEpoch: 1,
    });
    expect(await store.lensReports(roundId)).toEqual([
      sampleLensReport({ lens: "correctness" }),
      sampleLensReport(),
    ]);
    expect(await store.markLensRunning(roundId, "glm-5.2:cloud", "security")).toBe(false);
    expect(await store.markLensRunning(roundId, "glm-5.2:cloud", "performance")).toBe(true);
    expect(await store.transcript(roundId, "glm-5.2:cloud", "performance")).toHaveLength(1);
    // The next process ends the dead one's lease and takes the round over: the crash spent an attempt.
    expect(await store.expireLeases("next-process")).toBe(1);
    expect(
      await store.claimRound(roundId, { owner: "next-process", leaseMs: 60_000 }),
    ).toMatchObject({
      kind: "claimed",
      tookOver: true,
      round: { attempts: 1, leaseEpoch: 2 },
    });
  });
});
