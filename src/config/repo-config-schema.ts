import { z } from "zod";
import { REPO_CONFIG_LIMITS as LIMITS } from "./repo-config-limits.js";
import { compileSafeGlob } from "./safe-glob.js";
import { LensId } from "./schema.js";

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
      let states = 0;
      for (const [index, glob] of globs.entries()) {
        const compiled = compileSafeGlob(glob);
        states += compiled.ok ? compiled.stateCount : 0;
        if (states > LIMITS.ignoreMatcherStates) {
          context.addIssue({
            code: "custom",
            path: [index],
            message: `the ignore globs up to here compile to over ${LIMITS.ignoreMatcherStates} matcher states: use fewer or simpler globs`,
          });
          return;
        }
      }
    })
    .default([]),
  /** The comment phrase that starts a round; matched case-insensitively at a line start. */
  trigger: z.string().trim().min(2).max(60).default("@gadfly review"),
  onPush: z.enum(["review", "off"]).default("review"),
  /** Review draft pull requests on push too. */
  drafts: z.boolean().default(false),
});
export type RepoConfig = z.infer<typeof RepoConfig>;

export const DEFAULT_REPO_CONFIG: RepoConfig = RepoConfig.parse({});
