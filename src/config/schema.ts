import { z } from "zod";

const providerName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' or '-'");

const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

/**
 * Model calls to this provider in flight at once, across every worker sharing
 * the database (or in this one process with SQLite); `review.concurrency` when
 * unset. Set it to the provider's own limit (rate, GPU slots, licence seats).
 */
const providerConcurrency = z.number().int().min(1).max(1024).optional();

export const OpenAIProviderConfig = z.strictObject({
  name: providerName,
  type: z.literal("openai"),
  baseURL: z.url({ protocol: /^https?$/ }).default("https://api.openai.com/v1"),
  apiKeyEnv: envVarName.optional(),
  /** Extra request timeout per call, seconds; the reviewer's own timeout still applies. */
  timeoutSeconds: z.number().positive().optional(),
  concurrency: providerConcurrency,
});
export type OpenAIProviderConfig = z.infer<typeof OpenAIProviderConfig>;

export const OllamaProviderConfig = z.strictObject({
  name: providerName,
  type: z.literal("ollama"),
  host: z.url({ protocol: /^https?$/ }).default("http://127.0.0.1:11434"),
  apiKeyEnv: envVarName.optional(),
  timeoutSeconds: z.number().positive().optional(),
  concurrency: providerConcurrency,
});
export type OllamaProviderConfig = z.infer<typeof OllamaProviderConfig>;

/** The Messages API through `@anthropic-ai/sdk`, directly or through a gateway at `baseURL`. */
export const AnthropicProviderConfig = z.strictObject({
  name: providerName,
  type: z.literal("anthropic"),
  /** The API root: requests go to `<baseURL>/v1/messages`. A gateway's address goes here. */
  baseURL: z.url({ protocol: /^https?$/ }).default("https://api.anthropic.com"),
  /** Sent as `Authorization: Bearer <key>`; without it no credential is sent at all. */
  apiKeyEnv: envVarName.optional(),
  timeoutSeconds: z.number().positive().optional(),
  /** `max_tokens` of each answer, a model's thinking budget not included (the API needs one). */
  maxOutputTokens: z.number().int().min(256).max(128_000).default(8192),
  /**
   * Marks the stable prefix of each conversation (system prompt and first user message, the
   * same bytes for every turn of a reviewer) as a prompt-cache breakpoint.
   */
  promptCaching: z.boolean().default(true),
  concurrency: providerConcurrency,
});
export type AnthropicProviderConfig = z.infer<typeof AnthropicProviderConfig>;

export const CommandProviderConfig = z.strictObject({
  name: providerName,
  type: z.literal("command"),
  /** argv; `{model}` is replaced by the model name. Never run through a shell. */
  command: z.array(z.string().min(1)).min(1),
  /** Environment variables passed through to the child, beyond a minimal safe set. */
  env: z.array(envVarName).default([]),
  concurrency: providerConcurrency,
  /**
   * Review pull requests from forks even when agent CLIs run below the bubblewrap
   * isolation level. Off by default: a fork's author controls every file the CLI reads.
   */
  allowForks: z.boolean().default(false),
  /**
   * More repository paths (relative, `/`-separated; a trailing `/` for a directory)
   * removed from the agent's copy of the snapshot, beyond the built-in list of agent
   * configuration files (`.claude/`, `.mcp.json`, `.codex/`, `.gemini/`…).
   */
  removePaths: z.array(z.string().min(1).max(200)).max(100).default([]),
  /**
   * The CLI writes into its working directory (a scratch file, a lock, a cache beside the
   * code). Each run then gets a writable scrubbed copy of its own instead of the round's one
   * read-only copy, at the price of one copy per run.
   */
  writesWorkspace: z.boolean().default(false),
});
export type CommandProviderConfig = z.infer<typeof CommandProviderConfig>;

export const ReplayProviderConfig = z.strictObject({
  name: providerName,
  type: z.literal("replay"),
  /** Directory of recorded transcripts. */
  dir: z.string().min(1),
  concurrency: providerConcurrency,
});
export type ReplayProviderConfig = z.infer<typeof ReplayProviderConfig>;

