/**
 * What one reviewer's prompt weighs on the 50-file benchmark pull request, compact against
 * full-diff (promptStyle): the first request's bytes and every request of a round together,
 * as request JSON (messages and tool definitions). One model reviews through the five lenses
 * with a scripted turn pattern, the same for both styles: one read_file turn, then an answer
 * with one finding, then the verify pass answering at once. In process, no HTTP: the figure is
 * what the prompt code builds, not what a server adds.
 *
 *   npx tsx bench/prompt-size.ts
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PromptStyle } from "../src/agent/index.js";
import { loadLenses } from "../src/agent/index.js";
import type { ReviewPlan } from "../src/config/index.js";
import { parseUnifiedDiff } from "../src/diff/index.js";
import type { ChatModel } from "../src/llm/index.js";

type ChatRequest = Parameters<ChatModel["chat"]>[0];

import { createReviewerLimiter, reviewChange } from "../src/run/index.js";
import { syntheticPath, syntheticPullRequest } from "./synthetic-pull-request.js";

const FILE_COUNT = 50;
const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];

function scriptedModel(requests: ChatRequest[]): ChatModel {
  return {
    kind: "chat",
    provider: "bench",
    modelId: "bench-model",
    async chat(request) {
      requests.push(request);
      const usage = { inputTokens: 0, outputTokens: 0 };
      const verifying = request.messages.at(-1)?.content.startsWith("Verification pass") === true;
      const hasAnswered = request.messages.some((message) => message.role === "tool");
      if (!verifying && !hasAnswered) {
        return {
          text: "",
          toolCalls: [
            { id: "c1", name: "read_file", arguments: JSON.stringify({ path: syntheticPath(7) }) },
          ],
          finishReason: "tool-calls",
          usage,
        };
      }
      const finding = {
        file: syntheticPath(7),
        line: 21,
        end_line: 25,
        severity: "high",
        confidence: "high",
        title: "SQL built by concatenation",
        body: "`name` goes into the SQL text.",
      };
      return {
        text: `Checked.\n\nVERDICT: Significant issues\n\`\`\`gadfly-findings\n${JSON.stringify([finding])}\n\`\`\``,
        toolCalls: [],
        finishReason: "stop",
        usage,
      };
    },
  };
}

async function measure(style: PromptStyle, root: string, diff: string) {
  const lenses = await loadLenses();
  const plan: ReviewPlan = {
    models: [{ id: "bench-model", provider: "bench" }],
    lenses: LENSES,
    customLenses: [],
    ignore: [],
    publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
    instructions: [],
    review: {
      lenses: LENSES,
      concurrency: 5,
      verify: true,
      maxTurns: 24,
      timeoutSeconds: 900,
      diffBudgetChars: 24_000,
      debounceSeconds: 0,
    },
  } as ReviewPlan;
  const requests: ChatRequest[] = [];
  const model = scriptedModel(requests);
  await reviewChange({
    subject: {
      plan,
      providers: [{ name: "bench", type: "replay", dir: root } as never],
      lenses,
      round: 1,
    },
    change: {
      source: {
        title: "Query helpers",
        description: "Adds query helpers to every module.",
        headSha: "0".repeat(40),
        files: parseUnifiedDiff(diff),
        workspaceDir: join(root, "head"),
      },
      promptStyle: style,
    },
    runtime: {
      env: {},
      secrets: [],
      signal: new AbortController().signal,
      limiter: createReviewerLimiter(5),
      createModel: () => model,
    },
  });
  const bytes = (request: ChatRequest) =>
    Buffer.byteLength(JSON.stringify({ messages: request.messages, tools: request.tools ?? [] }));
  const first = requests[0];
  const firstUser = first?.messages.filter((message) => message.role !== "system") ?? [];
  return {
    style,
    requests: requests.length,
    firstRequestBytes: first === undefined ? 0 : bytes(first),
    firstMessageChars: firstUser.reduce((sum, message) => sum + message.content.length, 0),
    totalRequestBytes: requests.reduce((sum, request) => sum + bytes(request), 0),
  };
}

const root = await mkdtemp(join(tmpdir(), "gadfly-prompt-size-"));
try {
  const pr = syntheticPullRequest(FILE_COUNT);
  for (const side of ["base", "head"] as const) {
    for (const file of pr.files) {
      const path = join(root, side, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, side === "base" ? String(file.base ?? "") : String(file.head ?? ""));
    }
  }
  let diff = "";
  try {
    execFileSync("git", ["diff", "--no-index", "--no-prefix", "base", "head"], { cwd: root });
  } catch (error) {
    // git diff --no-index exits 1 when the trees differ; its output is the diff.
    diff = String((error as { stdout?: Buffer }).stdout ?? "");
  }
  // a/ and b/ prefixes for the parser, relative to each tree's root.
  diff = diff
    .replaceAll("diff --git base/", "diff --git a/")
    .replaceAll(" head/", " b/")
    .replaceAll("--- base/", "--- a/")
    .replaceAll("+++ head/", "+++ b/");
  const compact = await measure("compact", root, diff);
  const full = await measure("full-diff", root, diff);
  console.log(JSON.stringify({ bench: "prompt-size", diffChars: diff.length, full, compact }));
} finally {
  await rm(root, { recursive: true, force: true });
}
