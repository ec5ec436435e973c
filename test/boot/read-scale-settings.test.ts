import { describe, expect, it } from "vitest";
import {
  DEFAULT_GITHUB_WRITES,
  IN_PROCESS_ROUNDS,
  ROUNDS_PER_WORKER,
  readScaleSettings,
} from "../../src/boot/read-scale-settings.js";
import { ConfigError } from "../../src/config/config-error.js";

const URL = "postgres://gadfly@127.0.0.1:5432/gadfly";

function problem(env: Record<string, string>, role?: "web" | "worker" | "all"): string {
  try {
    readScaleSettings(env, role);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("no error");
}

describe("readScaleSettings", () => {
  it("defaults to one process doing everything on SQLite, all rounds at once", () => {
    expect(readScaleSettings({})).toEqual({
      role: "all",
      databaseUrl: null,
      roundsPerProcess: IN_PROCESS_ROUNDS,
      visibilityTimeoutMs: 60_000,
      boardIntervalMs: 2_000,
      githubWrites: { perMinute: 60, burst: 10, perHour: 500, maxWaitMs: 300_000 },
    });
  });

  it("with PostgreSQL, holds few rounds per worker so they spread over the workers", () => {
    expect(readScaleSettings({ GADFLY_DATABASE_URL: ` ${URL} `, GADFLY_ROLE: "worker" })).toEqual({
      role: "worker",
      databaseUrl: URL,
      roundsPerProcess: ROUNDS_PER_WORKER,
      visibilityTimeoutMs: 60_000,
      boardIntervalMs: 2_000,
      githubWrites: DEFAULT_GITHUB_WRITES,
    });
  });

  it("reads the worker concurrency and the visibility timeout", () => {
    const settings = readScaleSettings({
      GADFLY_DATABASE_URL: URL,
      GADFLY_ROLE: "web",
      GADFLY_WORKER_CONCURRENCY: "5",
      GADFLY_VISIBILITY_TIMEOUT_SECONDS: "30",
      GADFLY_BOARD_INTERVAL_MS: "500",
    });
    expect(settings).toMatchObject({
      role: "web",
      roundsPerProcess: 5,
      visibilityTimeoutMs: 30_000,
      boardIntervalMs: 500,
    });
  });

  it("reads GitHub's write budget, and turns it off at a rate of 0", () => {
    expect(
      readScaleSettings({
        GADFLY_GITHUB_WRITES_PER_MINUTE: "120",
        GADFLY_GITHUB_WRITE_BURST: "4",
        GADFLY_GITHUB_WRITES_PER_HOUR: "750",
        GADFLY_GITHUB_WRITE_WAIT_SECONDS: "30",
      }).githubWrites,
    ).toEqual({ perMinute: 120, burst: 4, perHour: 750, maxWaitMs: 30_000 });
    expect(readScaleSettings({ GADFLY_GITHUB_WRITES_PER_MINUTE: "0" }).githubWrites).toBeNull();
    expect(problem({ GADFLY_GITHUB_WRITE_BURST: "0", GADFLY_GITHUB_WRITES_PER_MINUTE: "-1" })).toBe(
      "environment: GADFLY_GITHUB_WRITES_PER_MINUTE: must be a whole number from 0 to 100000; " +
        "GADFLY_GITHUB_WRITE_BURST: must be a whole number from 1 to 10000",
    );
  });

  it("reads GitHub's hourly limit: 0 leaves the minute's alone, a bad value is named", () => {
    expect(readScaleSettings({ GADFLY_GITHUB_WRITES_PER_HOUR: "0" }).githubWrites).toEqual({
      ...DEFAULT_GITHUB_WRITES,
      perHour: null,
    });
    expect(problem({ GADFLY_GITHUB_WRITES_PER_HOUR: "500/h" })).toBe(
      "environment: GADFLY_GITHUB_WRITES_PER_HOUR: must be a whole number from 0 to 1000000",
    );
    // One an hour cannot be both the burst and the refill.
    expect(problem({ GADFLY_GITHUB_WRITES_PER_HOUR: "1" })).toBe(
      "environment: GADFLY_GITHUB_WRITES_PER_HOUR: must be 0 (no hourly limit) or a whole " +
        "number from 2 to 1000000",
    );
  });

  it("a command's role wins over GADFLY_ROLE", () => {
    expect(readScaleSettings({ GADFLY_DATABASE_URL: URL, GADFLY_ROLE: "web" }, "worker").role).toBe(
      "worker",
    );
  });

  it("refuses the web and worker roles on SQLite, naming what to set", () => {
    expect(problem({ GADFLY_ROLE: "web" })).toMatch(
      /^environment: GADFLY_ROLE: the web role needs GADFLY_DATABASE_URL \(PostgreSQL\)/,
    );
    expect(problem({}, "worker")).toMatch(
      /^environment: GADFLY_DATABASE_URL: the worker role needs GADFLY_DATABASE_URL/,
    );
  });

  it("names every bad variable at once", () => {
    const message = problem({
      GADFLY_ROLE: "reviewer",
      GADFLY_WORKER_CONCURRENCY: "0",
      GADFLY_VISIBILITY_TIMEOUT_SECONDS: "soon",
      GADFLY_BOARD_INTERVAL_MS: "2s",
    });
    expect(message).toContain("GADFLY_ROLE: must be web, worker or all");
    expect(message).toContain("GADFLY_WORKER_CONCURRENCY: must be a whole number from 1 to 1000");
    expect(message).toContain("GADFLY_VISIBILITY_TIMEOUT_SECONDS: must be a whole number from 3");
    expect(message).toContain("GADFLY_BOARD_INTERVAL_MS: must be a whole number from 100");
  });
});
