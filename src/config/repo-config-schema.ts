import { z } from "zod";
import { LensId } from "./schema.js";

/**
 * `.github/gadfly.yml`, read from the default branch. A repository chooses
 * among the app's models and lenses and adds lenses of its own; it can never
 * add a provider, a host or a key (strict objects: unknown keys are errors).
 */
export const RepoLens = z.strictObject({
  id: LensId,
  title: z.string().min(1).max(80),
  emoji: z.string().min(1).max(8).default("🔎"),
  /** What this lens hunts for; the output contract is appended by Gadfly. */
  prompt: z.string().min(20).max(20_000),
});
export type RepoLens = z.infer<typeof RepoLens>;

export const RepoConfig = z.strictObject({
  /** Model ids from the app config; default: all of them. */
  models: z.array(z.string().min(1)).min(1).optional(),
  /** Lens ids (built-in or `customLenses`); default: the app's lenses. */
  lenses: z.array(LensId).min(1).optional(),
  customLenses: z.array(RepoLens).max(10).default([]),
  /** Globs of paths left out of the review (listed as not reviewed). */
  ignore: z.array(z.string().min(1)).max(200).default([]),
  /** The comment phrase that starts a round; matched case-insensitively at a line start. */
  trigger: z.string().trim().min(2).max(60).default("@gadfly review"),
  onPush: z.enum(["review", "off"]).default("review"),
  /** Review draft pull requests on push too. */
  drafts: z.boolean().default(false),
});
export type RepoConfig = z.infer<typeof RepoConfig>;

export const DEFAULT_REPO_CONFIG: RepoConfig = RepoConfig.parse({});
