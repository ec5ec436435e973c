import { join } from "node:path";
import { type AppConfig, ConfigError } from "../config/index.js";

/** A key named by the config but missing from the environment is a config error, said before any work. */
export function requireKeys(
  config: AppConfig,
  used: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): void {
  const issues = config.providers.flatMap((provider, index) => {
    if (
      !used.includes(provider.name) ||
      !("apiKeyEnv" in provider) ||
      provider.apiKeyEnv === undefined
    )
      return [];
    const value = env[provider.apiKeyEnv];
    return value === undefined || value.trim() === ""
      ? [
          {
            path: `providers[${index}].apiKeyEnv`,
            message: `${provider.apiKeyEnv} is not set (provider ${provider.name})`,
          },
        ]
      : [];
  });
  if (issues.length > 0)
    throw new ConfigError(env.GADFLY_CONFIG ?? join(".", "gadfly.config.yml"), issues);
}
