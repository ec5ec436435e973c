import type { LensDefinition } from "../agent/index.js";
import { ConfigError, type ConfigIssue } from "./config-error.js";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "./repo-config-schema.js";
import { type ReviewPlan, resolveReviewPlan } from "./resolve-review-plan.js";
import type { AppConfig } from "./schema.js";

/** Where a repository keeps its choices; custom lenses name it as their source. */
export const REPO_CONFIG_PATH = ".github/gadfly.yml";

/** A repository's config as read from its file: `issues` is set when the file was invalid. */
export interface LoadedRepoChoices {
  config: RepoConfig;
  issues: readonly ConfigIssue[] | null;
}

/** What one round runs, with the lens definitions, and what was wrong with the repository's choices. */
export interface PlannedReview {
  plan: ReviewPlan;
  lenses: LensDefinition[];
  /** Empty when the repository's choices were valid; otherwise the plan is on the defaults. */
  issues: ConfigIssue[];
}

/**
 * The one planning step. A repository's loaded config that is invalid, or that names
 * models or lenses the app does not have, falls back to DEFAULT_REPO_CONFIG and reports
 * every issue (for the notice on the pull request). Choices given directly (the CLI's
 * command line) are not defaulted: a bad choice is a ConfigError naming `source`.
 */
export function planReview(
  app: AppConfig,
  repo: LoadedRepoChoices | RepoConfig,
  builtInLenses: readonly LensDefinition[],
  source = REPO_CONFIG_PATH,
): PlannedReview {
  // One path for both kinds of choices: only a loaded file falls back to the defaults.
  const { config, issues, fallsBack } = isLoaded(repo)
    ? { config: repo.config, issues: [...(repo.issues ?? [])], fallsBack: true }
    : { config: repo, issues: [], fallsBack: false };
  let plan: ReviewPlan;
  try {
    plan = resolveReviewPlan(app, config, source);
  } catch (error) {
    if (!fallsBack || !(error instanceof ConfigError)) throw error;
    plan = resolveReviewPlan(app, DEFAULT_REPO_CONFIG, source);
    issues.push(...error.issues);
  }
  return { plan, lenses: lensesFor(plan, builtInLenses), issues };
}

/** Lens definitions for a plan: the built-in ones it names, then the repository's own. */
export function lensesFor(plan: ReviewPlan, builtIn: readonly LensDefinition[]): LensDefinition[] {
  const byId = new Map(builtIn.map((lens) => [lens.id, lens]));
  const custom = new Map(
    plan.customLenses.map((lens): [string, LensDefinition] => [
      lens.id,
      {
        id: lens.id,
        title: lens.title,
        emoji: lens.emoji,
        prompt: lens.prompt,
        source: REPO_CONFIG_PATH,
      },
    ]),
  );
  return plan.lenses.flatMap((id) => byId.get(id) ?? custom.get(id) ?? []);
}

function isLoaded(repo: LoadedRepoChoices | RepoConfig): repo is LoadedRepoChoices {
  return "config" in repo && "issues" in repo;
}
