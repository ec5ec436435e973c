import { z } from "zod";
import { REPO_CONFIG_LIMITS as LIMITS } from "./repo-config-limits.js";
import { compileSafeGlob } from "./safe-glob.js";
import { LensId, PublishPolicy } from "./schema.js";

/**
 * `.github/gadfly.yml`, read from the default branch. A repository chooses
 * among the app's models and lenses and adds lenses of its own; it can never
 * add a provider, a host or a key (strict objects: unknown keys are errors).
 * Every list and text is bounded (REPO_CONFIG_LIMITS): the file is untrusted input.
 */
const RepoLensId = LensId.max(LIMITS.lensIdChars);

export const RepoLens = z.strictObject({
  id: RepoLensId,
  title: z.string().min(1).max(80),
  emoji: z.string().min(1).max(8).default("🔎"),
  /** What this lens hunts for; the output contract is appended by Gadfly. */
  prompt: z.string().min(20).max(LIMITS.customLensPromptChars),
});
export type RepoLens = z.infer<typeof RepoLens>;

/** One `ignore` entry: a glob of the safe subset (see compileSafeGlob), or the reason it is not. */
const IgnoreGlob = z
  .string()
  .min(1)
  .max(LIMITS.ignoreGlobChars)
  .superRefine((glob, context) => {
    if (glob.length > LIMITS.ignoreGlobChars) return;
    const compiled = compileSafeGlob(glob);
    if (!compiled.ok) context.addIssue({ code: "custom", message: compiled.problem });
  });

/**
 * The index of the first glob at which the compiled matcher states of the globs so far pass
 * `limit`, or null: the bound on the work per character of each path they are matched against.
 */
function firstOverStates(globs: readonly string[], limit: number): number | null {
  let states = 0;
  for (const [index, glob] of globs.entries()) {
    const compiled = compileSafeGlob(glob);
    states += compiled.ok ? compiled.stateCount : 0;
    if (states > limit) return index;
  }
  return null;
}

/** A repository's publishing choices: the fields it sets override the app's `publish`. */
export const RepoPublish = z.strictObject({
  inline: PublishPolicy.shape.inline.unwrap().optional(),
  minSeverity: PublishPolicy.shape.minSeverity.unwrap().optional(),
  maxInline: PublishPolicy.shape.maxInline.unwrap().optional(),
});
export type RepoPublish = z.infer<typeof RepoPublish>;

/** Review instructions for the files matched by `paths` (globs of the same safe subset as `ignore`). */
export const RepoInstruction = z.strictObject({
  paths: z.array(IgnoreGlob).min(1).max(LIMITS.instructionPaths),
  text: z.string().trim().min(1).max(LIMITS.instructionTextChars),
});
export type RepoInstruction = z.infer<typeof RepoInstruction>;

/** Bots whose pull requests are skipped unless `filters.reviewBots` is true. */
export const DEFAULT_SKIPPED_AUTHORS = ["dependabot[bot]", "renovate[bot]"] as const;

/** Titles skipped by default (see matchTitlePattern): work in progress, an explicit opt-out. */
export const DEFAULT_SKIPPED_TITLES = [
  "^WIP",
  "^[WIP]",
  "^Draft:",
  "^DO NOT MERGE",
  "[skip review]",
  "[no review]",
  "[skip gadfly]",
] as const;

const FilterName = z.string().trim().min(1).max(LIMITS.filterNameChars);
const FilterNames = z.array(FilterName).max(LIMITS.filterEntries);
const TitlePattern = z
  .string()
  .min(1)
  .max(LIMITS.titlePatternChars)
  .refine((pattern) => pattern.replace(/^\^/, "").trim() !== "", {
    message: "a title pattern needs some text besides `^`",
  });
const BranchGlobs = z.array(IgnoreGlob).max(LIMITS.filterEntries);

/**
 * Above this size (the pull request's changed files, or its added plus deleted lines, as GitHub
 * counts them) a push's round is replaced by one comment asking to split the pull request. (A
 * round that runs fewer models and lenses on a large change is the operator's
 * `budget.downshift`, which applies whatever triggered the round.)
 */
export const RepoMaxSize = z
  .strictObject({
    files: z.number().int().min(1).optional(),
    changedLines: z.number().int().min(1).optional(),
    /**
     * What a pull request over the size gets: `split`, one comment asking to split it instead of
     * a round; `downshift`, a round of only `lenses` and/or `models` (said on the board).
     */
    over: z.enum(["split", "downshift"]).default("split"),
    lenses: z.array(RepoLensId).min(1).max(LIMITS.filterEntries).optional(),
    models: z
      .array(z.string().min(1).max(LIMITS.modelIdChars))
      .min(1)
      .max(LIMITS.filterEntries)
      .optional(),
  })
  .refine((size) => size.files !== undefined || size.changedLines !== undefined, {
    message: "give files or changedLines (the size above which the cap applies)",
  })
  .refine(
    (size) =>
      size.over === "downshift"
        ? size.lenses !== undefined || size.models !== undefined
        : size.lenses === undefined && size.models === undefined,
    {
      message:
        "with over: downshift give lenses or models (what the round still runs); without it, neither",
    },
  );
