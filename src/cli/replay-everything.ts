import type { AppConfig } from "../config/index.js";

/** `--replay DIR`: every provider answers from the recordings, no model at all. */
export function replayEverything(config: AppConfig, dir: string): AppConfig {
  return {
    ...config,
    providers: config.providers.map((provider) => ({ name: provider.name, type: "replay", dir })),
  };
}
