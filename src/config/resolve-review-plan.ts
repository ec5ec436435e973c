import { ConfigError, type ConfigIssue } from "./config-error.js";
import type { RepoConfig, RepoInstruction, RepoLens, RepoPublish } from "./repo-config-schema.js";
import type {
  AppConfig,
  BudgetConfig,
  CrossExaminationConfig,
  DownshiftConfig,
  ModelConfig,
  ModelPrice,
  PublishPolicy,
  ReviewConfig,
} from "./schema.js";

/** Prices by model id, from each model's `price`; a model without one is counted in tokens only. */
export type PriceTable = Record<string, ModelPrice>;

/** What one round runs: the models and lenses chosen, and the review settings. */
export interface ReviewPlan {
  models: ModelConfig[];
  /**
   * The app's models that a planned model names in `fallbacks` and the plan does not run on
   * their own: what a failing lens may go on on. Absent (a plan built by hand) means none.
   */
  fallbackModels?: ModelConfig[];
  /** Lens ids in order; custom ones are described in `customLenses`. */
  lenses: string[];
  customLenses: RepoLens[];
  review: ReviewConfig;
  ignore: string[];
  /** Which findings are posted inline: the app's `publish`, each field the repository sets overriding it. */
  publish: PublishPolicy;
  /** The repository's review instructions, in the file's order. */
  instructions: RepoInstruction[];
  /** `repo`: hold back findings like those dismissed in the repository's other PRs; absent means off. */
  learn?: "off" | "repo";
  /** Whether one model writes the PR's summary atop the consensus; absent (a plan built by hand) means off. */
  summary?: boolean;
  /** The app's cross-examination settings; absent (a plan built by hand) means none. */
  crossExamination?: CrossExaminationConfig;
  /**
   * Each app model's `price` by id (fallbacks included: a lens may end on one); absent or
   * without a model's price: that model's tokens only.
   */
  pricing?: PriceTable;
  /** The app's caps and downshift; absent (a plan built by hand) means none. */
  budget?: BudgetConfig;
  /**
   * The repository's own downshift (`filters.maxSize` with `over: downshift`): applied after the
   * app's, so a repository can only make a large round smaller.
   */
  sizeDownshift?: DownshiftConfig | undefined;
}

/**
 * Combines the app config with a repository's choices. The repository may only
 * narrow the app's models and pick lenses; anything it names that the app does
 * not have is a ConfigError naming the field. Choices are deduplicated, so a
 * round runs at most (app models) × (app lenses + custom lenses) reviewers.
 */
export function resolveReviewPlan(
  app: AppConfig,
  repo: RepoConfig,
  source = ".github/gadfly.yml",
): ReviewPlan {
  const issues: ConfigIssue[] = [];
  const known = new Map(app.models.map((model) => [model.id, model]));
  // Deduplicated: a model named twice is reviewed once, so the plan never has
  // more models than the app has, however long the list.
  const chosen = new Set<string>();
  const models = (repo.models ?? app.models.map((model) => model.id)).flatMap((id, index) => {
    const model = known.get(id);
    if (model === undefined) {
      issues.push({
        path: `models[${index}]`,
        message: `unknown model "${id}" (this app has: ${[...known.keys()].join(", ")})`,
      });
      return [];
    }
    if (chosen.has(id)) return [];
    chosen.add(id);
    return [model];
  });
  repo.customLenses.forEach((lens, index) => {
    if (app.review.lenses.includes(lens.id)) {
      issues.push({
        path: `customLenses[${index}].id`,
        message: `"${lens.id}" is one of the app's lenses: give yours another id`,
      });
    }
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
  const size = repo.filters?.maxSize;
  size?.models?.forEach((id, index) => {
    if (!known.has(id)) {
      issues.push({
        path: `filters.maxSize.models[${index}]`,
        message: `unknown model "${id}" (this app has: ${[...known.keys()].join(", ")})`,
      });
    }
  });
  size?.lenses?.forEach((id, index) => {
    if (!available.has(id)) {
      issues.push({
        path: `filters.maxSize.lenses[${index}]`,
        message: `unknown lens "${id}" (available: ${[...available].join(", ")})`,
      });
    }
  });
  if (issues.length > 0) throw new ConfigError(source, issues);
  const distinctLenses = [...new Set(lenses)];
  const fallbackIds = new Set(models.flatMap((model) => model.fallbacks ?? []));
  return {
    models,
    fallbackModels: app.models.filter(
      (model) => fallbackIds.has(model.id) && !chosen.has(model.id),
    ),
    lenses: distinctLenses,
    customLenses: distinctLenses.flatMap((id) => custom.get(id) ?? []),
    review: app.review,
    ignore: repo.ignore,
    publish: mergePublish(app.publish, repo.publish),
    instructions: repo.instructions,
    learn: repo.learn,
    summary: repo.summary && app.summary !== false,
    crossExamination: app.crossExamination,
    pricing: priceTable(app.models),
    budget: app.budget,
    sizeDownshift: sizeDownshiftOf(repo),
  };
}

/** `filters.maxSize` with `over: downshift`, as the plan's downshift reads it. */
function sizeDownshiftOf(repo: RepoConfig): DownshiftConfig | undefined {
  const size = repo.filters?.maxSize;
  if (size === undefined || size.over !== "downshift") return undefined;
  return {
    ...(size.changedLines === undefined ? {} : { aboveChangedLines: size.changedLines }),
    ...(size.files === undefined ? {} : { aboveFiles: size.files }),
    ...(size.lenses === undefined ? {} : { lenses: size.lenses }),
    ...(size.models === undefined ? {} : { models: size.models }),
  };
}

/** The app's policy with each field the repository set in its place. */
function mergePublish(app: PublishPolicy, repo: RepoPublish | undefined): PublishPolicy {
  return {
    inline: repo?.inline ?? app.inline,
    minSeverity: repo?.minSeverity ?? app.minSeverity,
    maxInline: repo?.maxInline ?? app.maxInline,
  };
}

/** The priced models' prices by id: the plan's, and the scoreboard's over every model of the app. */
export function priceTable(models: readonly ModelConfig[]): PriceTable {
  return Object.fromEntries(
    models.flatMap((model) => (model.price === undefined ? [] : [[model.id, model.price]])),
  );
}
