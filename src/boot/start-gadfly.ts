import type { Server } from "node:http";
import { resolve } from "node:path";
import { createProbot, type Logger, run } from "probot";
import { loadLenses } from "../agent/index.js";
import type { AppConfig } from "../config/index.js";
import { ConfigError, loadAppConfig, requireWebhookSecret } from "../config/index.js";
import {
  type DoctorInputs,
  formatDoctorTable,
  redactDoctorReport,
  runDoctor,
} from "../doctor/index.js";
import type { GitHubClient, TriggerDecision } from "../github/index.js";
import { ConventionCache, describeError, PermissionCache, SeenReactions } from "../github/index.js";
import { createNodeFetch } from "../http/index.js";
import {
  createRedactor,
  limitedModelFactory,
  modelCallIdleTimeoutMs,
  providerCap,
  redactSecrets,
} from "../llm/index.js";
import {
  collectSecrets,
  createReviewerLimiter,
  RoundRegistry,
  retentionDays,
  startRetention,
} from "../run/index.js";
import type { RunStore } from "../run/store/index.js";
import { openRunStore } from "../run/store/index.js";
import {
  type AgentIsolation,
  detectIsolation,
  isolationNotice,
  NO_ISOLATION,
  restrictToOwner,
} from "../sandbox/index.js";
import {
  createGadflyMetrics,
  createOperationsHandler,
  dashboardAuth,
  startOperationsServer,
} from "../server/index.js";
import { systemClock } from "../time/index.js";
import { appIdentity } from "./app-identity.js";
import { createRedactingLog } from "./create-redacting-log.js";
import { dashboardFromEnv, dashboardToken } from "./dashboard-from-env.js";
import { gadflyApp } from "./gadfly-app.js";
import { githubOctokit } from "./github-octokit.js";
import { listenAddress, servingLine } from "./listen-address.js";
import { openRoundQueue, type RoundQueue } from "./open-round-queue.js";
import { readAppPrivateKey } from "./read-app-private-key.js";
import { readDotEnv } from "./read-dot-env.js";
import { type GadflyRole, readScaleSettings } from "./read-scale-settings.js";
import { readTestKillPoint } from "./read-test-kill-point.js";
import { rootWebhookHandler } from "./root-webhook-handler.js";
import { type RoundServices, roundDependencies } from "./round-dependencies.js";
import { startRoundWorkers } from "./start-round-workers.js";
import { startSetupMode } from "./start-setup-mode.js";

/** How long a shutdown waits for rounds to stop before exiting anyway (they resume elsewhere). */
export const SHUTDOWN_GRACE_MS = 8_000;

export interface StartGadflyOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The role a command implies (`gadfly worker`); GADFLY_ROLE otherwise. */
  role?: GadflyRole;
  /** Where setup mode says what to do next; the process's stderr by default. */
  stderr?: Pick<NodeJS.WritableStream, "write">;
}

export interface RunningGadfly {
  role: GadflyRole;
  /**
   * Refuses new deliveries (503), stops the rounds running here (their jobs go
   * back to the queue, or resume on the next start with SQLite), waits up to
   * SHUTDOWN_GRACE_MS for them, then closes the server, the queue and the store.
   */
  stop(): Promise<void>;
}

/**
 * Starts Gadfly in its role: `all` (the default) receives webhooks and runs
 * rounds; `web` receives and queues; `worker` runs rounds and serves only
 * the operations endpoints. Throws ConfigError or StoreOpenError with one
 * clear message when it cannot start.
 */
