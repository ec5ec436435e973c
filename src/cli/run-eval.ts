import { appendFile, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { addUsageFigures, budgetReached, noUsage, type UsageFigures } from "../accounting/index.js";
import { loadLenses } from "../agent/index.js";
import { loadAppConfig, planReview } from "../config/index.js";
import {
  DatasetError,
  type EntryResult,
  EntryResultLine,
  formatEval,
  loadDataset,
  summarizeResults,
} from "../eval/index.js";
import { redactSecrets } from "../llm/index.js";
import { collectSecrets } from "../run/index.js";
import { detectIsolation } from "../sandbox/index.js";
import type { EvalCommandOptions } from "./cli-command.js";
import { createEvalJudge } from "./eval-judge.js";
import type { CliIo } from "./main.js";
import { parseChoices } from "./parse-choices.js";
import { requireKeys } from "./require-keys.js";
import { resolveCliConfigPath } from "./resolve-cli-config-path.js";
import { reviewEvalEntry } from "./review-eval-entry.js";
import { terminalSafeText } from "./terminal-safe-text.js";

/**
 * `gadfly eval`: every entry of the dataset reviewed in its clone and scored against its gold
 * comments; the report on stdout (or --output), a progress line per entry on stderr.
 */
export async function runEval(options: EvalCommandOptions, io: CliIo): Promise<number> {
  const env = { ...io.env };
  env.GADFLY_CONFIG = resolveCliConfigPath(options.configPath, io.env, io.cwd).path;
  const config = await loadAppConfig(env, io.cwd);
  const planned = planReview(
    options.concurrency === null
      ? config
      : { ...config, review: { ...config.review, concurrency: options.concurrency } },
    parseChoices(options),
    await loadLenses(),
    "command line",
  );
  const { lenses } = planned;
  // Eval scores findings against gold comments: a summary would only cost.
  const plan = { ...planned.plan, summary: false };
  if (options.replayDir === null)
    requireKeys(
      config,
      plan.models.map((model) => model.provider),
      env,
    );
  const all = await loadDataset({
    path: resolve(io.cwd, options.dataset),
    reposDir: options.reposDir === null ? null : resolve(io.cwd, options.reposDir),
  });
  const entries = options.limit === null ? all : all.slice(0, options.limit);
  const resumePath = options.resume === null ? null : resolve(io.cwd, options.resume);
  const measuredUnder = {
    window: options.window,
    models: plan.models.map((model) => model.id),
    lenses: plan.lenses,
    judge: options.judge,
  };
  const done =
    resumePath === null
      ? new Map<string, EntryResult>()
      : await readResults(resumePath, measuredUnder);
  const secrets = collectSecrets({ env, providers: config.providers });
  const describe = (error: unknown) =>
    terminalSafeText(
      redactSecrets(error instanceof Error ? error.message : String(error), secrets),
      {
        oneLine: true,
      },
    );
  const runsAgents =
    options.replayDir === null &&
    plan.models.some(
      (m) => config.providers.find((p) => p.name === m.provider)?.type === "command",
    );
  const isolation = runsAgents
    ? await detectIsolation(config.sandbox, {
        configSource: env.GADFLY_CONFIG ?? "gadfly.config.yml",
      })
    : undefined;
  if (options.judge !== null) {
    const judgeModel = config.models.find((model) => model.id === options.judge);
    requireKeys(config, judgeModel === undefined ? [] : [judgeModel.provider], env);
  }
  // Built last before the run: its HTTP client is closed in the run's finally.
  const judge =
    options.judge === null
      ? null
      : createEvalJudge({
          config,
          modelId: options.judge,
          env,
          cacheDir: resolve(
            io.cwd,
            options.judgeCache ?? join(dirname(resolve(io.cwd, options.dataset)), ".gadfly-judge"),
          ),
        });
  const controller = new AbortController();
  const interrupt = () => controller.abort("interrupted");
  process.once("SIGINT", interrupt);
  const results: EntryResult[] = [];
  let spent: UsageFigures = noUsage();
  let stopped: string | null = null;
  try {
    for (const [index, entry] of entries.entries()) {
      const previous = done.get(entry.id);
      if (previous !== undefined) {
        results.push(previous);
        continue;
      }
      // The daily caps bound the whole run, checked before each entry starts.
      stopped = budgetReached(plan.budget ?? {}, { round: noUsage(), today: spent });
      if (stopped !== null || controller.signal.aborted) {
        stopped ??= "interrupted";
        break;
      }
      const started = Date.now();
      const result = await reviewEvalEntry(entry, {
        config,
        plan,
        lenses,
        env,
        window: options.window,
        recordDir: options.recordDir === null ? null : resolve(io.cwd, options.recordDir),
        replayDir: options.replayDir === null ? null : resolve(io.cwd, options.replayDir),
        isolation,
        spentBefore: async () => spent,
        signal: controller.signal,
        describe,
        judge,
      });
      spent = addUsageFigures(spent, spendFigures(result));
      results.push(result);
      if (resumePath !== null) await appendFile(resumePath, `${JSON.stringify(result)}\n`);
      if (options.progress)
        io.stderr.write(progressLine(index + 1, entries.length, result, Date.now() - started));
    }
  } finally {
    process.off("SIGINT", interrupt);
    judge?.close();
  }
  const summary = summarizeResults(results, options.window, stopped, entries.length);
  const report = formatEval(summary, options.format, { timed: options.replayDir === null });
  if (options.output === null) io.stdout.write(report);
  else await writeFile(resolve(io.cwd, options.output), report);
  // Figures over nothing would read as a measurement: no entry scored is not a result.
  return summary.reviewed === 0 && summary.entries > 0 ? 3 : 0;
}

/** The results file of an earlier run: each line one entry's result; a bad line is said, not skipped. */
async function readResults(
  path: string,
  under: {
    window: number;
    models: readonly string[];
    lenses: readonly string[];
    judge: string | null;
  },
): Promise<Map<string, EntryResult>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw new DatasetError(`--resume ${path}: ${(error as Error).message}`);
  }
  const results = new Map<string, EntryResult>();
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new DatasetError(`--resume ${path}: line ${index + 1} is not JSON`);
    }
    const result = EntryResultLine.safeParse(parsed);
    if (!result.success) {
      throw new DatasetError(`--resume ${path}: line ${index + 1} is not a gadfly eval result`);
    }
    const stored = result.data as EntryResult;
    const measured = { ...stored, judge: stored.judge?.model ?? null };
    const differs = (["window", "models", "lenses", "judge"] as const).find(
      (key) => JSON.stringify(measured[key]) !== JSON.stringify(under[key]),
    );
    if (differs !== undefined && !(differs === "judge" && stored.status === "failed")) {
      throw new DatasetError(
        `--resume ${path}: line ${index + 1} was measured with ${differs} ${JSON.stringify(measured[differs])}, this run with ${JSON.stringify(under[differs])}: its figures would not add up (use another results file)`,
      );
    }
    // A failed entry is tried again: an outage should not stay a gap in the figures.
    if (stored.status === "reviewed") results.set(stored.id, stored);
  }
  return results;
}

/** What an entry spent against the run's caps: the reviewers' and the judge's calls. */
function spendFigures(result: EntryResult): UsageFigures {
  const { total } = result.spend;
  const judged = result.judge?.spend;
  return addUsageFigures({ ...noUsage(), ...total }, { ...noUsage(), ...judged });
}

function progressLine(position: number, count: number, result: EntryResult, ms: number): string {
  const consensus = result.scores.find((score) => score.kind === "consensus");
  const what =
    result.status === "failed"
      ? `not scored: ${result.error ?? "failed"}`
      : `${consensus?.found ?? 0} findings, ${consensus?.matched ?? 0} of ${result.gold} gold comments hit`;
  return `gadfly eval: ${position}/${count} ${result.id}: ${terminalSafeText(what, { oneLine: true })} (${(ms / 1000).toFixed(1)} s)\n`;
}
