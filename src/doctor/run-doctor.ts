import { resolve } from "node:path";
import type { AppConfig } from "../config/index.js";
import type { AgentIsolation, DetectIsolationOptions } from "../sandbox/index.js";
import { checkConfig } from "./check-config.js";
import { checkDataDir } from "./check-data-dir.js";
import { checkDatabase } from "./check-database.js";
import { checkGitHubApp } from "./check-github-app.js";
import { checkIsolation } from "./check-isolation.js";
import { checkKeys } from "./check-keys.js";
import { checkProviders, type ProviderProbeOptions } from "./check-providers.js";
import { checkWebhookSecret } from "./check-webhook-secret.js";
import { type DoctorCheck, type DoctorReport, doctorCheck } from "./doctor-check.js";

/** Each network check waits this long at most, so doctor (and start-up) never hangs on one. */
export const DOCTOR_TIMEOUT_MS = 5_000;

export interface DoctorInputs {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The app config's path (absolute, or relative to cwd). */
  configPath: string;
  /** The App's private key as Probot finds it; null when there is none. */
  privateKey: string | null;
  /** A worker receives no webhook: its secret is not checked. */
  receivesWebhooks: boolean;
  /** A web process (GADFLY_ROLE=web) runs no reviewer: keys and providers are not its concern. */
  runsRounds?: boolean;
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  /** At start-up: the config already loaded and the isolation already detected. */
  config?: AppConfig;
  isolation?: AgentIsolation;
  /**
   * False at start-up: the app asks GitHub who it is itself (and logs a refusal), and
   * its start must not add requests of its own; `gadfly doctor` asks.
   */
  checkGitHub?: boolean;
  /** At start-up: probes take a place among each provider's capped calls (see checkProviders). */
  acquireSlot?: ProviderProbeOptions["acquireSlot"];
  slotWaitMs?: number;
  /** How bubblewrap is probed (tests). */
  isolationProbe?: DetectIsolationOptions;
}

/**
 * Everything a first round needs, one row each, in a fixed order: the config, each
 * provider's key, each provider reached and each model known, the App's credentials and
 * installations, the webhook secret, the data directory, the database, agent CLI
 * isolation. The network checks run at once, each bounded by `timeoutMs`.
 */
export async function runDoctor(inputs: DoctorInputs): Promise<DoctorReport> {
  const { env, cwd } = inputs;
  const timeoutMs = inputs.timeoutMs ?? DOCTOR_TIMEOUT_MS;
  const configPath = resolve(cwd, inputs.configPath);
  const loaded =
    inputs.config === undefined
      ? await checkConfig(configPath, cwd)
      : {
          check: doctorCheck("config", "config", "pass", `${configPath} (loaded at start)`),
          config: inputs.config,
        };
  const { config } = loaded;
  const fetchOption = inputs.fetch === undefined ? {} : { fetch: inputs.fetch };
  const databaseUrl = (env.GADFLY_DATABASE_URL ?? "").trim();
  const [providers, github, dataDir, database, isolation] = await Promise.all([
    config === null || inputs.runsRounds === false
      ? Promise.resolve([] as DoctorCheck[])
      : checkProviders(config, {
          env,
          timeoutMs,
          ...fetchOption,
          ...(inputs.acquireSlot === undefined ? {} : { acquireSlot: inputs.acquireSlot }),
          ...(inputs.slotWaitMs === undefined ? {} : { slotWaitMs: inputs.slotWaitMs }),
        }),
    inputs.checkGitHub === false
      ? Promise.resolve([
          doctorCheck(
            "github-app",
            "GitHub App",
            "skip",
            "asked by the app itself at start (a refusal is logged); gadfly doctor checks it and lists installations",
          ),
        ])
      : checkGitHubApp({
          env,
          privateKey: inputs.privateKey,
          timeoutMs,
          now: inputs.now ?? Date.now,
          ...fetchOption,
        }),
    checkDataDir(resolve(cwd, env.GADFLY_DATA_DIR ?? ".gadfly")),
    checkDatabase(databaseUrl === "" ? null : databaseUrl, timeoutMs),
    config === null || inputs.runsRounds === false
      ? Promise.resolve(
          doctorCheck(
            "isolation",
            "agent CLI isolation",
            "skip",
            config === null
              ? "needs a valid config"
              : "a web process runs no agent CLI: the workers need the sandbox",
          ),
        )
      : checkIsolation(config, {
          configPath,
          ...(inputs.isolation === undefined ? {} : { detected: inputs.isolation }),
          ...(inputs.isolationProbe === undefined ? {} : { probe: inputs.isolationProbe }),
        }),
  ]);
  const checks = [
    loaded.check,
    ...(config === null
      ? [doctorCheck("providers", "providers and models", "skip", "needs a valid config")]
      : inputs.runsRounds === false
        ? [
            doctorCheck(
              "providers",
              "providers and models",
              "skip",
              "a web process runs no reviewer: the workers need the keys",
            ),
          ]
        : [...checkKeys(config, env), ...providers]),
    ...github,
    checkWebhookSecret(env, inputs.receivesWebhooks),
    dataDir,
    database,
    isolation,
  ];
  return { ok: checks.every((check) => check.status !== "fail"), checks };
}
