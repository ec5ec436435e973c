import type { ApplicationFunction, Probot } from "probot";
import type { ZodType } from "zod";
import type { Clock } from "./agent/clock.js";
import type { LensDefinition } from "./agent/schema.js";
import type { AppConfig } from "./config/schema.js";
import { describeError } from "./github/describe-error.js";
import type { GitHubClient } from "./github/github-client.js";
import { handleCheckRunRerequested } from "./github/handle-check-run.js";
import { handleIssueComment } from "./github/handle-issue-comment.js";
import { handlePullRequest, PULL_REQUEST_EVENTS } from "./github/handle-pull-request.js";
import { resumeUnfinishedRounds } from "./github/resume-unfinished-rounds.js";
import type { RoundRegistry } from "./github/round-registry.js";
import type { RoundDependencies } from "./github/run-pull-request-round.js";
import type { StartOutcome } from "./github/start-round.js";
import {
  CheckRunPayload,
  IssueCommentPayload,
  PullRequestPayload,
  payloadProblem,
} from "./github/webhook-payloads.js";
import type { ReviewerLimiter } from "./run/reviewer-limiter.js";
import type { RunStore } from "./run/store/run-store.js";

const HANDLED = new Set<string>([
  ...PULL_REQUEST_EVENTS,
  "issue_comment.created",
  "check_run.rerequested",
]);

export interface GadflyAppOptions {
  config: AppConfig;
  env: Readonly<Record<string, string | undefined>>;
  store: RunStore;
  limiter: ReviewerLimiter;
  registry: RoundRegistry;
  lenses: readonly LensDefinition[];
  dataDir: string;
  clock: Clock;
  boardIntervalMs: number;
  /** Every round started or resumed, for tests and graceful shutdown. */
  onRound?: (done: Promise<void>) => void;
}

/**
 * The Probot app: wires the three triggers to the round runner and resumes
 * rounds a restart interrupted. Handlers log with the delivery id and never
 * let a failure escape as an unhandled rejection.
 */
export function gadflyApp(options: GadflyAppOptions): ApplicationFunction {
  return (app: Probot) => {
    let identity: Promise<{ appId: number; botLogin: string }> | null = null;
    const whoAmI = () => {
      identity ??= app.auth().then(async (octokit) => {
        const { data } = await octokit.rest.apps.getAuthenticated();
        if (data === null) throw new Error("GitHub did not say which app this is");
        return { appId: data.id, botLogin: `${data.slug ?? data.name}[bot]` };
      });
      identity.catch(() => {
        identity = null;
      });
      return identity;
    };
    const dependencies = async (log: RoundDependencies["log"]) => {
      const { appId, botLogin } = await whoAmI();
      const deps: RoundDependencies & { appId: number } = {
        config: options.config,
        env: options.env,
        store: options.store,
        limiter: options.limiter,
        registry: options.registry,
        lenses: options.lenses,
        dataDir: options.dataDir,
        clock: options.clock,
        boardIntervalMs: options.boardIntervalMs,
        botLogin,
        appId,
        log,
      };
      return deps;
    };
    const track = (outcome: StartOutcome, log: RoundDependencies["log"]) => {
      if (outcome.kind === "started") {
        options.onRound?.(outcome.done);
        log.info({ round: outcome.roundId }, "round started");
      } else if (outcome.kind === "joined") {
        log.info({ round: outcome.roundId }, "joined the round already running for this head");
      } else {
        log.info({ reason: outcome.reason }, "no round");
      }
    };
    const handle =
      <C extends { id: string; name: string; log: Probot["log"]; payload: unknown }>(
        schema: ZodType,
        run: (context: C, deps: Awaited<ReturnType<typeof dependencies>>) => Promise<StartOutcome>,
      ) =>
      async (context: C) => {
        const log = context.log.child({ delivery: context.id, event: context.name });
        const problem = payloadProblem(schema, context.payload);
        if (problem !== null) {
          log.warn({ problem }, "malformed payload ignored");
          return;
        }
        if (!options.registry.accepting) {
          // Fail the delivery (503) before it is recorded as seen: GitHub shows it failed,
          // and its redelivery after the restart starts the round instead of being a duplicate.
          log.warn({}, "shutting down: delivery refused");
          throw Object.assign(new Error("Gadfly is shutting down; redeliver after it restarts"), {
            status: 503,
          });
        }
        try {
          track(await run(context, await dependencies(log)), log);
        } catch (error) {
          log.error({ err: describeError(error) }, "webhook handler failed");
        }
      };

    app.on([...PULL_REQUEST_EVENTS], handle(PullRequestPayload, handlePullRequest));
    app.on("issue_comment.created", handle(IssueCommentPayload, handleIssueComment));
    app.on("check_run.rerequested", handle(CheckRunPayload, handleCheckRunRerequested));
    // Every delivery of an event we subscribe to leaves a line naming it, handled or not.
    app.onAny(async (context) => {
      const payload = context.payload as { action?: unknown };
      const key = `${context.name}.${String(payload.action)}`;
      if (!HANDLED.has(key)) app.log.info({ delivery: context.id, event: key }, "event ignored");
    });

    void (async () => {
      try {
        const deps = await dependencies(app.log.child({ phase: "resume" }));
        const resumed = await resumeUnfinishedRounds(
          async (installationId) => (await app.auth(installationId)) as GitHubClient,
          deps,
        );
        for (const done of resumed) options.onRound?.(done);
      } catch (error) {
        app.log.error({ err: describeError(error) }, "could not resume unfinished rounds");
      }
    })();
  };
}