export const ProviderConfig = z.discriminatedUnion("type", [
  OpenAIProviderConfig,
  OllamaProviderConfig,
  AnthropicProviderConfig,
  CommandProviderConfig,
  ReplayProviderConfig,
]);
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/**
 * What one model costs, in US dollars per million tokens, as the provider bills it.
 * `cachedInput` (prompt-cache reads) and `cacheWrite` (prompt-cache writes, Anthropic) default
 * to `input` when not given.
 */
export const ModelPrice = z.strictObject({
  input: z.number().min(0).max(10_000),
  cachedInput: z.number().min(0).max(10_000).optional(),
  cacheWrite: z.number().min(0).max(10_000).optional(),
  output: z.number().min(0).max(10_000),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

export const ModelConfig = z.strictObject({
  /** What the board shows, e.g. `glm-5.2:cloud`. */
  id: z.string().min(1),
  provider: providerName,
  /** The provider's model name; defaults to the id. */
  model: z.string().min(1).optional(),
  /**
   * Anthropic models only: tokens the model may spend thinking before each answer (extended
   * thinking, at least 1,024). The thinking is never part of the answer.
   */
  thinkingBudgetTokens: z.number().int().min(1024).max(128_000).optional(),
  /**
   * Other models' ids, tried in order when this model fails a lens with an error its retries
   * cannot fix (or answers empty twice): the lens goes on on the next one. Not transitive: a
   * fallback's own fallbacks are not followed. No self, no repeats, no cycles among models.
   */
  fallbacks: z.array(z.string().min(1)).max(5).optional(),
  /** Estimated costs on the board, the comment, the CLI and the metrics; tokens are counted without it. */
  price: ModelPrice.optional(),
});
export type ModelConfig = z.infer<typeof ModelConfig>;

export const LensId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase letters, digits and '-'");

/**
 * An incremental round whose step changes at most `maxChangedLines` reviewable lines (added plus
 * deleted) is reviewed by `reviewersPerLens` models per lens instead of every model: assigned by
 * round number, so over successive rounds every model covers every lens; lone findings still go
 * to the other models through the cross-examination. 0 lines turns it off. Full rounds (the first,
 * `@gadfly review full`, a rebase) always run every model on every lens.
 */
export const SmallStepConfig = z.strictObject({
  maxChangedLines: z.number().int().min(0).max(1_000_000).default(200),
  reviewersPerLens: z.number().int().min(1).max(64).default(1),
});
export type SmallStepConfig = z.infer<typeof SmallStepConfig>;

export const ReviewConfig = z.strictObject({
  lenses: z
    .array(LensId)
    .min(1)
    .default(["security", "correctness", "maintainability", "performance", "error-handling"]),
  concurrency: z.number().int().min(1).max(64).default(8),
  verify: z.boolean().default(true),
  maxTurns: z.number().int().min(1).max(200).default(24),
  timeoutSeconds: z.number().int().min(1).max(7200).default(900),
  /**
   * Characters of diff hunks in each reviewer's first message, the highest-priority first; every
   * changed file is listed whatever it says, and reviewers read the rest with get_diff. 24,000
   * (~6k tokens) shows a typical pull request whole and the source hunks of a large one, while
   * the first message, resent on every turn, stays a fifth of the old 120,000.
   */
  diffBudgetChars: z.number().int().min(1000).max(2_000_000).default(24_000),
  /**
   * A push's round waits this long for a newer push to the same pull request, so a burst of
   * pushes is reviewed once, at its last head. 0 starts at once. Comments and re-runs never wait.
   */
  debounceSeconds: z.number().int().min(0).max(3600).default(30),
  /**
   * How an incremental round reviews a small step. Absent: the defaults (200 lines, one model
   * per lens).
   */
  smallStep: SmallStepConfig.optional(),
});
export type ReviewConfig = z.infer<typeof ReviewConfig>;

/** The severities a finding can have, highest first (as `findings/` defines them). */
export const PublishSeverity = z.enum(["high", "medium", "low", "nit"]);
export type PublishSeverity = z.infer<typeof PublishSeverity>;

/** GitHub shows long reviews poorly and each inline comment is a notification. */
export const MAX_INLINE_COMMENTS_LIMIT = 30;

/**
 * Which findings get an inline comment on the pull request; every finding is in the
 * consensus comment whatever this says.
 * - `inline: agreed` (default): a finding at least two models agree on, at any severity, or
 *   a single model's `high`; `all`: every finding; `off`: no inline review.
 * - `minSeverity`: findings below it are not posted inline.
 * - `maxInline`: at most this many inline comments per review (0 to 30).
 */
export const PublishPolicy = z.strictObject({
  inline: z.enum(["agreed", "all", "off"]).default("agreed"),
  minSeverity: PublishSeverity.default("nit"),
  maxInline: z
    .number()
    .int()
    .min(0)
    .max(MAX_INLINE_COMMENTS_LIMIT)
    .default(MAX_INLINE_COMMENTS_LIMIT),
});
export type PublishPolicy = z.infer<typeof PublishPolicy>;

/**
 * Cross-examination: once every lens ended, each lone finding (one model reported it) at or
 * above `minSeverity` is put to the other models that completed the round, the most severe
 * first, at most `maxChallenges` findings per round, each a short tool session of `maxTurns`
 * turns within `timeoutSeconds`. A confirmation counts as agreement; a finding most of its
 * challengers refute is shown as disputed and not posted inline. On by default.
 */
export const CrossExaminationConfig = z.strictObject({
  enabled: z.boolean().default(true),
  minSeverity: PublishSeverity.default("medium"),
  maxChallenges: z.number().int().min(0).max(50).default(10),
  maxTurns: z.number().int().min(1).max(20).default(4),
  timeoutSeconds: z.number().int().min(10).max(1800).default(180),
});
export type CrossExaminationConfig = z.infer<typeof CrossExaminationConfig>;

/**
 * How agent CLIs (`command` providers) are isolated from the host. `auto` takes the
 * strongest level that works here: bubblewrap, else (as root) a dedicated
 * unprivileged user, else none. Naming a level makes start-up fail when it does not work.
 */
export const SandboxConfig = z.strictObject({
  isolation: z.enum(["auto", "bwrap", "user", "none"]).default("auto"),
  /** The unprivileged user agent CLIs run as at the `user` level (when Gadfly runs as root). */
  uid: z.number().int().min(1).max(4_294_967_294).default(65534),
  gid: z.number().int().min(1).max(4_294_967_294).default(65534),
});
export type SandboxConfig = z.infer<typeof SandboxConfig>;

/**
 * Above this size the round runs only `lenses` (of the plan's) and `models` (of the plan's):
 * at least one threshold and at least one of the two lists. The size is the change under
 * review (an incremental round's step, not the whole pull request).
 */
export const DownshiftConfig = z
  .strictObject({
    /** Added plus deleted lines of the files under review. */
    aboveChangedLines: z.number().int().min(1).optional(),
    /** Files under review. */
    aboveFiles: z.number().int().min(1).optional(),
    lenses: z.array(LensId).min(1).optional(),
    models: z.array(z.string().min(1)).min(1).optional(),
  })
  .refine(
    (downshift) => downshift.aboveChangedLines !== undefined || downshift.aboveFiles !== undefined,
    {
      message: "give aboveChangedLines or aboveFiles (the size above which the round downshifts)",
    },
  )
  .refine((downshift) => downshift.lenses !== undefined || downshift.models !== undefined, {
    message: "give lenses or models (what a downshifted round still runs)",
  });
export type DownshiftConfig = z.infer<typeof DownshiftConfig>;

/**
 * What a pull request whose author has no write access to the repository (a fork's, a
 * stranger's, a bot's) may start by pushing, so that strangers cannot spend the installation's
 * shared budgets: at most `roundsPerPullRequest` rounds per pull request and
 * `roundsPerAuthor` per author (every repository of the installation) per UTC day, rounds of
 * one pull request at least `minIntervalSeconds` apart, and a push or reopen on a head already
 * reviewed starts nothing. A push over a limit waits (its board says why and until when); a
 * maintainer's `@gadfly review` is never held by these. 0 turns a limit off.
 *
 * `dailyShare`: the fraction of the daily caps (`budget.dailyTokens`, `budget.dailyCostUsd`)
 * all readers' rounds of the installation may spend together in a UTC day, so the rest is left
 * for writers: a reader's round over it is held (at its push) or stops its lenses not yet
 * started (at its claim, and as each lens starts), while writers' rounds run against the whole
 * cap. 1 leaves readers the whole cap; without a daily cap it limits nothing.
 */
export const ReaderLimits = z.strictObject({
  roundsPerPullRequest: z.number().int().min(0).max(1000).default(3),
  roundsPerAuthor: z.number().int().min(0).max(10_000).default(10),
  minIntervalSeconds: z.number().int().min(0).max(86_400).default(600),
  dailyShare: z
    .number()
    .gt(0, "a share of the daily caps above 0 (0.5 = half)")
    .max(1, "a share of the daily caps, at most 1 (the whole cap)")
    .default(0.5),
});
export type ReaderLimits = z.infer<typeof ReaderLimits>;

/**
 * Answers in a finding's thread (`@gadfly <question>`, `@gadfly recheck` by a writer): at most
 * `answersPerPullRequestPerDay` requests of a pull request per UTC day (0 turns answers off),
 * each one short tool session of the model that reported the finding.
 */
export const ThreadAnswerConfig = z.strictObject({
  answersPerPullRequestPerDay: z.number().int().min(0).max(1000).default(10),
  maxTurns: z.number().int().min(1).max(20).default(4),
  timeoutSeconds: z.number().int().min(10).max(600).default(120),
});
export type ThreadAnswerConfig = z.infer<typeof ThreadAnswerConfig>;

/**
 * Caps on what model work may spend. Tokens are input (cached included) plus output, as
 * providers count them. `roundTokens` per round; `dailyTokens` and `dailyCostUsd` per
 * installation per UTC day (the app's own spend, every repository of the installation). A cap
 * reached stops lenses that have not started; lenses running finish.
 */
export const BudgetConfig = z.strictObject({
  roundTokens: z.number().int().min(1).optional(),
  dailyTokens: z.number().int().min(1).optional(),
  /** Needs a price for every model, so no model's spend goes uncounted. */
  dailyCostUsd: z.number().positive().optional(),
  downshift: DownshiftConfig.optional(),
});
export type BudgetConfig = z.infer<typeof BudgetConfig>;

/** Budget ids name existing models and lenses; a cost cap has every model priced. */
function checkBudget(
  config: { budget: BudgetConfig; models: readonly ModelConfig[]; review: ReviewConfig },
  ctx: z.RefinementCtx,
): void {
  const { budget } = config;
  const models = config.models.map((model) => model.id);
  (budget.downshift?.models ?? []).forEach((id, index) => {
    if (!models.includes(id)) {
      ctx.addIssue({
        code: "custom",
        path: ["budget", "downshift", "models", index],
        message: `unknown model "${id}" (known: ${models.join(", ")})`,
      });
    }
  });
  (budget.downshift?.lenses ?? []).forEach((id, index) => {
    if (!config.review.lenses.includes(id)) {
      ctx.addIssue({
        code: "custom",
        path: ["budget", "downshift", "lenses", index],
        message: `unknown lens "${id}" (review.lenses: ${config.review.lenses.join(", ")})`,
      });
    }
  });
  const unpriced = config.models.filter((model) => model.price === undefined);
  if (budget.dailyCostUsd !== undefined && unpriced.length > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["budget", "dailyCostUsd"],
      message: `a cost cap needs a price for every model (models[].price; 0 for a free one), none for: ${unpriced.map((model) => model.id).join(", ")}`,
    });
  }
}

