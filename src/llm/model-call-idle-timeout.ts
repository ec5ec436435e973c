import type { AppConfig } from "../config/index.js";

/** undici's limit on a silent connection, which the app's fetch keeps by default. */
const DEFAULT_IDLE_SECONDS = 300;

/**
 * How long the model calls' fetch lets a connection stay silent. A non-streaming answer sends
 * nothing until it is done, so a reviewer allowed `review.timeoutSeconds` (900 by default), or a
 * provider its own `timeoutSeconds`, must not be cut at 300 s by the transport: the calls'
 * own deadlines end them, and this is only the backstop behind them.
 */
export function modelCallIdleTimeoutMs(config: Pick<AppConfig, "review" | "providers">): number {
  const providerSeconds = config.providers.map((provider) =>
    "timeoutSeconds" in provider ? (provider.timeoutSeconds ?? 0) : 0,
  );
  return Math.max(DEFAULT_IDLE_SECONDS, config.review.timeoutSeconds, ...providerSeconds) * 1000;
}
