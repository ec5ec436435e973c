import type { LensDefinition, PromptStyle } from "../agent/index.js";
import type { AppConfig } from "../config/index.js";
import type { ModelFactory } from "../llm/index.js";
import type { ReviewerLimiter, RoundRegistry } from "../run/index.js";
import type { WorkQueue } from "../run/queue/index.js";
import type { RunStore } from "../run/store/index.js";
import type { IsolationLevel } from "../sandbox/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { Clock } from "../time/index.js";
import type { TriggerDecision } from "./can-trigger-review.js";
import type { ConventionCache } from "./convention-cache.js";
import type { KillPoint } from "./kill-points.js";
import type { PermissionCache } from "./permission-cache.js";
import type { SeenReactions } from "./seen-reactions.js";

export interface RoundDependencies {
  config: AppConfig;
  env: Readonly<Record<string, string | undefined>>;
  /** Every secret of the process (collectSecrets): never published, logged or stored. */
  secrets?: readonly string[];
  store: RunStore;
  /** Where rounds are woken, and their holders told of a cancellation, whichever worker holds them. */
  queue: WorkQueue;
  limiter: ReviewerLimiter;
  /** The rounds this process holds (their leases): hints and shutdown reach them through it. */
  registry: RoundRegistry;
  /** Built-in lens definitions (and an operator's). */
  lenses: readonly LensDefinition[];
  dataDir: string;
  clock: Clock;
  boardIntervalMs: number;
  botLogin: string;
  log: RoundLog;
  /** Builds each reviewer's model (e.g. behind the per-provider cap); the provider's own by default. */
  createModel?: ModelFactory;
  metrics?: Pick<GadflyMetrics, "lens" | "modelUsage">;
  /**
   * The permission API's answers, shared by the app's handlers and rounds: a burst of triggers
   * and a round's reaction polling ask once per person.
   */
  permissions: PermissionCache<TriggerDecision>;
  /** Reactions polls read and did not record (a reader's): not read again. Absent: none kept. */
  seenReactions?: SeenReactions;
  /** The base's convention files by commit, shared by the process's rounds; read afresh if absent. */
  conventionCache?: ConventionCache;
  /**
   * How agent CLIs are isolated in this process (detected at start-up). Absent reads
   * as `none`, the weakest: agent CLIs then skip fork PRs unless a provider allows them.
   */
  agentIsolation?: IsolationLevel;
  /**
   * Test-only: called at each named publishing point (kill-points.ts); the process dies at the
   * one `GADFLY_TEST_KILL_POINT` names. Absent unless a test set it.
   */
  killPoint?: (point: KillPoint) => void;
  /**
   * How long a claim this process holds stays its own unrenewed: a round's lease, and a thread
   * answer's (renewed every third of it; a lapsed one is said in its thread as interrupted).
   * Default THREAD_ANSWER_LEASE_MS.
   */
  leaseMs?: number;
  /** How reviewers are given the change; default compact. full-diff is the economy benchmark's baseline. */
  promptStyle?: PromptStyle;
  /** Every round reviews the whole pull request, never the step: the economy benchmark's baseline. */
  everyRoundFull?: boolean;
}

export interface RoundLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