export async function startGadfly(options: StartGadflyOptions): Promise<RunningGadfly> {
  const { cwd } = options;
  const env = readDotEnv(options.env, cwd);
  const role = options.role ?? (env.GADFLY_ROLE?.trim() || "all");
  if ((env.APP_ID ?? "").trim() === "" && role !== "worker") {
    // Probot refuses setup mode in production with a message about a missing App ID, after
    // its own start; say here what to do instead.
    if (env.NODE_ENV === "production") {
      throw new ConfigError("environment", [
        {
          path: "APP_ID",
          message:
            "not set, and NODE_ENV=production keeps Probot's setup mode off: unset NODE_ENV to serve the page that registers the App, or set APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET",
        },
      ]);
    }
    // Registering the App needs nothing else: not even a model config.
    const setup = await startSetupMode({ env, cwd, stderr: options.stderr ?? process.stderr });
    return { role: "all", stop: () => setup.stop() };
  }
  const config = await loadAppConfig(env, cwd);
  // Every secret this process holds, collected once: logs, published text and stored
  // transcripts are redacted of them.
  const privateKey = readAppPrivateKey(env, cwd);
  const secrets = collectSecrets({ env, providers: config.providers, privateKey });
  const settings = readScaleSettings(env, options.role);
  // Once, before anything opens: a level the config names but this host cannot give stops here.
  // A receiver runs no round, so no agent CLI: it needs no sandbox (its container has none).
  const agentIsolation =
    settings.role === "web" ? NO_ISOLATION : await agentIsolationFor(config, env, cwd);
  // Test-only, inert unless set: read here once, never deep inside a round.
  const killPoint = readTestKillPoint(env);
  // Only the web-facing roles verify deliveries; a worker receives none.
  requireWebhookSecret(env, settings.role !== "worker");
  // With a dashboard token, /metrics wants it too (the webhook port is public). A bad one stops
  // the start here, before anything is opened.
  const metricsToken = dashboardToken(env);
  const lenses = await loadLenses({ extraDirectory: env.GADFLY_LENSES_DIR });
  const dataDir = resolve(cwd, env.GADFLY_DATA_DIR ?? ".gadfly");
  const store = await openRunStore({ databaseUrl: settings.databaseUrl ?? undefined, dataDir });
  // Workspaces, transcripts and the SQLite file live here: not for an agent running as another user.
  const dataDirPrivate = await restrictToOwner(dataDir);
  // Errors of the queue's background work, logged once a logger exists.
  let log: Logger | null = null;
  const onError = (error: unknown, context: string) => {
    if (log === null) {
      process.stderr.write(`gadfly: ${context}: ${redactSecrets(describeError(error), secrets)}\n`);
    } else log.warn({ err: describeError(error), context }, "queue error");
  };
  let roundQueue: RoundQueue;
  try {
    roundQueue = await openRoundQueue({
      databaseUrl: settings.databaseUrl,
      capFor: providerCap(config),
      visibilityTimeoutMs: settings.visibilityTimeoutMs,
      githubWrites: settings.githubWrites,
      onError,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { queue } = roundQueue;
  const retention = startRetention({
    store,
    transcriptDays: retentionDays(env.GADFLY_TRANSCRIPT_RETENTION_DAYS, 30),
    deliveryDays: retentionDays(env.GADFLY_DELIVERY_RETENTION_DAYS, 14),
    onError: (error) => onError(error, "retention"),
  });
  const registry = new RoundRegistry();
  const metrics = createGadflyMetrics({ queueDepth: () => queue.depth() });
  // Fetches over node:http, at a fraction of the CPU of the global fetch, each keeping its
  // sockets alive: one for GitHub and the start-up checks, one for the model calls, whose
  // connection may stay silent as long as a reviewer's timeout allows (not undici's 300 s).
  const httpFetch = createNodeFetch();
  const modelFetch = createNodeFetch({ idleTimeoutMs: modelCallIdleTimeoutMs(config) });
  const services: RoundServices = {
    config,
    env,
    secrets,
    store,
    queue,
    limiter: createReviewerLimiter(config.review.concurrency),
    registry,
    lenses,
    dataDir,
    clock: systemClock,
    boardIntervalMs: settings.boardIntervalMs,
    // A thread answer's claim is leased as a round is.
    leaseMs: settings.visibilityTimeoutMs,
    createModel: limitedModelFactory({
      env,
      modelCalls: roundQueue.modelCalls,
      metrics,
      isolation: agentIsolation,
      fetch: modelFetch,
    }),
    metrics,
    conventionCache: new ConventionCache(),
    permissions: new PermissionCache<TriggerDecision>(systemClock),
    seenReactions: new SeenReactions(),
    agentIsolation: agentIsolation.level,
    ...(killPoint === undefined ? {} : { killPoint }),
  };
  const operations = createOperationsHandler({
    ready: () => readiness(registry, store, roundQueue),
    metrics,
    onNotReady: (error) => log?.warn({ err: describeError(error) }, "not ready"),
    ...(metricsToken === null ? {} : { metricsAllowed: dashboardAuth(metricsToken).allows }),
  });
  const Octokit = githubOctokit(metrics, secrets, roundQueue.githubWrites, httpFetch);

  let close: () => Promise<void>;
  let stopWorkers: () => void = () => undefined;
  try {
    if (settings.role === "worker") {
      // `npm start` logs at info by default; createProbot alone would say only warnings.
      const probotEnv = { ...env };
      probotEnv.LOG_LEVEL ??= "info";
      const probot = createProbot({
        env: probotEnv,
        overrides: { Octokit, log: await createRedactingLog({ env: probotEnv, secrets }) },
      });
      await probot.ready();
      log = probot.log.child({ role: "worker" });
      const workerLog = log;
      const whoAmI = appIdentity(async () => (await probot.auth()) as GitHubClient);
      // Asked at once: a wrong app id or key shows in the log at start, not at the first round.
      whoAmI().catch((error: unknown) =>
        workerLog.error({ err: describeError(error) }, "could not authenticate as the GitHub App"),
      );
      const workers = await startRoundWorkers({
        queue,
        concurrency: settings.roundsPerProcess,
        store,
        registry,
        installationClient: async (installationId) =>
          (await probot.auth(installationId)) as GitHubClient,
        dependencies: async () => roundDependencies(services, await whoAmI(), workerLog),
        leaseMs: settings.visibilityTimeoutMs,
        singleProcess: false,
        clock: services.clock,
        metrics,
        onError,
      });
      const resumed = workers.woken;
      stopWorkers = workers.stop;
      const server = await startOperationsServer(operations, {
        port: Number(env.PORT ?? 3000),
        ...(env.HOST === undefined ? {} : { host: env.HOST }),
      });
      workerLog.info(
        {
          rounds: settings.roundsPerProcess,
          resumed,
          host: env.HOST ?? "localhost",
          port: Number(env.PORT ?? 3000),
        },
        `worker started; /healthz, /readyz and /metrics on ${listenAddress(env.HOST, Number(env.PORT ?? 3000)).localUrl}`,
      );
      close = () => closeServer(server);
    } else {
      // On the webhook port only; a worker serves no dashboard. A bad token stops the start.
      const dashboard = dashboardFromEnv(env, {
        store,
        config,
        onError: (error) => log?.warn({ err: describeError(error) }, "dashboard failed"),
      });
      const server = await run(
        (app, appOptions) => {
          log = app.log;
          appOptions?.addHandler(rootWebhookHandler(app));
          if (dashboard !== null) appOptions?.addHandler(dashboard);
          return gadflyApp({
            ...services,
            workers:
              settings.role === "web"
                ? null
                : {
                    concurrency: settings.roundsPerProcess,
                    leaseMs: settings.visibilityTimeoutMs,
                    singleProcess: settings.databaseUrl === null,
                    onStarted: (started) => {
                      stopWorkers = started.stop;
                    },
                  },
            operations,
          })(app, appOptions);
        },
        { env: { ...env }, Octokit, log: await createRedactingLog({ env, secrets }) },
      );
      // Set by the app function above, which run() has called by now.
      (log as Logger | null)?.info(
        { host: env.HOST ?? "localhost", port: server.port },
        servingLine(listenAddress(env.HOST, server.port), env.WEBHOOK_PROXY_URL),
      );
      close = () => server.stop();
    }
  } catch (error) {
    retention.stop();
    await roundQueue.stop(0).catch(() => undefined);
    await store.close();
    httpFetch.close();
    modelFetch.close();
    throw error;
  }
  if (settings.role !== "web") announceIsolation(log, config, agentIsolation, dataDirPrivate);
  logStartupChecks(
    log,
    {
      env,
      cwd,
      configPath: env.GADFLY_CONFIG ?? "gadfly.config.yml",
      privateKey,
      receivesWebhooks: settings.role !== "worker",
      runsRounds: settings.role !== "web",
      config,
      isolation: agentIsolation,
      checkGitHub: false,
      // The probes count against each provider's cap like model calls, across the workers.
      acquireSlot: (provider, signal) => roundQueue.modelCalls.acquire(provider, signal),
      // The process's own fetch: the first global fetch would compile undici's wasm HTTP
      // parser, some 20-45 MB of RSS at start for a few GETs.
      fetch: httpFetch,
    },
    secrets,
  );

  return {
    role: settings.role,
    async stop() {
      retention.stop();
      stopWorkers();
      registry.close();
      // The queue stops the rounds it gave this process: their jobs are released, not completed.
      await roundQueue.stop(SHUTDOWN_GRACE_MS);
      await registry.shutdown(0);
      await close().catch(() => undefined);
      await store.close();
      httpFetch.close();
      modelFetch.close();
    },
  };
}

/**
 * The isolation agent CLIs get here. Probed only when the config has a `command`
 * provider or names a level: nothing else runs an agent CLI.
 */
async function agentIsolationFor(
  config: AppConfig,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<AgentIsolation> {
  const agents = config.providers.some((provider) => provider.type === "command");
  if (!agents && config.sandbox.isolation === "auto") {
    return NO_ISOLATION;
  }
  return detectIsolation(config.sandbox, {
    configSource: resolve(cwd, env.GADFLY_CONFIG ?? "gadfly.config.yml"),
  });
}

/** One line at start-up naming the level in force; a warning below bubblewrap. */
function announceIsolation(
  log: Logger | null,
  config: AppConfig,
  isolation: AgentIsolation,
  dataDirPrivate: boolean,
): void {
  if (log === null || !config.providers.some((provider) => provider.type === "command")) {
    return;
  }
  const notice = isolationNotice(isolation);
  log[notice.severity]({ isolation: isolation.level }, notice.message);
  if (isolation.level === "user" && !dataDirPrivate) {
    log.warn({}, "the data directory could not be made private (0700) to agent CLIs");
  }
}

/**
 * `gadfly doctor`'s table in the log, once at start: a missing key or an unreachable
 * provider shows before the first round fails on it. In the background, each check
 * bounded: a slow provider never holds up the start.
 */
function logStartupChecks(
  log: Logger | null,
  inputs: DoctorInputs,
  secrets: readonly string[],
): void {
  if (log === null) return;
  const redact = createRedactor(secrets);
  runDoctor(inputs).then(
    (report) => {
      const table = formatDoctorTable(redactDoctorReport(report, redact));
      const failed = report.checks
        .filter((check) => check.status === "fail")
        .map((check) => check.id);
      if (failed.length === 0) log.info({ checks: "ok" }, `start-up checks:\n${table}`);
      else log.warn({ failed }, `start-up checks:\n${table}`);
    },
    (error: unknown) => log.warn({ err: describeError(error) }, "start-up checks could not run"),
  );
}

/** Ready: not shutting down, and the store and the queue both answer. */
async function readiness(
  registry: RoundRegistry,
  store: RunStore,
  roundQueue: RoundQueue,
): Promise<void> {
  if (!registry.accepting) throw new Error("shutting down");
  await store.findRound("readiness-probe");
  await roundQueue.queue.depth();
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
