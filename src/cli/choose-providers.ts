import type { StarterProvider } from "./starter-providers.js";
import { UsageError } from "./usage-error.js";

/** `1,3`, `openai,ollama` or a mix: the providers named, in the offered order, once each. */
export function chooseProviders(
  answer: string,
  offered: readonly StarterProvider[],
): StarterProvider[] {
  const items = answer
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  const names = offered.map((provider) => provider.id).join(", ");
  if (items.length === 0) throw new UsageError(`choose at least one provider: ${names}`);
  const chosen = new Set<StarterProvider>();
  for (const item of items) {
    const provider = /^\d+$/.test(item)
      ? offered[Number(item) - 1]
      : offered.find((candidate) => candidate.id === item);
    if (provider === undefined) {
      throw new UsageError(
        `unknown provider ${JSON.stringify(item.slice(0, 40))}: choose from ${names}`,
      );
    }
    chosen.add(provider);
  }
  return offered.filter((provider) => chosen.has(provider));
}
