import type { AppConfig } from "../../config/index.js";
import type { ProviderCap } from "./model-call-limiter.js";

/**
 * Model calls in flight per provider: the provider's own `concurrency`, else
 * `review.concurrency` (a provider the config does not name gets the latter too).
 */
export function providerCap(config: Pick<AppConfig, "providers" | "review">): ProviderCap {
  const caps = new Map(
    config.providers.map((provider) => [
      provider.name,
      provider.concurrency ?? config.review.concurrency,
    ]),
  );
  return (provider) => caps.get(provider) ?? config.review.concurrency;
}