export type RepoMaxSize = z.infer<typeof RepoMaxSize>;

/**
 * Which pull requests a push reviews. A writer's `@gadfly review` (or re-run of the check)
 * reviews whatever these say; a skipped push says why on the check.
 */
export const RepoFilters = z.strictObject({
  /** Logins whose pull requests are skipped, besides DEFAULT_SKIPPED_AUTHORS. */
  skipAuthors: FilterNames.default([]),
  /** Review the default bots' pull requests (dependabot, renovate) after all. */
  reviewBots: z.boolean().default(false),
  /** A pull request with any of these labels is skipped. */
  skipLabels: FilterNames.default([]),
  /** When given, only a pull request with one of these labels is reviewed. */
  onlyLabels: FilterNames.default([]),
  /** Title patterns (literal, case-insensitive, `^` for the start); these replace the defaults. */
  skipTitles: z
    .array(TitlePattern)
    .max(LIMITS.filterEntries)
    .default([...DEFAULT_SKIPPED_TITLES]),
  /** When given, only pull requests into a branch these globs match are reviewed. */
  baseBranches: BranchGlobs.default([]),
  /** Pull requests into a branch these globs match are skipped. */
  skipBaseBranches: BranchGlobs.default([]),
  maxSize: RepoMaxSize.optional(),
});
export type RepoFilters = z.infer<typeof RepoFilters>;

export const RepoConfig = z.strictObject({
  /** Model ids from the app config; default: all of them. */
  models: z
    .array(z.string().min(1).max(LIMITS.modelIdChars))
    .min(1)
    .max(LIMITS.modelChoices)
    .optional(),
  /** Lens ids (built-in or `customLenses`); default: the app's lenses. */
  lenses: z.array(RepoLensId).min(1).max(LIMITS.lensChoices).optional(),
  customLenses: z
    .array(RepoLens)
    .max(LIMITS.customLenses)
    .superRefine((lenses, context) => {
      const seen = new Set<string>();
      lenses.forEach((lens, index) => {
        if (seen.has(lens.id)) {
          context.addIssue({
            code: "custom",
            path: [index, "id"],
            message: `duplicate lens id "${lens.id}"`,
          });
        }
        seen.add(lens.id);
      });
    })
    .default([]),
  /** Globs of paths left out of the review (listed as not reviewed). */
  ignore: z
    .array(IgnoreGlob)
    .max(LIMITS.ignoreGlobs)
    .superRefine((globs, context) => {
      const over = firstOverStates(globs, LIMITS.ignoreMatcherStates);
      if (over === null) return;
      context.addIssue({
        code: "custom",
        path: [over],
        message: `the ignore globs up to here compile to over ${LIMITS.ignoreMatcherStates} matcher states: use fewer or simpler globs`,
      });
    })
    .default([]),
  /** The comment phrase that starts a round; matched case-insensitively at a line start. */
  trigger: z.string().trim().min(2).max(60).default("@gadfly review"),
  onPush: z.enum(["review", "off"]).default("review"),
  /** Review draft pull requests on push too. */
  drafts: z.boolean().default(false),
  /**
   * Which findings are posted inline; each field unset here is the app's (`publish` in
   * gadfly.config.yml, by default `inline: agreed`, `minSeverity: nit`, `maxInline: 30`).
   */
  publish: RepoPublish.optional(),
  /**
   * `repo`: a finding like one dismissed in another pull request of this repository (same
   * directory and extension, a similar title) is held back, and the consensus counts it.
   */
  learn: z.enum(["off", "repo"]).default("off"),
  /**
   * One model (the first that completed the round) writes a few lines of what the PR does and
   * its files grouped by what they do, atop the consensus comment, from what the reviewers read.
   */
  summary: z.boolean().default(true),
  /** Review instructions for the files their `paths` match. */
  instructions: z
    .array(RepoInstruction)
    .max(LIMITS.instructions)
    .superRefine((instructions, context) => {
      const globs = instructions.flatMap((instruction, entry) =>
        instruction.paths.map((glob, index) => ({ glob, path: [entry, "paths", index] })),
      );
      const over = firstOverStates(
        globs.map(({ glob }) => glob),
        LIMITS.instructionMatcherStates,
      );
      if (over === null) return;
      context.addIssue({
        code: "custom",
        path: globs[over]?.path ?? [],
        message: `the instruction paths up to here compile to over ${LIMITS.instructionMatcherStates} matcher states: use fewer or simpler globs`,
      });
    })
    .default([]),
  /** Which pull requests a push reviews (authors, labels, titles, base branches, size). */
  filters: RepoFilters.default(RepoFilters.parse({})),
});
export type RepoConfig = z.infer<typeof RepoConfig>;

export const DEFAULT_REPO_CONFIG: RepoConfig = RepoConfig.parse({});