/** Each fallback names another known model, once; the fallback graph has no cycle. */
function checkFallbacks(models: readonly ModelConfig[], ctx: z.RefinementCtx): void {
  const known = new Set(models.map((model) => model.id));
  models.forEach((model, index) => {
    const seen = new Set<string>();
    (model.fallbacks ?? []).forEach((id, position) => {
      const path = ["models", index, "fallbacks", position];
      const problem =
        id === model.id
          ? `"${id}" is this model itself`
          : !known.has(id)
            ? `unknown model "${id}" (known: ${[...known].join(", ")})`
            : seen.has(id)
              ? `"${id}" is listed twice`
              : undefined;
      if (problem !== undefined) ctx.addIssue({ code: "custom", path, message: problem });
      seen.add(id);
    });
  });
  const next = new Map(models.map((model) => [model.id, model.fallbacks ?? []]));
  const reported = new Set<string>();
  models.forEach((model, index) => {
    const cycle = findCycle(model.id, next);
    if (cycle === undefined || reported.has(cycle.slice().sort().join("\u0000"))) return;
    reported.add(cycle.slice().sort().join("\u0000"));
    ctx.addIssue({
      code: "custom",
      path: ["models", index, "fallbacks"],
      message: `fallbacks form a cycle: ${[...cycle, cycle[0]].join(" → ")}`,
    });
  });
}

