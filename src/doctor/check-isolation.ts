import { resolve } from "node:path";
import { type AppConfig, ConfigError } from "../config/index.js";
import {
  type AgentIsolation,
  type DetectIsolationOptions,
  detectIsolation,
  isolationNotice,
} from "../sandbox/index.js";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";

/**
 * The isolation agent CLIs would get on this host, probed as the app probes it at start
 * (or the level the app already detected): a level the config names but cannot have
 * fails; below bubblewrap is a warning, since fork pull requests are then skipped.
 */
export async function checkIsolation(
  config: AppConfig,
  options: { configPath: string; detected?: AgentIsolation; probe?: DetectIsolationOptions },
): Promise<DoctorCheck> {
  const title = "agent CLI isolation";
  const agents = config.providers.filter((provider) => provider.type === "command");
  if (agents.length === 0 && config.sandbox.isolation === "auto") {
    return doctorCheck("isolation", title, "skip", "no agent CLI (command provider) configured");
  }
  let isolation: AgentIsolation;
  try {
    isolation =
      options.detected ??
      (await detectIsolation(config.sandbox, {
        configSource: resolve(options.configPath),
        ...options.probe,
      }));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return doctorCheck(
      "isolation",
      title,
      "fail",
      error.message,
      "install bubblewrap (Debian: apt-get install bubblewrap) and allow user namespaces, or choose another sandbox.isolation",
    );
  }
  const notice = isolationNotice(isolation);
  if (isolation.level === "bwrap") {
    return doctorCheck("isolation", title, "pass", `bwrap: ${notice.message}`);
  }
  return doctorCheck(
    "isolation",
    title,
    "warn",
    `${isolation.level}: ${notice.message}`,
    "install bubblewrap (see docs/agent-cli-sandbox.md) for agent CLIs to review forks safely",
  );
}
