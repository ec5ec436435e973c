import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteRunStore } from "../../src/run/store/sqlite-run-store.js";
import { FakeClock } from "../helpers/fake-clock.js";
import {
  EXPECTED_COST,
  EXPECTED_LENSES,
  EXPECTED_MODELS,
} from "../scoreboard/helpers/scoreboard-expected.js";
import { DAY, seedScoreboardStore } from "../scoreboard/helpers/seed-scoreboard-store.js";
import { runGadfly } from "./run-gadfly.js";

// The app's config as an operator writes it: the prices of the seeded models (gamma has none).
const CONFIG = `providers:
  - name: fake
    type: openai
    baseURL: http://127.0.0.1:9/v1
models:
  - { id: alpha, provider: fake, price: { input: 1, cachedInput: 0.5, output: 2 } }
  - { id: beta, provider: fake, price: { input: 0.5, output: 4 } }
  - { id: gamma, provider: fake }
`;

let directory = "";
const env = () => ({
  PATH: process.env.PATH ?? "",
  HOME: directory,
  GADFLY_FROM_SOURCE: "1",
  GADFLY_DATA_DIR: "state",
});

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "gadfly-stats-"));
  await writeFile(join(directory, "gadfly.config.yml"), CONFIG);
  // `gadfly stats` scores up to the real now: the history ends three days ago, the old
  // round lies 45 days back (outside the default 30-day window).
  const clock = new FakeClock(Date.now() - 45 * DAY);
  const store = await SqliteRunStore.open(join(directory, "state", "gadfly.sqlite"), clock);
  await seedScoreboardStore(store, clock);
  await store.close();
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("gadfly stats", () => {
  it("--format json: every model's and lens's figures, from the store in GADFLY_DATA_DIR", async () => {
    const run = await runGadfly(["stats", "--format", "json"], { cwd: directory, env: env() });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const board = JSON.parse(run.stdout);
    expect(board).toMatchObject({ rounds: 4, completedRounds: 3, pullRequests: 3, findings: 5 });
    for (const [id, expected] of Object.entries(EXPECTED_MODELS)) {
      expect(
        board.models.find((line: { id: string }) => line.id === id),
        id,
      ).toMatchObject(expected);
    }
    for (const [id, expected] of Object.entries(EXPECTED_LENSES)) {
      expect(
        board.lenses.find((line: { id: string }) => line.id === id),
        id,
      ).toMatchObject(expected);
    }
    expect(board.models[0].costUsd).toBeCloseTo(EXPECTED_COST.alpha, 9);
  });

  it("text: one aligned row per model with its rates, cost per useful finding, time and failures", async () => {
    const run = await runGadfly(["stats"], { cwd: directory, env: env() });
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[1]).toBe(
      "4 rounds (3 completed) · 3 pull requests · 5 findings · cost unknown (a model has no price)",
    );
    const row = (id: string) => lines.find((line) => line.startsWith(`${id} `))?.split(/\s{2,}/);
    expect(lines.find((line) => line.startsWith("model "))?.split(/\s{2,}/)).toEqual([
      "model",
      "findings",
      "agreed",
      "confirmed",
      "refuted",
      "fixed",
      "dismissed",
      "up/down",
      "tokens",
      "cost",
      "tok/useful",
      "$/useful",
      "median",
      "failed",
    ]);
    expect(row("alpha")).toEqual([
      "alpha",
      "4",
      "50%",
      "1/1",
      "0",
      "50%",
      "25%",
      "2/0",
      "2.55M",
      "$2.69",
      "851.0k",
      "$0.895",
      "12.0 s",
      "0% (0/5)",
    ]);
    expect(row("beta")).toEqual([
      "beta",
      "1",
      "100%",
      "0/0",
      "0",
      "0%",
      "0%",
      "2/0",
      "1.98M",
      "$1.91",
      "1.98M",
      "$1.91",
      "17.0 s",
      "33% (1/3)",
    ]);
    expect(row("gamma")).toEqual([
      "gamma",
      "1",
      "0%",
      "0/1",
      "1",
      "0%",
      "100%",
      "0/1",
      "16.5k",
      "—",
      "—",
      "—",
      "40.0 s",
      "50% (1/2)",
    ]);
  });

  it("--repo and --format csv: one repository's rows, every figure in a column", async () => {
    const run = await runGadfly(
      ["stats", "--repo", "acme/gizmo", "--format", "csv", "--since", "2w"],
      {
        cwd: directory,
        env: env(),
      },
    );
    expect(run.code).toBe(0);
    const [header, ...rows] = run.stdout.trimEnd().split("\r\n");
    const columns = header?.split(",") ?? [];
    expect(columns.slice(0, 4)).toEqual(["kind", "id", "lens_runs", "failed"]);
    expect(rows).toHaveLength(2);
    const model = Object.fromEntries(
      rows[0]?.split(",").map((cell, i) => [columns[i], cell]) ?? [],
    );
    expect(model).toMatchObject({
      kind: "model",
      id: "alpha",
      findings: "1",
      dismissed: "1",
      dismissed_rate: "1",
      useful: "0",
      input_tokens: "100000",
      cost_usd: "0.12",
      cost_per_useful: "",
      repository: "acme/gizmo",
    });
    expect(rows[1]?.startsWith("lens,security,1,0,0,16000,1,1,")).toBe(true);
  });

  it("refuses a window it cannot read, in one line", async () => {
    const run = await runGadfly(["stats", "--since", "30 days"], { cwd: directory, env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'gadfly: --since must be hours, days or weeks such as 12h, 30d or 2w (at most 366 days); got "30 days"\n',
    );
  });

  it("refuses a repository that is not owner/name", async () => {
    const run = await runGadfly(["stats", "--repo", "../etc"], { cwd: directory, env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('gadfly: --repo must be owner/name; got "../etc"\n');
  });

  it("on a fresh install, says there is nothing to score yet and where the store will be, and creates none", async () => {
    const run = await runGadfly(["stats"], {
      cwd: directory,
      env: { ...env(), GADFLY_DATA_DIR: "elsewhere" },
    });
    expect(run).toEqual({
      code: 0,
      stdout: "",
      stderr: `gadfly: no rounds to score yet: the app's store (${join(directory, "elsewhere", "gadfly.sqlite")}) is created when \`npm start\` first runs in this directory; to read another one, run gadfly stats where the app runs, or set GADFLY_DATA_DIR or GADFLY_DATABASE_URL as the app has them\n`,
    });
    expect(existsSync(join(directory, "elsewhere"))).toBe(false);
  });
});
