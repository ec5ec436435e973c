import { setMaxListeners } from "node:events";
import { stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { loadLenses } from "../agent/index.js";
import type { ReviewPlan } from "../config/index.js";
import { ConfigError, loadAppConfig, planReview } from "../config/index.js";
import type { Consensus } from "../consensus/index.js";
import { ChangedLineIndex } from "../diff/index.js";
import { DatasetError } from "../eval/index.js";
import { createNodeFetch } from "../http/index.js";
import {
  createInMemoryModelCallLimiter,
  limitedModelFactory,
  modelCallIdleTimeoutMs,
  providerCap,
  redactSecrets,
} from "../llm/index.js";
import { notReviewedLabel, renderConsensusComment } from "../render/index.js";
import {
  collectSecrets,
  createReviewerLimiter,
  filesUnderReview,
  prepareChangeSet,
  reviewChange,
} from "../run/index.js";
import { detectIsolation } from "../sandbox/index.js";
import { checkSuggestions } from "../suggestions/index.js";
import { systemClock } from "../time/index.js";
import type { ReviewCommandOptions } from "./cli-command.js";
import { collectLocalChange, type LocalChange, localChangeSource } from "./collect-local-change.js";
import { findIgnoredTreeConfig } from "./find-ignored-tree-config.js";
import { formatJson } from "./format-json.js";
import { formatSarif } from "./format-sarif.js";
import { formatText } from "./format-text.js";
import { helpText } from "./help-text.js";
import { createLensErrorLog } from "./lens-error-log.js";
import { loadDemo } from "./load-demo.js";
import { LocalChangeError } from "./local-change-error.js";
import { packageVersion } from "./package-version.js";
import { parseChoices } from "./parse-choices.js";
import { parseCliArgs } from "./parse-cli-args.js";
import { readBaseConventions } from "./read-base-conventions.js";
import { replayEverything } from "./replay-everything.js";
import type { ReportMeta } from "./report-meta.js";
import { requireKeys } from "./require-keys.js";
import { resolveCliConfigPath } from "./resolve-cli-config-path.js";
import { runEval } from "./run-eval.js";
import { runGit } from "./run-git.js";
import { runInit } from "./run-init.js";
import { runStats } from "./run-stats.js";
import { suggestionsMarkdown } from "./suggestions-markdown.js";
import { TerminalBoard } from "./terminal-board.js";
import { terminalSafeText } from "./terminal-safe-text.js";
import { UsageError } from "./usage-error.js";
import { outputWidth, wrapText } from "./wrap-text.js";

export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where `gadfly worker` hears SIGTERM and SIGINT; the process by default. */
  signals?: Pick<NodeJS.Process, "once">;
  /** Where `gadfly init` asks its question, when it is a terminal. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * `gadfly`: reviews a local change with the same core as the app. Returns the
 * exit code: 0 whatever the verdict (advisory) unless --fail-on is reached
 * (1); 2 for usage, config or repository errors, always as one line; 3 when
 * no model completed the review (never reported as a clean review).
 */
export async function runCli(io: CliIo): Promise<number> {
  try {
    const command = parseCliArgs(io.argv, { isTty: io.stdout.isTTY === true });
    if (command.kind === "help") {
      io.stdout.write(helpText(command.command, outputWidth(io.stdout)));
      return 0;
    }
    if (command.kind === "version") {
      io.stdout.write(`${await packageVersion()}\n`);
      return 0;
    }
    if (command.kind === "worker") {
      // Loaded on demand: a local review need not load Probot, pg and pg-boss.
      const { runWorkerCommand } = await import("../boot/index.js");
      return await runWorkerCommand(command, { ...io, signals: io.signals ?? process });
    }
    if (command.kind === "init") return await runInit(command.options, io);
    if (command.kind === "stats") return await runStats(command.options, io);
    if (command.kind === "eval") return await runEval(command.options, io);
    if (command.kind === "doctor") {
      // Loaded on demand, like the worker: doctor checks what the app will use.
      const { runDoctorCommand } = await import("../boot/index.js");
      return await runDoctorCommand(command.options, io);
    }
    return await review(command.options, io);
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof LocalChangeError ||
      error instanceof DatasetError
    ) {
      io.stderr.write(`gadfly: ${error.message}\n`);
      return 2;
    }
    // The config may not be loaded yet: the environment's secrets and credential shapes.
    const message = redactSecrets(
      error instanceof Error ? error.message : String(error),
      collectSecrets({ env: io.env, providers: [] }),
    );
    io.stderr.write(`gadfly: internal error: ${message}\n`);
    return 70;
  }
}

