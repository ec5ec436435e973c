import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import {
  postgresUnavailableReason,
  startTestPostgres,
  type TestPostgres,
} from "../helpers/postgres-server.js";
import {
  MODELS,
  type SpawnedApp,
  type Stack,
  spawnApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";

/*
 * The quiet period across processes: a receiver (GADFLY_ROLE=web) and a worker over one
 * PostgreSQL, `review.debounceSeconds: 5`. A burst of five pushes goes to the receiver, then
 * both processes are SIGKILLed inside the quiet period; a fresh worker runs the one round.
 */

const unavailable = postgresUnavailableReason();
const REPO = { owner: "octo-org", repo: "settle-pg" };
const DEBOUNCE_MS = 5_000;

describe.skipIf(unavailable !== null)(
  "push debounce with PostgreSQL: the wait lives in the queue",
  { timeout: 120_000 },
  () => {
    let server: TestPostgres;
    let databaseUrl = "";
    let stack: Stack;
    let router: ReviewRouter;
    const processes: SpawnedApp[] = [];

    const spawnRole = async (name: string, role: "web" | "worker") => {
      const app = await spawnApp(stack, {
        GADFLY_DATABASE_URL: databaseUrl,
        GADFLY_ROLE: role,
        GADFLY_DATA_DIR: join(stack.dir, `data-${name}`),
      });
      processes.push(app);
      await waitFor(async () => {
        if (app.process.exitCode !== null) throw new Error(`exited early:\n${app.output()}`);
        try {
          return (await fetch(`http://127.0.0.1:${app.port}/readyz`)).ok;
        } catch {
          return false;
        }
      }, 30_000);
      return app;
    };
    const kill = async (app: SpawnedApp) => {
      app.process.kill("SIGKILL");
      await app.exited;
    };
    const boardOf = (pr: PullRequestSnapshot) =>
      stack.github
        .comments(pr)
        .find(
          (comment) =>
            comment.user.login === "gadfly[bot]" && comment.body.startsWith(MARKERS.statusBoard),
        );

    beforeAll(async () => {
      server = await startTestPostgres();
      databaseUrl = await server.createDatabase();
      stack = await startStack({
        review: `  concurrency: 8\n  maxTurns: 6\n  timeoutSeconds: 60\n  debounceSeconds: ${DEBOUNCE_MS / 1000}`,
      });
      router = routeReviews(stack, { "[pg-burst]": {} });
      stack.github.addRepo({
        owner: REPO.owner,
        name: REPO.repo,
        ownerType: "Organization",
        files: { ".github/gadfly.yml": "lenses: [security]\n" },
      });
    }, 60_000);

    afterAll(async () => {
      for (const app of processes) if (app.process.exitCode === null) await kill(app);
      await stack?.close();
      await server?.stop();
    });

    it("reviews a burst once after every process died in the quiet period", async () => {
      const { github } = stack;
      const web = await spawnRole("web", "web");
      const worker = await spawnRole("worker-1", "worker");
      const webhookUrl = `http://127.0.0.1:${web.port}/api/github/webhooks`;

      let pr = github.addPullRequest({
        ...REPO,
        title: "Five quick pushes, then a crash [pg-burst]",
        files: [{ path: "src/step.js", base: "0\n", head: "1\n" }],
      });
      const heads = [pr.headSha];
      expect(
        (await deliver(webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET)).status,
      ).toBeLessThan(300);
      const firstPushAt = Date.now();
      for (let step = 2; step <= 5; step++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const before = pr.headSha;
        pr = github.pushCommit(pr, [{ path: "src/step.js", content: `${step}\n` }]);
        heads.push(pr.headSha);
        const response = await deliver(
          webhookUrl,
          pullRequestEvent("synchronize", pr, { before }),
          WEBHOOK_SECRET,
        );
        expect(response.status).toBeLessThan(300);
      }
      const last = pr.headSha;
      // The burst's later pushes took the first push's waiting board over without a write.
      await waitFor(
        () => (boardOf(pr)?.body ?? "").includes("Waiting for pushes to settle"),
        5_000,
      );
      // Every process dies before the quiet period ends: only the database remembers the round.
      expect(Date.now() - firstPushAt).toBeLessThan(DEBOUNCE_MS);
      await Promise.all([kill(web), kill(worker)]);
      expect(github.checkRuns(last)).toEqual([]);

      await spawnRole("worker-2", "worker");
      await waitFor(
        () => github.checkRuns(last).some((check) => check.status === "completed"),
        45_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));

      expect(github.checkRuns(last)).toHaveLength(1);
      expect(github.checkRuns(last)[0]?.conclusion).toBe("neutral");
      for (const head of heads.slice(0, -1)) expect(github.checkRuns(head)).toEqual([]);
      expect(router.perModel("[pg-burst]")).toEqual(new Map(MODELS.map((model) => [model.id, 1])));
      // What the economy benchmark counts from the store: rounds a worker took for the PR.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ taken: number; recorded: number }>(
          `SELECT count(*) FILTER (WHERE lease_epoch > 0)::int AS taken, count(*)::int AS recorded
             FROM rounds WHERE owner = $1 AND repo = $2 AND pull_number = $3`,
          [REPO.owner, REPO.repo, pr.number],
        );
        // Five pushes, five rounds recorded; the four superseded while waiting were never taken.
        expect(rows[0]).toEqual({ taken: 1, recorded: heads.length });
      } finally {
        await client.end();
      }
      expect(github.validationErrors).toEqual([]);
    });
  },
);
