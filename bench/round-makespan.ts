/**
 * Benchmark 1, round makespan: 4 models × 5 lenses through the real review core (`reviewRound`,
 * the limiter, the tool loop, the verify pass) against in-process models whose turns sleep for a
 * seeded random time (200–2,000 ms, 3–6 review turns of which all but the last call a tool, then
 * one verify turn). Real timers: sleeping is the point.
 *
 * The ideal is computed from the same scripted durations:
 * - lower bound: max(longest (model, lens) chain, total work / concurrency); with concurrency ≥ the
 *   20 reviewers it is the longest chain, the round's critical path;
 * - FIFO reference: the schedule a zero-overhead FIFO limiter would produce in the order the round
 *   enqueues its jobs; with a lower concurrency this is what the core's policy can reach at best
 *   without knowing durations in advance (the lower bound may not be reachable at all).
 * Targets: makespan ÷ lower bound ≤ 1.05 with concurrency ≥ reviewers; makespan ÷ FIFO reference
 * ≤ 1.05 at concurrency 8 (reported against the lower bound too). Exits 1 when one is missed.
 * Run: `npx tsx bench/round-makespan.ts` (BENCH_TIME_SCALE=0.5 halves every sleep).
 */
import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { loadLenses } from "../src/agent/load-lenses.js";
import type { ReviewPlan } from "../src/config/resolve-review-plan.js";
import type { ModelConfig, ProviderConfig } from "../src/config/schema.js";
import { renderLensAnswer } from "../src/findings/findings-block.js";
import type { LensFinding } from "../src/findings/schema.js";
import type { ChatModel, ChatRequest, ChatResult } from "../src/llm/language-model.js";
import type { ChangeSet } from "../src/run/change-set.js";
import { reviewRound } from "../src/run/review-round.js";
import { createReviewerLimiter } from "../src/run/reviewer-limiter.js";
import { FIXTURE_REPO } from "../test/agent/helpers/temporary-workspace.js";
import { printReport } from "./print-report.js";
import { type ReviewerJob, scheduleBounds } from "./schedule-bounds.js";
import { seededRandom } from "./seeded-random.js";

const SEED = 20_260_901;
const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 1);
const MAX_RATIO = 1.05;
const MODELS: ModelConfig[] = ["glm-5.2:cloud", "kimi-k2.6:cloud", "gpt-a", "gpt-b"].map((id) => ({
  id,
  provider: "local",
}));
const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];
const PROVIDERS: ProviderConfig[] = [{ name: "local", type: "ollama", host: "http://127.0.0.1:9" }];
const CONCURRENCIES = [MODELS.length * LENSES.length, 8];

/** One reviewer's scripted turns: review turns (tool calls, then the answer), then the verify turn. */
interface ChainScript {
  model: string;
  lens: string;
  turnMs: number[];
}

function chainScripts(seed: number): ChainScript[] {
  const random = seededRandom(seed);
  const turn = () => Math.round((200 + random() * 1_800) * TIME_SCALE);
  // Lens-major, the order reviewRound enqueues its jobs in.
  return LENSES.flatMap((lens) =>
    MODELS.map((model) => {
      const reviewTurns = 3 + Math.floor(random() * 4);
      return { model: model.id, lens, turnMs: Array.from({ length: reviewTurns + 1 }, turn) };
    }),
  );
}

function findingsOf(script: ChainScript): LensFinding[] {
  return [
    {
      file: "src/db.js",
      line: 3,
      endLine: 4,
      severity: "medium",
      confidence: "high",
      title: `${script.lens}: query built from user input`,
      body: "The name is concatenated into the SQL text.",
    },
  ];
}

interface Timeline {
  /** Per reviewer: when its first turn started and its last turn ended, ms since the round began. */
  chains: Map<string, { start: number; end: number }>;
  unexpectedTurns: number;
}

