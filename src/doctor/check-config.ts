import { type AppConfig, ConfigError, loadAppConfig } from "../config/index.js";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";

/** The app config through the same loader the app uses: valid, or the first fields to fix. */
export async function checkConfig(
  configPath: string,
  cwd: string,
): Promise<{ check: DoctorCheck; config: AppConfig | null }> {
  try {
    const config = await loadAppConfig({ GADFLY_CONFIG: configPath }, cwd);
    const detail = `${configPath}: ${count(config.providers.length, "provider")}, ${count(config.models.length, "model")}`;
    return { check: doctorCheck("config", "config", "pass", detail), config };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const missing = error.issues.some((issue) => issue.message.startsWith("file not found"));
    return {
      check: doctorCheck(
        "config",
        "config",
        "fail",
        error.message,
        missing
          ? "run `gadfly init` to write a starter config, or point GADFLY_CONFIG (or --config) at yours"
          : "correct the fields named above (README: Configuration)",
      ),
      config: null,
    };
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
