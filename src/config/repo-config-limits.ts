/**
 * Bounds on what a repository's `.github/gadfly.yml` may ask for. The file is
 * written by whoever controls the default branch of any installed repository,
 * so none of it may multiply the app's work or stall the event loop: a value
 * over a bound is an invalid field (named in the notice), never truncated
 * silently. A round runs at most (app models) × (app lenses + customLenses)
 * reviewers, whatever the file says: model and lens choices are deduplicated
 * and limited to what the app has.
 */
export const REPO_CONFIG_LIMITS = {
  /** The whole file; parsing it is linear, this keeps it short. */
  fileBytes: 64 * 1024,
  /** Entries of `models:` (deduplicated afterwards; only the app's models count). */
  modelChoices: 50,
  modelIdChars: 200,
  /** Entries of `lenses:` (deduplicated; only the app's and the file's own lenses count). */
  lensChoices: 30,
  lensIdChars: 64,
  /** Each custom lens is one more reviewer per model. */
  customLenses: 10,
  /** Twice the longest built-in lens prompt: each is sent once per model. */
  customLensPromptChars: 8_000,
  ignoreGlobs: 50,
  ignoreGlobChars: 200,
  /**
   * Compiled matcher states over all `ignore` globs together: the bound on the
   * work per character of each changed path (matching is linear in the path).
   */
  ignoreMatcherStates: 2_000,
  /** Entries of `instructions:`; each one's text goes to every reviewer whose files it matches. */
  instructions: 20,
  instructionTextChars: 4_000,
  /** Globs of one instruction's `paths`, each at most `ignoreGlobChars`. */
  instructionPaths: 20,
  /** Compiled matcher states over every instruction's `paths` together (as `ignoreMatcherStates`). */
  instructionMatcherStates: 2_000,
  /** Entries of each `filters` list (authors, labels, title patterns, base branches). */
  filterEntries: 50,
  /** A login (GitHub's are at most 39 characters, `[bot]` adds 5), a label (GitHub: 50). */
  filterNameChars: 100,
  /** A title pattern: literal text, matched without a RegExp. */
  titlePatternChars: 100,
} as const;
