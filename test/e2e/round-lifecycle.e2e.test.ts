import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import { publishedArtifacts } from "../faults/published-artifacts.js";
import { deferred } from "../helpers/deferred.js";
import { appLogs } from "./app-logs.js";
import {
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { type ReviewRouter, routeReviews } from "./route-reviews.js";
import { type Backend, STORE_BACKENDS } from "./store-backends.js";

/*
 * A round's whole life through the real app, on each store: deploys during a round, deliveries
 * out of order, GitHub's 502 after creating, a store that fails mid-round, PostgreSQL restarted
 * under a round. Each scenario checks what GitHub shows (one board, consensus, review and check
 * per head) and what the store says.
 */

const leak: LensFinding = {
  file: "src/session.js",
  line: 2,
  endLine: 2,
  severity: "high",
  confidence: "high",
  title: "The session secret is logged in plain text",
  body: "`console.log(secret)` writes the session secret to the logs.",
};

describe.each(STORE_BACKENDS)("a round's life (%s store)", { timeout: 120_000 }, (label, open) => {
  let backend: Backend;
  let stack: Stack;
  let router: ReviewRouter;
  /** While set, the correctness lens of every model hangs (until aborted). */
  let correctnessHangs = true;
  /** Held correctness calls wait for this; `releaseCorrectness` lets every one of them answer. */
  let correctnessGate = deferred();
  const holdCorrectness = () => {
    correctnessHangs = true;
    correctnessGate = deferred();
  };
  const releaseCorrectness = () => {
    correctnessHangs = false;
    correctnessGate.resolve();
  };
  const apps: RunningApp[] = [];

  const start = async (env: Record<string, string>) => {
    const app = await startApp(stack, env);
    apps.push(app);
    return app;
  };
  const openPullRequest = (tag: string) =>
    stack.github.addPullRequest({
      owner: "octo-org",
      repo: "lifecycle",
      title: `Sessions ${tag}`,
      files: [
        {
          path: "src/session.js",
          base: `export const secret = load(); // ${tag}\n`,
          head: `export const secret = load(); // ${tag}\nconsole.log(secret);\n`,
        },
      ],
    });
  const rounds = (dataDir: string, pr: PullRequestSnapshot) =>
    backend.query<{
      head_sha: string;
      state: string;
      attempts: number;
      finished_at: number | null;
    }>(
      dataDir,
      "SELECT head_sha, state, attempts, finished_at FROM rounds WHERE pull_number = $1 ORDER BY round_number",
      pr.number,
    );
  const completedOnce = async (dataDir: string, pr: PullRequestSnapshot) => {
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      45_000,
    );
    await waitFor(() => publishedArtifacts(stack.github, pr).consensus.length === 1, 10_000);
    // The store records the end just after the check and the board's last edit.
    await waitFor(async () => (await rounds(dataDir, pr)).at(-1)?.state === "completed", 10_000);
    const published = publishedArtifacts(stack.github, pr);
    expect(published.boards).toHaveLength(1);
    expect(published.consensus).toHaveLength(1);
    expect(published.reviews).toHaveLength(1);
    expect(published.checks.map((check) => check.conclusion)).toEqual(["neutral"]);
    return published;
  };

  beforeAll(async () => {
    backend = await open();
    stack = await startStack({ review: "  concurrency: 8\n  maxTurns: 4\n  timeoutSeconds: 60" });
    const hanging = {
      readPath: "src/session.js",
      findings: (_model: string, lens: string) => (lens === "security" ? [leak] : []),
      // Held until released (a process that dies meanwhile aborts its calls itself).
      intercept: async (request: { lens: string | undefined }) => {
        if (request.lens === "correctness" && correctnessHangs) await correctnessGate.promise;
        return undefined;
      },
    };
    router = routeReviews(stack, {
      "[deploys]": hanging,
      "[restart-db]": hanging,
      "[order]": {
        readPath: "src/session.js",
        findings: (_model, lens) => (lens === "security" ? [leak] : []),
      },
      "[502]": {
        readPath: "src/session.js",
        findings: (_model, lens) => (lens === "security" ? [leak] : []),
      },
      "[store-fails]": {
        readPath: "src/session.js",
        // Every call takes a while, so lenses are still at work when one lens's save fails.
        intercept: async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return undefined;
        },
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "lifecycle",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security, correctness]\n" },
    });
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.stop("SIGKILL");
    await stack?.close();
    await backend?.close();
  });

  it("completes once, no attempt spent, after three deploys (SIGTERM) during the round", async () => {
    const dataDir = join(stack.dir, `data-deploys-${backend.name}`);
    const env = await backend.env(dataDir);
    const pr = openPullRequest("[deploys]");
    holdCorrectness();
    let app = await start(env);
    const correctnessCalls = () =>
      [...router.calls("[deploys]")]
        .filter(([key]) => key.endsWith("/correctness"))
        .reduce((sum, [, count]) => sum + count, 0);
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    for (let deploy = 1; deploy <= 3; deploy++) {
      // Mid-round: a correctness lens is in flight (and hangs) on this process.
      const seen = correctnessCalls();
      await waitFor(() => correctnessCalls() > seen, 30_000);
      expect(await app.stop("SIGTERM")).toBe(0);
      const [round] = await rounds(dataDir, pr);
      // Handed back: queued, due at once, nothing spent.
      expect(round).toMatchObject({ state: "queued", attempts: 0 });
      if (deploy === 3) releaseCorrectness();
      app = await start(env);
    }
    await completedOnce(dataDir, pr);
    expect(await rounds(dataDir, pr)).toMatchObject([{ state: "completed", attempts: 0 }]);
    await app.stop();
  });

  it("reviews the newer head when two pushes' deliveries arrive in reverse order; the older starts nothing", async () => {
    const dataDir = join(stack.dir, `data-order-${backend.name}`);
    const app = await start(await backend.env(dataDir));
    const older = openPullRequest("[order]");
    const newer = stack.github.pushCommit(older, [
      {
        path: "src/session.js",
        content: "export const secret = load(); // v2\nconsole.log(secret);\n",
      },
    ]);
    expect(
      (
        await deliver(
          app.webhookUrl,
          pullRequestEvent("synchronize", newer, { before: older.headSha }),
          WEBHOOK_SECRET,
        )
      ).status,
    ).toBeLessThan(300);
    expect(
      (await deliver(app.webhookUrl, pullRequestEvent("opened", older), WEBHOOK_SECRET)).status,
    ).toBeLessThan(300);
    await completedOnce(dataDir, newer);
    expect(stack.github.checkRuns(older.headSha)).toEqual([]);
    expect(await rounds(dataDir, newer)).toMatchObject([
      { head_sha: newer.headSha, state: "completed" },
    ]);
    const late = appLogs(app.output()).filter((line) =>
      String(line.reason ?? "").startsWith("late delivery"),
    );
    expect(late).toHaveLength(1);
    await app.stop();
  });

  it("posts one board, consensus, review and check when GitHub answers 502 after creating each", async () => {
    const dataDir = join(stack.dir, `data-502-${backend.name}`);
    const app = await start(await backend.env(dataDir));
    const pr = openPullRequest("[502]");
    const comments = `/repos/octo-org/lifecycle/issues/${pr.number}/comments`;
    // The board's and then the consensus comment's first POST, the review's and the check's.
    stack.github.failAfterDoingNext("POST", comments, 502);
    stack.github.failAfterDoingNext("POST", comments, 502);
    stack.github.failAfterDoingNext(
      "POST",
      `/repos/octo-org/lifecycle/pulls/${pr.number}/reviews`,
      502,
    );
    stack.github.failAfterDoingNext("POST", "/repos/octo-org/lifecycle/check-runs", 502);
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    const published = await completedOnce(dataDir, pr);
    expect(stack.github.pendingFaults).toBe(0);
    // Each sent once: answered 502, found, adopted, never sent again.
    expect(published.commentPosts).toBe(2);
    expect(published.reviewPosts).toBe(1);
    expect(
      stack.github
        .requests({ method: "POST", path: "/repos/octo-org/lifecycle/check-runs" })
        .filter((request) => (request.body as { head_sha?: string }).head_sha === pr.headSha),
    ).toHaveLength(1);
    expect(await rounds(dataDir, pr)).toMatchObject([{ state: "completed" }]);
    await app.stop();
  });

  it("calls no model after the round's end when saving a lens's report fails mid-round", async () => {
    const dataDir = join(stack.dir, `data-store-${backend.name}`);
    const app = await start(await backend.env(dataDir));
    // The security lens's report cannot be saved: the round fails while the others still work.
    await backend.exec(
      dataDir,
      backend.name === "sqlite"
        ? `CREATE TRIGGER refuse_security_report BEFORE UPDATE ON lens_runs
               WHEN NEW.lens = 'security' AND NEW.state <> 'running'
               BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;
             CREATE TRIGGER refuse_security_insert BEFORE INSERT ON lens_runs
               WHEN NEW.lens = 'security' AND NEW.state <> 'running'
               BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;`
        : `CREATE FUNCTION refuse_security_report() RETURNS trigger AS $$
             BEGIN
               IF NEW.lens = 'security' AND NEW.state <> 'running' THEN
                 RAISE EXCEPTION 'could not write block: No space left on device';
               END IF;
               RETURN NEW;
             END $$ LANGUAGE plpgsql;
             CREATE TRIGGER refuse_security_report BEFORE INSERT OR UPDATE ON lens_runs
               FOR EACH ROW EXECUTE FUNCTION refuse_security_report();`,
    );
    const pr = openPullRequest("[store-fails]");
    const before = Date.now();
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(async () => (await rounds(dataDir, pr))[0]?.state === "failed", 45_000);
    const [round] = await rounds(dataDir, pr);
    const endedAt = Number(round?.finished_at);
    // Whatever was in flight was aborted; a moment later, still nothing new arrives.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const calls = [...stack.ollama.requests, ...stack.openai.requests].filter(
      (request) =>
        request.receivedAt >= before && JSON.stringify(request.messages).includes("[store-fails]"),
    );
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((request) => request.receivedAt > endedAt)).toEqual([]);
    expect(stack.github.checkRuns(pr.headSha)[0]).toMatchObject({
      status: "completed",
      conclusion: "neutral",
    });
    await app.stop();
  });

  it.skipIf(label !== "PostgreSQL")(
    "survives PostgreSQL ending every connection mid-round: no uncaught error, the round completes once",
    async () => {
      const dataDir = join(stack.dir, "data-restart-db");
      const env = await backend.env(dataDir);
      const pr = openPullRequest("[restart-db]");
      holdCorrectness();
      const app = await start(env);
      await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
      await waitFor(
        () => [...router.calls("[restart-db]")].some(([key]) => key.endsWith("/correctness")),
        30_000,
      );
      // What a restart or a failover does to every session of the app's database.
      const [terminated] = await backend.query<{ count: number }>(
        dataDir,
        `SELECT count(pg_terminate_backend(pid))::int AS count FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      expect(terminated?.count).toBeGreaterThan(0);
      releaseCorrectness();
      await completedOnce(dataDir, pr).catch((error: unknown) => {
        const lines = app.output().split("\n");
        console.error(
          lines
            .filter((line) => !line.includes('"level":30'))
            .slice(-40)
            .join("\n"),
        );
        throw error;
      });
      expect(app.process.exitCode).toBeNull();
      expect(app.output()).not.toMatch(
        /uncaught|unhandled|terminating connection due to administrator command\n\s+at /i,
      );
      expect(await rounds(dataDir, pr)).toMatchObject([{ state: "completed" }]);
      await app.stop();
    },
  );
});