async function review(options: ReviewCommandOptions, io: CliIo): Promise<number> {
  const demo = options.demo ? await loadDemo() : null;
  const env = { ...io.env };
  // The user's config, never the reviewed tree's (the demo brings its own).
  const configPath = demo?.configPath ?? (await userConfigPath(options, io));
  env.GADFLY_CONFIG = configPath;
  let config = await loadAppConfig(env, io.cwd);
  const replayDir =
    demo?.recordingsDir ?? (options.replayDir === null ? null : resolve(io.cwd, options.replayDir));
  if (replayDir !== null) {
    if (!(await isDirectory(replayDir)))
      throw new UsageError(`--replay: no such directory: ${replayDir}`);
    config = replayEverything(config, replayDir);
  }
  const planned = planReview(
    {
      ...config,
      review: {
        ...config.review,
        ...(options.concurrency === null ? {} : { concurrency: options.concurrency }),
        ...(options.verify ? {} : { verify: false }),
      },
    },
    parseChoices(options),
    await loadLenses(),
    "command line",
  );
  const { lenses } = planned;
  // A local run's summary is asked for (`summary: true` in the config): the user knows the change.
  const plan = {
    ...planned.plan,
    summary: planned.plan.summary === true && config.summary === true,
  };
  requireKeys(
    config,
    plan.models.map((model) => model.provider),
    env,
  );
  // The tree under review is the user's own, but an agent CLI is sandboxed all the same
  // (a checked-out pull request is someone else's files). Probed only when one will run.
  const runsAgents = plan.models.some(
    (model) =>
      config.providers.find((provider) => provider.name === model.provider)?.type === "command",
  );
  const isolation = runsAgents
    ? await detectIsolation(config.sandbox, {
        configSource: env.GADFLY_CONFIG ?? join(".", "gadfly.config.yml"),
      })
    : undefined;

  const local =
    demo ??
    (await collectLocalChange({
      repoPath: resolve(io.cwd, options.repoPath),
      ...(options.base === null ? {} : { base: options.base }),
      ...(options.head === null ? {} : { head: options.head }),
    }));
  try {
    const nothing = nothingToReview(local, plan, options);
    if (nothing !== null) {
      // A round on no change would still cost every model × lens: say so, and call none.
      io.stderr.write(`gadfly: ${terminalSafeText(nothing, { oneLine: true })}\n`);
      return 0;
    }
    // The team's conventions, from the base commit (never the head or the working tree);
    // the demo has no repository, so none.
    const conventionFiles =
      demo === null
        ? await readBaseConventions(
            (args, input) =>
              runGit(args, {
                cwd: resolve(io.cwd, options.repoPath),
                env,
                ...(input === undefined ? {} : { input }),
              }),
            local.baseSha,
            {
              changedPaths: local.files.flatMap((file) =>
                file.oldPath === null || file.oldPath === file.path
                  ? [file.path]
                  : [file.path, file.oldPath],
              ),
              onError: (path, reason) =>
                io.stderr.write(
                  `gadfly: ${terminalSafeText(`conventions: could not read ${path} from the base (${reason}); the review goes on without it`, { oneLine: true })}\n`,
                ),
            },
          )
        : [];
    const board = options.progress
      ? new TerminalBoard({
          stream: io.stderr,
          isTty: io.stderr.isTTY === true,
          ci: io.env.CI !== undefined,
        })
      : null;
    const modelCalls = createInMemoryModelCallLimiter(providerCap(config));
    // One fetch for the run, as in the app: the model calls share its kept-alive sockets, and
    // the global fetch's first call would compile undici's wasm HTTP parser. Closed when the
    // review ends, so no socket of an abandoned call keeps the process alive.
    // A connection may stay silent as long as a reviewer's timeout allows, not undici's 300 s.
    const httpFetch = createNodeFetch({ idleTimeoutMs: modelCallIdleTimeoutMs(config) });
    // The App logs the error behind a failed lens; here it goes to stderr and the report.
    const lensErrors = createLensErrorLog(collectSecrets({ env, providers: config.providers }));
    const controller = new AbortController();
    // Every reviewer in flight listens to this one signal.
    setMaxListeners(0, controller.signal);
    const interrupt = () => controller.abort("interrupted");
    process.once("SIGINT", interrupt);
    const recordDir = options.recordDir === null ? undefined : resolve(io.cwd, options.recordDir);
    const { change, reports, consensus } = await reviewChange({
      subject: { plan, providers: config.providers, lenses, round: 1 },
      change: { source: localChangeSource(local, conventionFiles) },
      runtime: {
        env,
        signal: controller.signal,
        limiter: createReviewerLimiter(plan.review.concurrency),
        clock: systemClock,
        record: recordDir === undefined ? undefined : { dir: recordDir },
        // Each provider's `concurrency` caps its calls in flight, as in the app: a local Ollama
        // set to 1 answers one lens at a time while cloud models run in parallel.
        createModel: limitedModelFactory({
          env,
          modelCalls,
          isolation,
          record: recordDir === undefined ? undefined : { dir: recordDir },
          fetch: httpFetch,
        }),
      },
      journal: {
        onStatus: (status) => board?.update(status),
        onLensError: (model, lens, error) => lensErrors.record(model, lens, error),
      },
    }).finally(() => {
      process.off("SIGINT", interrupt);
      board?.close();
      void modelCalls.close();
      httpFetch.close();
    });
    for (const entry of lensErrors.entries()) {
      const line = `gadfly: ${terminalSafeText(`${entry.model} · ${entry.lens}: ${entry.error}`, { oneLine: true })}`;
      io.stderr.write(`${wrapText(line, outputWidth(io.stderr), () => 2)}\n`);
    }
    if (consensus.modelCount === 0) {
      // Silence would read as "no issues": say that nothing was reviewed, and why.
      const reasons = [...new Set(reports.map((report) => report.failure ?? report.outcome))];
      io.stderr.write(
        `gadfly: no model completed the review (${reasons.slice(0, 3).join("; ")})\n`,
      );
      return 3;
    }
    // Checked against the head's tree while it is still there (the local copy is removed below).
    const suggestions = await checkSuggestions(consensus.clusters, {
      workspaceDir: local.workspaceDir,
      index: ChangedLineIndex.fromFiles(change.files),
    });
    const meta: ReportMeta = {
      toolVersion: await packageVersion(),
      headSha: local.headSha,
      baseSha: local.baseSha,
      notReviewed: change.notReviewed,
      lenses: Object.fromEntries(
        lenses.map((lens) => [lens.id, { title: lens.title, emoji: lens.emoji }]),
      ),
      // A replay's durations would be the replay's own, not model time: a run that replays, or
      // records for a replay, reports none, so the replay prints the recorded run's report.
      lensErrors,
      suggestions,
      usage: {
        timed: replayDir === null && options.recordDir === null,
        priced: new Set(Object.keys(plan.pricing ?? {})),
      },
    };
    const report = formatReport(consensus, options, meta, io);
    if (options.output === null) io.stdout.write(report);
    else await writeFile(resolve(io.cwd, options.output), report);
    return failOnReached(consensus, options) ? 1 : 0;
  } finally {
    await local.cleanup();
  }
}

