import type { RoundDependencies, RoundLog } from "../github/index.js";
import type { ModelFactory } from "../llm/index.js";
import type { IsolationLevel } from "../sandbox/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { AppIdentity } from "./app-identity.js";

/**
 * What every round of a process shares, whichever role takes it: a round's
 * dependencies less its app's login and its log (one field list, in RoundDependencies),
 * with the process's full metrics. An absent `agentIsolation` (tests, embedders) reads
 * as `none`, the weakest level, so rules that depend on it err on the side of refusing.
 */
export interface RoundServices
  extends Omit<RoundDependencies, "botLogin" | "log" | "metrics" | "createModel"> {
  createModel?: ModelFactory;
  metrics?: GadflyMetrics;
}

/** The dependencies of a round (or of a trigger deciding one), for the app `identity` names. */
export function roundDependencies(
  services: RoundServices,
  identity: AppIdentity,
  log: RoundLog,
): RoundDependencies & { appId: number; agentIsolation: IsolationLevel } {
  return {
    ...services,
    botLogin: identity.botLogin,
    appId: identity.appId,
    log,
    agentIsolation: services.agentIsolation ?? "none",
    // The economy benchmark's baseline, the behaviour before issue 15 (the whole diff in every
    // turn, every round a full review), for that benchmark alone: not a user setting, so not in
    // the config.
    ...(services.promptStyle === undefined && process.env.GADFLY_BENCH_PROMPT_STYLE === "full-diff"
      ? { promptStyle: "full-diff" as const, everyRoundFull: true }
      : {}),
  };
}
