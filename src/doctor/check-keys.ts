import type { AppConfig } from "../config/index.js";
import { type DoctorCheck, doctorCheck } from "./doctor-check.js";
import { keyHelp } from "./key-help.js";

/**
 * One row per provider that needs a key or passes variables to an agent CLI: each named
 * variable set and not blank. Only the variable's name is ever shown, never its value.
 */
export function checkKeys(
  config: AppConfig,
  env: Readonly<Record<string, string | undefined>>,
): DoctorCheck[] {
  return config.providers.flatMap((provider) => {
    const names =
      provider.type === "command"
        ? provider.env
        : "apiKeyEnv" in provider && provider.apiKeyEnv !== undefined
          ? [provider.apiKeyEnv]
          : [];
    if (names.length === 0) return [];
    const models = config.models
      .filter((model) => model.provider === provider.name)
      .map((model) => model.id);
    const missing = names.filter((name) => (env[name] ?? "").trim() === "");
    const title = `key for ${provider.name}`;
    const used = models.length === 0 ? "no model uses it" : `for ${models.join(", ")}`;
    return missing.length === 0
      ? [doctorCheck(`key:${provider.name}`, title, "pass", `${names.join(", ")} set (${used})`)]
      : [
          doctorCheck(
            `key:${provider.name}`,
            title,
            "fail",
            `${missing.join(", ")} not set (${used})`,
            `set ${missing.join(", ")} in the environment or .env${keyHelp(provider) === null ? "" : `; ${keyHelp(provider)}`}`,
          ),
        ];
  });
}