function formatReport(
  consensus: Consensus,
  options: ReviewCommandOptions,
  meta: ReportMeta,
  io: CliIo,
): string {
  switch (options.format) {
    case "json":
      return formatJson(consensus, meta);
    case "sarif":
      return formatSarif(consensus, meta);
    case "markdown": {
      const rendered = renderConsensusComment(consensus, {
        ...(meta.lenses === undefined ? {} : { lenses: meta.lenses }),
        timed: meta.usage?.timed !== false,
      });
      const suggestions = suggestionsMarkdown(consensus.clusters, meta.suggestions);
      return [
        rendered.body,
        ...rendered.overflow.map((overflow) => overflow.body),
        ...(suggestions === "" ? [] : [suggestions]),
      ].join("\n\n");
    }
    case "text": {
      const color =
        io.env.NO_COLOR === undefined &&
        (io.env.FORCE_COLOR !== undefined || io.stdout.isTTY === true);
      const text = formatText(consensus, {
        color,
        notReviewed: meta.notReviewed,
        ...(meta.lensErrors === undefined ? {} : { lensErrors: meta.lensErrors }),
        timed: meta.usage?.timed !== false,
        ...(meta.suggestions === undefined ? {} : { suggestions: meta.suggestions }),
      });
      // A terminal's width; a file or a pipe gets whole lines.
      return wrapText(
        text,
        options.output === null ? outputWidth(io.stdout) : Infinity,
        listIndent,
      );
    }
  }
}

