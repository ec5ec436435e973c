import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { usageFigures } from "../accounting/index.js";
import { publicFailureReason } from "../agent/index.js";
import type { AppConfig } from "../config/index.js";
import {
  type Accepts,
  DatasetError,
  type GoldComment,
  JUDGE_SYSTEM_PROMPT,
  type JudgedFinding,
  type JudgeFigures,
  judgeKey,
  judgePrompt,
  parseJudgeAnswer,
} from "../eval/index.js";
import { createNodeFetch } from "../http/index.js";
import {
  createInMemoryModelCallLimiter,
  limitedModelFactory,
  modelCallIdleTimeoutMs,
  providerCap,
} from "../llm/index.js";
import { UsageError } from "./usage-error.js";

/** What one pair's judgement left in the cache: the verdict (or why there is none) and its cost. */
interface Cached {
  verdict: "same" | "different" | "unreadable";
  problem?: string;
}

/** Pairs one entry may put to the judge: a bound on its calls (the rest count as no match). */
export const MAX_JUDGED_PAIRS_PER_ENTRY = 200;
const MAX_PROBLEMS = 5;

export interface EvalJudge {
  model: string;
  /** Judges each pair (from the cache when it was judged before); the verdicts and their figures. */
  judge(
    pairs: readonly { finding: JudgedFinding; gold: GoldComment }[],
    signal: AbortSignal,
  ): Promise<{ accepts: Accepts<JudgedFinding>; figures: JudgeFigures }>;
  close(): void;
}

/**
 * `gadfly eval --judge MODEL`: a model of the config, asked for each location match whether
 * the finding and the gold comment name the same problem. One chat turn per pair, the two texts
 * fenced as untrusted, a strict answer block; every answered judgement is cached on disk under
 * `cacheDir` by judgeKey, so a re-run asks nothing again. A pair the judge did not answer
 * readably (or whose call failed) is no match.
 */
export function createEvalJudge(options: {
  config: AppConfig;
  modelId: string;
  env: Record<string, string | undefined>;
  cacheDir: string;
}): EvalJudge {
  const { config, modelId } = options;
  const modelConfig = config.models.find((model) => model.id === modelId);
  if (modelConfig === undefined) {
    throw new UsageError(
      `--judge: unknown model "${modelId}" (the config has: ${config.models.map((m) => m.id).join(", ")})`,
    );
  }
  const provider = config.providers.find((p) => p.name === modelConfig.provider);
  if (provider === undefined || provider.type === "command") {
    throw new UsageError(
      `--judge: "${modelId}" is not a chat model (the judge needs an http provider, not an agent CLI)`,
    );
  }
  const modelCalls = createInMemoryModelCallLimiter(providerCap(config));
  const httpFetch = createNodeFetch({ idleTimeoutMs: modelCallIdleTimeoutMs(config) });
  const model = limitedModelFactory({ env: options.env, modelCalls, fetch: httpFetch })(
    modelConfig,
    provider,
    "eval-judge",
  );
  const ask = async (gold: GoldComment, finding: JudgedFinding, signal: AbortSignal) => {
    if (model.kind !== "chat") throw new UsageError(`--judge: "${modelId}" is not a chat model`);
    const started = Date.now();
    const answer = await model.chat({
      messages: [
        { role: "system", content: JUDGE_SYSTEM_PROMPT },
        { role: "user", content: judgePrompt(gold, finding) },
      ],
      signal,
    });
    const parsed = parseJudgeAnswer(answer.text);
    const cached: Cached = parsed.ok
      ? { verdict: parsed.same ? "same" : "different" }
      : { verdict: "unreadable", problem: parsed.problem };
    return {
      cached,
      spend: usageFigures(answer.usage, Date.now() - started, modelConfig.price),
    };
  };
  return {
    model: modelId,
    async judge(pairs, signal) {
      const figures: JudgeFigures = {
        model: modelId,
        pairs: 0,
        cached: 0,
        same: 0,
        different: 0,
        unreadable: 0,
        failed: 0,
        spend: { inputTokens: 0, outputTokens: 0, costUsd: 0, durationMs: 0 },
        problems: [],
      };
      const problem = (text: string) => {
        if (figures.problems.length < MAX_PROBLEMS) figures.problems.push(text);
      };
      const same = new Set<string>();
      for (const [index, { finding, gold }] of pairs.entries()) {
        const key = judgeKey(modelId, gold, finding);
        if (index >= MAX_JUDGED_PAIRS_PER_ENTRY) {
          figures.failed++;
          if (index === MAX_JUDGED_PAIRS_PER_ENTRY)
            problem(
              `more than ${MAX_JUDGED_PAIRS_PER_ENTRY} pairs in one entry: the rest were not judged (no match)`,
            );
          continue;
        }
        figures.pairs++;
        let verdict = await readCached(options.cacheDir, key);
        if (verdict === null) {
          try {
            const asked = await ask(gold, finding, signal);
            verdict = asked.cached;
            figures.spend = addSpend(figures.spend, asked.spend);
            await writeCached(options.cacheDir, key, verdict);
          } catch (error) {
            if (signal.aborted) throw error;
            figures.failed++;
            problem(
              `${gold.path}:${gold.fromLine}: the judge's call failed: ${publicFailureReason(error)}`,
            );
            continue;
          }
        } else {
          figures.cached++;
        }
        if (verdict.verdict === "same") {
          figures.same++;
          same.add(key);
        } else if (verdict.verdict === "different") {
          figures.different++;
        } else {
          figures.unreadable++;
          problem(
            `${gold.path}:${gold.fromLine}: ${verdict.problem ?? "unreadable answer"} (no match)`,
          );
        }
      }
      return {
        accepts: (finding, gold) => same.has(judgeKey(modelId, gold, finding)),
        figures,
      };
    },
    close() {
      void modelCalls.close();
      httpFetch.close();
    },
  };
}

async function readCached(dir: string, key: string): Promise<Cached | null> {
  let text: string;
  try {
    text = await readFile(join(dir, `${key}.json`), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new DatasetError(`--judge-cache ${dir}: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as Cached;
    if (["same", "different", "unreadable"].includes(value.verdict)) return value;
  } catch {
    // Said below.
  }
  throw new DatasetError(`--judge-cache ${dir}: ${key}.json is not a judgement (delete it)`);
}

async function writeCached(dir: string, key: string, value: Cached): Promise<void> {
  await mkdir(dir, { recursive: true });
  // Written whole, then renamed: an interrupted run never leaves half a judgement.
  const path = join(dir, `${key}.json`);
  await writeFile(`${path}.tmp`, `${JSON.stringify(value)}\n`);
  await rename(`${path}.tmp`, path);
}

function addSpend(a: JudgeFigures["spend"], b: JudgeFigures["spend"]): JudgeFigures["spend"] {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    durationMs: a.durationMs + b.durationMs,
  };
}
