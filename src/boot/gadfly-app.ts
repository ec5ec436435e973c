import type { ApplicationFunction, Context, Probot } from "probot";
import type { ZodType } from "zod";
import type {
  GitHubClient,
  RoundDependencies,
  StartOutcome,
  TriggerDecision,
} from "../github/index.js";
import {
  CheckRunPayload,
  describeError,
  handleCheckRunRerequested,
  handleIssueComment,
  handlePullRequest,
  handleReviewComment,
  handleReviewThread,
  IssueCommentPayload,
  PermissionCache,
  PULL_REQUEST_EVENTS,
  PullRequestPayload,
  payloadProblem,
  ReviewCommentPayload,
  ReviewThreadPayload,
} from "../github/index.js";
import type { WorkQueue } from "../run/queue/index.js";
import { InMemoryWorkQueue } from "../run/queue/index.js";
import type { OperationsHandler } from "../server/index.js";
import { appIdentity } from "./app-identity.js";
import { IN_PROCESS_ROUNDS } from "./read-scale-settings.js";
import { type RoundServices, roundDependencies } from "./round-dependencies.js";
import { type RoundWorkers, startRoundWorkers } from "./start-round-workers.js";

const HANDLED = new Set<string>([
  ...PULL_REQUEST_EVENTS,
  "issue_comment.created",
  "check_run.rerequested",
  "pull_request_review_comment.created",
  "pull_request_review_thread.resolved",
]);

export interface WorkerSettings {
  concurrency: number;
  leaseMs: number;
  singleProcess: boolean;
  /** The workers are taking rounds: how to stop their sweeper at shutdown. */
  onStarted?: (workers: RoundWorkers) => void;
}

/** The round services of the process (the queue optional), and how the app runs them. */
export interface GadflyAppOptions
  extends Omit<RoundServices, "queue" | "secrets" | "agentIsolation" | "permissions"> {
  /** The permission API's answers, shared by handlers and rounds; one of the app's own by default. */
  permissions?: RoundServices["permissions"];
  /** Every round run in this process, settled when it ends: for tests and graceful shutdown. */
  onRound?: (done: Promise<void>) => void;
  /** Where rounds are queued; by default a queue in this process, worked here. */
  queue?: WorkQueue;
  /**
   * Rounds this process runs at once, the lease they are held by, and whether this is the only
   * process on its store (SQLite); or null for a receiver that only queues them (GADFLY_ROLE=web).
   * Default: IN_PROCESS_ROUNDS, a minute's lease, the only process.
   */
  workers?: WorkerSettings | null;
  /** `/healthz`, `/readyz` and `/metrics`, served on the app's port. */
  operations?: OperationsHandler;
}

/**
 * The Probot app: wires the three triggers to the queue of rounds, serves the
 * operations endpoints, and (unless it only receives) works the queue and
 * queues again the rounds a restart interrupted. Handlers log with the
 * delivery id and never let a failure escape as an unhandled rejection.
 */
export function gadflyApp(options: GadflyAppOptions): ApplicationFunction {
  const queue = options.queue ?? new InMemoryWorkQueue();
  const workers: WorkerSettings | null =
    options.workers === undefined
      ? { concurrency: IN_PROCESS_ROUNDS, leaseMs: 60_000, singleProcess: true }
      : options.workers;
  return (app: Probot, appOptions) => {
    if (options.operations !== undefined) appOptions?.addHandler(options.operations);
    const whoAmI = appIdentity(async () => (await app.auth()) as GitHubClient);
    const { onRound: _onRound, workers: _workers, operations: _operations, ...shared } = options;
    const permissions = options.permissions ?? new PermissionCache<TriggerDecision>(options.clock);
    const services: RoundServices = { ...shared, queue, permissions };
    const dependencies = async (log: RoundDependencies["log"]) =>
      roundDependencies(services, await whoAmI(), log);
    const track = (outcome: StartOutcome, log: RoundDependencies["log"]) => {
      if (outcome.kind === "started") {
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
          // Fail the delivery (500): GitHub shows it failed, and the handler forgot it as
          // seen, so its redelivery runs again instead of being skipped as a duplicate.
          throw Object.assign(new Error("webhook handler failed; redeliver to retry"), {
            status: 500,
          });
        }
      };

    app.on([...PULL_REQUEST_EVENTS], handle(PullRequestPayload, handlePullRequest));
    // One per app: a burst of trigger comments asks the permission API once per person.
    app.on(
      "issue_comment.created",
      handle(IssueCommentPayload, (context: Context<"issue_comment.created">, deps) =>
        handleIssueComment(context, deps, permissions),
      ),
    );
    app.on("check_run.rerequested", handle(CheckRunPayload, handleCheckRunRerequested));
    // Feedback on findings: commands replied on our threads, threads resolved without a fix.
    app.on(
      "pull_request_review_comment.created",
      handle(
        ReviewCommentPayload,
        (context: Context<"pull_request_review_comment.created">, deps) =>
          handleReviewComment(context, deps, permissions),
      ),
    );
    app.on(
      "pull_request_review_thread.resolved",
      handle(ReviewThreadPayload, (context: Context<"pull_request_review_thread.resolved">, deps) =>
        handleReviewThread(context, deps, permissions),
      ),
    );
    // Every delivery of an event we subscribe to leaves a line naming it, handled or not.
    app.onAny(async (context) => {
      const payload = context.payload as { action?: unknown };
      const key = `${context.name}.${String(payload.action)}`;
      if (!HANDLED.has(key)) app.log.info({ delivery: context.id, event: key }, "event ignored");
    });

    // Asked at once: a wrong app id or key shows in the log at start, not at the first round.
    whoAmI().catch((error: unknown) =>
      app.log.error({ err: describeError(error) }, "could not authenticate as the GitHub App"),
    );
    if (workers === null) return;
    const workerLog = app.log.child({ phase: "worker" });
    startRoundWorkers({
      queue,
      concurrency: workers.concurrency,
      store: options.store,
      registry: options.registry,
      installationClient: async (installationId) =>
        (await app.auth(installationId)) as GitHubClient,
      dependencies: () => dependencies(workerLog),
      leaseMs: workers.leaseMs,
      singleProcess: workers.singleProcess,
      clock: options.clock,
      onError: (error, context) =>
        workerLog.warn({ err: describeError(error), context }, "round worker error"),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      ...(options.onRound === undefined ? {} : { onRound: options.onRound }),
    }).then(
      (started) => {
        workers.onStarted?.(started);
        if (started.woken > 0) workerLog.info({ rounds: started.woken }, "due rounds woken");
      },
      (error: unknown) =>
        workerLog.error({ err: describeError(error) }, "could not wake the due rounds"),
    );
  };
}