/** A model that replays one chain's script: sleeps, then calls a tool, answers, or verifies. */
function scriptedModel(script: ChainScript, timeline: Timeline, origin: () => number): ChatModel {
  let turn = 0;
  const key = `${script.model}/${script.lens}`;
  return {
    kind: "chat",
    provider: "local",
    modelId: script.model,
    async chat(request: ChatRequest): Promise<ChatResult> {
      const index = turn++;
      const started = origin();
      const chain = timeline.chains.get(key) ?? { start: started, end: started };
      timeline.chains.set(key, chain);
      const delay = script.turnMs[index];
      if (delay === undefined) timeline.unexpectedTurns++;
      await sleep(delay ?? 0, undefined, request.signal ? { signal: request.signal } : {});
      chain.end = origin();
      const usage = { inputTokens: 100, outputTokens: 50 };
      const reviewTurns = script.turnMs.length - 1;
      if (index < reviewTurns - 1) {
        return {
          text: "",
          toolCalls: [
            { id: `call-${index}`, name: "read_file", arguments: '{"path":"src/db.js"}' },
          ],
          finishReason: "tool-calls",
          usage,
        };
      }
      const prose = index < reviewTurns ? "Reviewed src/db.js." : "Re-checked: it survives.";
      return {
        text: renderLensAnswer("Minor issues", findingsOf(script), prose),
        toolCalls: [],
        finishReason: "stop",
        usage,
      };
    },
  };
}

function plan(concurrency: number): ReviewPlan {
  return {
    models: MODELS,
    lenses: LENSES,
    customLenses: [],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [],
    review: {
      lenses: LENSES,
      concurrency,
      verify: true,
      maxTurns: 24,
      timeoutSeconds: 900,
      diffBudgetChars: 100_000,
      debounceSeconds: 0,
    },
  };
}

const change: ChangeSet = {
  title: "Add a user query",
  description: "",
  headSha: "0123456789abcdef0123456789abcdef01234567",
  files: [],
  packedDiff: "diff --git a/src/db.js b/src/db.js\n",
  included: ["src/db.js"],
  notReviewed: [],
  workspaceDir: FIXTURE_REPO,
};

interface Measured {
  concurrency: number;
  makespanMs: number;
  doneLenses: number;
  unexpectedTurns: number;
  /** Latest first-turn start and the largest gap between a chain's script and its real span. */
  lastStartMs: number;
  worstChainOverheadMs: number;
}

async function measure(scripts: ChainScript[], concurrency: number): Promise<Measured> {
  const lenses = await loadLenses();
  const timeline: Timeline = { chains: new Map(), unexpectedTurns: 0 };
  const byKey = new Map(scripts.map((script) => [`${script.model}/${script.lens}`, script]));
  // As the app's round registry does: every reviewer in flight listens to the round's signal.
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const started = performance.now();
  const origin = () => performance.now() - started;
  const result = await reviewRound({
    subject: { plan: plan(concurrency), providers: PROVIDERS, lenses, round: 1 },
    change,
    runtime: {
      env: {},
      signal: controller.signal,
      limiter: createReviewerLimiter(concurrency),
      createModel: (model, _provider, lens) => {
        const script = byKey.get(`${model.id}/${lens}`);
        if (script === undefined) throw new Error(`no script for ${model.id}/${lens}`);
        return scriptedModel(script, timeline, origin);
      },
    },
  });
  const makespanMs = origin();
  let worstChainOverheadMs = 0;
  let lastStartMs = 0;
  for (const [key, span] of timeline.chains) {
    const scripted = (byKey.get(key)?.turnMs ?? []).reduce((sum, ms) => sum + ms, 0);
    worstChainOverheadMs = Math.max(worstChainOverheadMs, span.end - span.start - scripted);
    lastStartMs = Math.max(lastStartMs, span.start);
  }
  return {
    concurrency,
    makespanMs,
    doneLenses: result.reports.filter((report) => report.outcome === "done").length,
    unexpectedTurns: timeline.unexpectedTurns,
    lastStartMs,
    worstChainOverheadMs,
  };
}

