import { ConfigError, type ConfigIssue } from "./config-error.js";
import type { RepoConfig, RepoLens } from "./repo-config-schema.js";
import type { AppConfig, ModelConfig, ReviewConfig } from "./schema.js";

/** What one round runs: the models and lenses chosen, and the review settings. */
export interface ReviewPlan {
  models: ModelConfig[];
  /** Lens ids in order; custom ones are described in `customLenses`. */
  lenses: string[];
  customLenses: RepoLens[];
  review: ReviewConfig;
  ignore: string[];
}

/**
 * Combines the app config with a repository's choices. The repository may only
 * narrow the app's models and pick lenses; anything it names that the app does
 * not have is a ConfigError naming the field.
 */
export function resolveReviewPlan(
  app: AppConfig,
  repo: RepoConfig,
  source = ".github/gadfly.yml",
): ReviewPlan {
  const issues: ConfigIssue[] = [];
  const known = new Map(app.models.map((model) => [model.id, model]));
  const models = (repo.models ?? app.models.map((model) => model.id)).flatMap((id, index) => {
    const model = known.get(id);
    if (model === undefined) {
      issues.push({
        path: `models[${index}]`,
        message: `unknown model "${id}" (this app has: ${[...known.keys()].join(", ")})`,
      });
      return [];
    }
    return [model];
  });
  const custom = new Map(repo.customLenses.map((lens) => [lens.id, lens]));
  const available = new Set([...app.review.lenses, ...custom.keys()]);
  const lenses = repo.lenses ?? [...app.review.lenses, ...custom.keys()];
  lenses.forEach((id, index) => {
    if (!available.has(id)) {
      issues.push({
        path: `lenses[${index}]`,
        message: `unknown lens "${id}" (available: ${[...available].join(", ")})`,
      });
    }
  });
  if (issues.length > 0) throw new ConfigError(source, issues);
  return {
    models,
    lenses: [...new Set(lenses)],
    customLenses: lenses.flatMap((id) => custom.get(id) ?? []),
    review: app.review,
    ignore: repo.ignore,
  };
}