/** A wrapped line goes on under its text: past the indent, and past a rank (`  12. `). */
function listIndent(line: string): number {
  return /^ *(?:\d+\. )?/.exec(line)?.[0].length ?? 0;
}

/** Git's empty tree in SHA-1 and SHA-256 repositories: the base of a repository with no commit. */
const EMPTY_TREES = [
  "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
];

/**
 * Why there is nothing to review, or null: no file changed, or none of the changed files is one
 * a reviewer is given (binary, generated, deleted…), as the round itself would decide.
 */
function nothingToReview(
  local: Omit<LocalChange, "cleanup" | "diffText">,
  plan: ReviewPlan,
  options: ReviewCommandOptions,
): string | null {
  const base = EMPTY_TREES.includes(local.baseSha) ? "git's empty tree" : local.baseSha.slice(0, 7);
  const between = `between ${base} and ${options.head ?? "the working tree"}`;
  if (local.files.length === 0) return `nothing to review: no change ${between}`;
  const prepared = prepareChangeSet({
    ...local,
    ignore: plan.ignore,
    diffBudgetChars: plan.review.diffBudgetChars,
    alsoNotReviewed: local.notReviewed,
  });
  if (filesUnderReview(prepared).length > 0) return null;
  const shown = prepared.notReviewed
    .slice(0, 3)
    .map((file) => `${file.path} (${notReviewedLabel(file.reason)})`);
  const more =
    prepared.notReviewed.length > 3 ? `, and ${prepared.notReviewed.length - 3} more` : "";
  return `nothing to review: ${plural(local.files.length, "changed file")} ${between}, none a reviewer is given: ${shown.join(", ")}${more}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function failOnReached(consensus: Consensus, options: ReviewCommandOptions): boolean {
  if (options.failOn === null) return false;
  const levels = options.failOn === "high" ? ["high"] : ["high", "medium"];
  return consensus.clusters.some((cluster) => levels.includes(cluster.severity));
}

/**
 * The config named by --config, GADFLY_CONFIG or the user's config directory;
 * says on stderr (one line) when a `gadfly.config.yml` in the tree was left unread.
 */
async function userConfigPath(options: ReviewCommandOptions, io: CliIo): Promise<string> {
  const chosen = resolveCliConfigPath(options.configPath, io.env, io.cwd);
  const repoPath = resolve(io.cwd, options.repoPath);
  const ignored = await findIgnoredTreeConfig(
    [io.cwd, repoPath, ...(await repositoryRoot(repoPath, io.env))],
    chosen.path,
  );
  if (ignored !== null) {
    io.stderr.write(
      `gadfly: ignored ${ignored}: the reviewed tree cannot configure the review; the config is ${chosen.path} (--config, GADFLY_CONFIG or ~/.config/gadfly/config.yml)\n`,
    );
  }
  if (chosen.source === "user config directory" && !(await isFile(chosen.path))) {
    throw new ConfigError(chosen.path, [
      {
        path: "",
        message: `no config yet: \`gadfly init --config ${chosen.path}\` writes a starter one for the providers you pick; or pass --config FILE or set GADFLY_CONFIG (a config in the reviewed tree is never read)`,
      },
    ]);
  }
  return chosen.path;
}

/** The top of the reviewed repository, where a planted config would sit; none outside git. */
async function repositoryRoot(
  repoPath: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  try {
    return [(await runGit(["rev-parse", "--show-toplevel"], { cwd: repoPath, env })).trim()];
  } catch {
    return [];
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