// Warm the JIT and the module graph with instant turns, so the first measured round is not also
// the process's first round.
const warmScripts = chainScripts(1).map((script) => ({
  ...script,
  turnMs: script.turnMs.map(() => 0),
}));
await measure(warmScripts, 20);

const scripts = chainScripts(SEED);
const jobs: ReviewerJob[] = scripts.map((script) => ({
  id: `${script.model}/${script.lens}`,
  durationMs: script.turnMs.reduce((sum, ms) => sum + ms, 0),
}));
const turnCounts = scripts.map((script) => script.turnMs.length);
const rows: Array<[string, string]> = [
  [
    "workload",
    `${MODELS.length} models × ${LENSES.length} lenses, ${Math.min(...turnCounts)}–${Math.max(...turnCounts)} turns each incl. verify, seed ${SEED}, time scale ${TIME_SCALE}`,
  ],
  ["total model time, ms", String(jobs.reduce((sum, job) => sum + job.durationMs, 0))],
];
const results = [];
let pass = true;
for (const concurrency of CONCURRENCIES) {
  const bounds = scheduleBounds(jobs, concurrency);
  const measured = await measure(scripts, concurrency);
  const vsLowerBound = measured.makespanMs / bounds.lowerBoundMs;
  const vsFifo = measured.makespanMs / bounds.fifoMs;
  // With a slot for every reviewer the lower bound is exact (the critical path); below that the
  // FIFO schedule is the reference the core can reach.
  const everyoneAtOnce = concurrency >= jobs.length;
  const ok =
    measured.doneLenses === jobs.length &&
    measured.unexpectedTurns === 0 &&
    (everyoneAtOnce ? vsLowerBound : vsFifo) <= MAX_RATIO;
  pass &&= ok;
  const label = `concurrency ${concurrency}`;
  rows.push(
    [`${label}: makespan, ms`, measured.makespanMs.toFixed(0)],
    [
      `${label}: lower bound, ms`,
      `${bounds.lowerBoundMs.toFixed(0)} (longest chain ${bounds.longestChainMs}, work/slots ${bounds.workPerSlotMs.toFixed(0)})`,
    ],
    [`${label}: FIFO reference / LPT, ms`, `${bounds.fifoMs} / ${bounds.lptMs}`],
    [
      `${label}: makespan ÷ lower bound`,
      `${vsLowerBound.toFixed(3)}${everyoneAtOnce ? ` (target ≤ ${MAX_RATIO})` : ""}`,
    ],
    [
      `${label}: makespan ÷ FIFO reference`,
      `${vsFifo.toFixed(3)}${everyoneAtOnce ? "" : ` (target ≤ ${MAX_RATIO})`}`,
    ],
    [
      `${label}: last first turn at / worst chain overhead, ms`,
      `${measured.lastStartMs.toFixed(0)} / ${measured.worstChainOverheadMs.toFixed(0)}`,
    ],
    [`${label}: lenses done`, `${measured.doneLenses}/${jobs.length}${ok ? "" : "  ← FAIL"}`],
  );
  results.push({
    concurrency,
    makespanMs: Math.round(measured.makespanMs),
    lowerBoundMs: Math.round(bounds.lowerBoundMs),
    longestChainMs: bounds.longestChainMs,
    fifoMs: bounds.fifoMs,
    lptMs: bounds.lptMs,
    vsLowerBound: Number(vsLowerBound.toFixed(4)),
    vsFifo: Number(vsFifo.toFixed(4)),
    worstChainOverheadMs: Math.round(measured.worstChainOverheadMs),
    doneLenses: measured.doneLenses,
    unexpectedTurns: measured.unexpectedTurns,
    pass: ok,
  });
}
rows.push(["result", pass ? "PASS" : "FAIL"]);
printReport(rows, {
  bench: "round-makespan",
  seed: SEED,
  timeScale: TIME_SCALE,
  maxRatio: MAX_RATIO,
  results,
  pass,
});
if (!pass) process.exitCode = 1;
