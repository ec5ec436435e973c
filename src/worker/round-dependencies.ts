import type { LensDefinition } from "../agent/index.js";
import type { AppConfig } from "../config/index.js";
import type { RoundDependencies, RoundLog, RoundRegistry } from "../github/index.js";
import type { ReviewerLimiter } from "../run/index.js";
import type { WorkQueue } from "../run/queue/index.js";
import type { RunStore } from "../run/store/index.js";
import type { IsolationLevel } from "../sandbox/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { Clock } from "../time/index.js";
import type { AppIdentity } from "./app-identity.js";

/** What every round of a process shares, whichever role takes it. */
export interface RoundServices {
  config: AppConfig;
  env: Readonly<Record<string, string | undefined>>;
  /** Every secret of the process, from collectSecrets once at start-up. */
  secrets?: readonly string[];
  store: RunStore;
  queue: WorkQueue;
  limiter: ReviewerLimiter;
  registry: RoundRegistry;
  lenses: readonly LensDefinition[];
  dataDir: string;
  clock: Clock;
  boardIntervalMs: number;
  createModel?: RoundDependencies["createModel"];
  metrics?: GadflyMetrics;
  /**
   * How agent CLIs are isolated in this process, detected once at start-up. Absent
   * (tests, embedders) reads as `none`, the weakest level, so rules that depend on it
   * err on the side of refusing.
   */
  agentIsolation?: IsolationLevel;
}

/** The dependencies of a round (or of a trigger deciding one), for the app `identity` names. */
export function roundDependencies(
  services: RoundServices,
  identity: AppIdentity,
  log: RoundLog,
): RoundDependencies & { appId: number; agentIsolation: IsolationLevel } {
  return {
    config: services.config,
    env: services.env,
    ...(services.secrets === undefined ? {} : { secrets: services.secrets }),
    store: services.store,
    queue: services.queue,
    limiter: services.limiter,
    registry: services.registry,
    lenses: services.lenses,
    dataDir: services.dataDir,
    clock: services.clock,
    boardIntervalMs: services.boardIntervalMs,
    botLogin: identity.botLogin,
    appId: identity.appId,
    log,
    ...(services.createModel === undefined ? {} : { createModel: services.createModel }),
    ...(services.metrics === undefined ? {} : { metrics: services.metrics }),
    agentIsolation: services.agentIsolation ?? "none",
  };
}