/** The cycle through `start` in the fallback graph, if there is one. */
function findCycle(
  start: string,
  next: ReadonlyMap<string, readonly string[]>,
): string[] | undefined {
  const path: string[] = [];
  const visit = (id: string, visited: Set<string>): string[] | undefined => {
    path.push(id);
    for (const following of next.get(id) ?? []) {
      if (following === start && path.length > 1) return [...path];
      if (following === id || visited.has(following)) continue;
      visited.add(following);
      const found = visit(following, visited);
      if (found !== undefined) return found;
    }
    path.pop();
    return undefined;
  };
  return visit(start, new Set([start]));
}

export const AppConfig = z
  .strictObject({
    providers: z.array(ProviderConfig).min(1),
    models: z.array(ModelConfig).min(1),
    review: ReviewConfig.default(ReviewConfig.parse({})),
    sandbox: SandboxConfig.default(SandboxConfig.parse({})),
    /** The default publishing policy; a repository's `publish` overrides it field by field. */
    publish: PublishPolicy.default(PublishPolicy.parse({})),
    crossExamination: CrossExaminationConfig.default(CrossExaminationConfig.parse({})),
    /**
     * One model's summary of the change atop the consensus comment (a repository's `summary:
     * false` turns it off). Absent: on for the app, off for `gadfly review` (`true` turns it on).
     */
    summary: z.boolean().optional(),
    /** Caps on tokens and cost, and the downshift of large changes; none by default. */
    budget: BudgetConfig.default({}),
    /** Rounds of pull requests whose author cannot write to the repository; on by default. */
    readers: ReaderLimits.default(ReaderLimits.parse({})),
    /** `@gadfly` questions and re-checks in findings' threads; 10 a pull request a day by default. */
    threads: ThreadAnswerConfig.default(ThreadAnswerConfig.parse({})),
  })
  .superRefine((config, ctx) => {
    const names = new Set<string>();
    config.providers.forEach((provider, index) => {
      if (names.has(provider.name)) {
        ctx.addIssue({
          code: "custom",
          path: ["providers", index, "name"],
          message: `duplicate provider name "${provider.name}"`,
        });
      }
      names.add(provider.name);
    });
    const ids = new Set<string>();
    config.models.forEach((model, index) => {
      const type = config.providers.find((provider) => provider.name === model.provider)?.type;
      if (model.thinkingBudgetTokens !== undefined && type !== undefined && type !== "anthropic") {
        ctx.addIssue({
          code: "custom",
          path: ["models", index, "thinkingBudgetTokens"],
          message: `only models of an anthropic provider take a thinking budget ("${model.provider}" is ${type})`,
        });
      }
      if (!names.has(model.provider)) {
        ctx.addIssue({
          code: "custom",
          path: ["models", index, "provider"],
          message: `unknown provider "${model.provider}" (known: ${[...names].join(", ")})`,
        });
      }
      if (ids.has(model.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["models", index, "id"],
          message: `duplicate model id "${model.id}"`,
        });
      }
      ids.add(model.id);
    });
    checkFallbacks(config.models, ctx);
    checkBudget(config, ctx);
  });
export type AppConfig = z.infer<typeof AppConfig>;
