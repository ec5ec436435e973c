import type { StarterProvider } from "./starter-providers.js";

/**
 * The commented `gadfly.config.yml` `gadfly init` writes for the chosen providers: their
 * entries and one model each, then the review settings at their defaults, commented out,
 * so a person sees what can be changed without reading the README first.
 */
export function starterConfig(providers: readonly StarterProvider[]): string {
  return [
    "# Gadfly's app config, written by `gadfly init`. Keys are never written here: each",
    "# provider names the environment variable that holds its key (see .env.example).",
    "# Check it with `gadfly doctor`. Reference: README.md, section Configuration; more",
    "# providers (Gemini, OpenRouter, Azure…) in examples/configs/ of the repository.",
    "",
    "providers:",
    ...providers.flatMap((provider) => provider.entry),
    "",
    "# The models that review each pull request: several, so their findings can agree.",
    "models:",
    ...providers.flatMap((provider) => provider.models),
    "",
    "# Defaults, shown for reference:",
    "# review:",
    "#   lenses: [security, correctness, maintainability, performance, error-handling]",
    "#   concurrency: 8          # (model, lens) reviews in flight at once",
    "#   verify: true            # each model re-checks its findings",
    "#   maxTurns: 24            # tool-loop turns per reviewer",
    "#   timeoutSeconds: 900     # per reviewer",
    "# sandbox:",
    "#   isolation: auto         # agent CLIs: bwrap | user | none; auto = the strongest that works",
    "# publish:",
    "#   inline: agreed          # inline comments for what two models agree on (or a lone high)",
    "",
  ].join("\n");
}
