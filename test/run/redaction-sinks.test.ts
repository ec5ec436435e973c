import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { loadLenses } from "../../src/agent/load-lenses.js";
import { createRedactingLog } from "../../src/boot/create-redacting-log.js";
import type { ModelConfig } from "../../src/config/schema.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import { renderLensAnswer } from "../../src/findings/findings-block.js";
import { ModelError } from "../../src/llm/errors.js";
import type { ChatModel } from "../../src/llm/language-model.js";
import { renderCheckRunOutput } from "../../src/render/render-check-run-output.js";
import { renderConsensusComment } from "../../src/render/render-consensus-comment.js";
import { renderInlineComment } from "../../src/render/render-inline-comment.js";
import { renderStatusBoard } from "../../src/render/render-status-board.js";
import type { ChangeSet } from "../../src/run/change-set.js";
import { collectSecrets } from "../../src/run/collect-secrets.js";
import { reviewRound } from "../../src/run/review-round.js";
import { createReviewerLimiter } from "../../src/run/reviewer-limiter.js";
import { FIXTURE_REPO } from "../agent/helpers/temporary-workspace.js";
import { PLANTED, SECRET_ENV, SECRET_PROVIDERS, secretFragments } from "./helpers/secret-kinds.js";

/*
 * Each kind of secret the process holds, planted where a model, an error or a log
 * line could carry it, must not reach any sink: what is published (consensus,
 * inline comments, check run, status board), what is stored (lens reports,
 * transcripts) and what is logged. The text around it must survive.
 */

const secrets = collectSecrets({ env: SECRET_ENV, providers: SECRET_PROVIDERS });
const everySecret = PLANTED.map((planted) => `«${planted.value}»`).join(" ");
const SURVIVOR = "the surrounding words survive";

const change: ChangeSet = {
  title: "t",
  description: "",
  headSha: "abc1234",
  files: [],
  packedDiff: "diff --git a/src/db.js b/src/db.js\n",
  included: ["src/db.js"],
  notReviewed: [],
  workspaceDir: FIXTURE_REPO,
};
const models: ModelConfig[] = [
  { id: "talker", provider: "openai" },
  { id: "failer", provider: "openai" },
];

/** talker quotes every secret in its prose, a finding's title and body; failer's error does. */
function createModel(model: ModelConfig): ChatModel {
  return {
    kind: "chat",
    provider: model.provider,
    modelId: model.id,
    async chat() {
      if (model.id === "failer") {
        throw new ModelError(`openai: 401 ${SURVIVOR}: ${everySecret}`);
      }
      // One finding per secret, so that each is in a title short enough to be shown whole.
      const answer = renderLensAnswer(
        "Significant issues",
        PLANTED.map((planted, index) => ({
          file: "src/db.js",
          line: 1 + index * 10,
          endLine: 1 + index * 10,
          severity: "high" as const,
          confidence: "high" as const,
          title: `${SURVIVOR}: ${planted.value}`,
          body: `${SURVIVOR}: ${everySecret}`,
          // A suggestion is published as code a maintainer may commit.
          suggestion: `// ${SURVIVOR}: ${everySecret}`,
        })),
      );
      return {
        text: `${SURVIVOR}. I read ${everySecret}\n\n${answer}`,
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

const sinks: Record<string, string> = {};

beforeAll(async () => {
  const boards: string[] = [];
  const transcripts: string[] = [];
  const result = await reviewRound({
    subject: {
      plan: {
        models,
        lenses: ["security"],
        customLenses: [],
        ignore: [],
        publish: { inline: "agreed", minSeverity: "nit", maxInline: 30 },
        instructions: [],
        review: {
          lenses: ["security"],
          concurrency: 2,
          verify: false,
          maxTurns: 2,
          timeoutSeconds: 60,
          diffBudgetChars: 10_000,
          debounceSeconds: 0,
        },
      },
      providers: SECRET_PROVIDERS,
      lenses: await loadLenses(),
      round: 1,
    },
    change,
    runtime: {
      env: SECRET_ENV,
      secrets,
      signal: new AbortController().signal,
      limiter: createReviewerLimiter(2),
      createModel,
    },
    journal: {
      onStatus: (status) => boards.push(renderStatusBoard(status)),
      onTranscript: async (_model, _lens, messages) => {
        transcripts.push(JSON.stringify(messages));
      },
    },
  });
  const consensus = buildConsensus({
    reports: result.reports,
    modelOrder: models.map((model) => model.id),
    lensOrder: ["security"],
    providers: { talker: "openai", failer: "openai" },
  });
  const check = renderCheckRunOutput(consensus);
  sinks["consensus comment"] = renderConsensusComment(consensus).body;
  sinks["inline comments"] = consensus.clusters
    .map((cluster) => {
      const { file, line, endLine, suggestion } = cluster.representative;
      // Shown as it would be once checked: the suggestion's lines as the model gave them.
      return renderInlineComment(
        cluster,
        {},
        {
          kind: "passed",
          file,
          line,
          endLine,
          lines: (suggestion ?? "").split("\n"),
          supporters: cluster.models,
          original: [],
          grammar: "javascript",
        },
      );
    })
    .join("\n");
  sinks["check run"] = `${check.title}\n${check.summary}\n${check.text}`;
  sinks["status board (every edit)"] = boards.join("\n");
  sinks["stored lens reports"] = JSON.stringify(result.reports);
  sinks.transcripts = transcripts.join("\n");
  sinks.logs = await capturedLogs();
});

/** Everything a redacting logger prints when each secret is in a message, a field, an error and a binding. */
async function capturedLogs(): Promise<string> {
  let output = "";
  for (const format of ["json", "pretty"]) {
    const destination = new PassThrough();
    destination.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const log = await createRedactingLog({
      env: { LOG_FORMAT: format, LOG_LEVEL: "info" },
      secrets,
      destination,
    });
    log.info(`${SURVIVOR}: ${everySecret}`);
    log.warn({ detail: everySecret, nested: { deeper: [everySecret] } }, SURVIVOR);
    log.error({ err: new Error(`${SURVIVOR}: ${everySecret}`) }, "round failed");
    log.child({ binding: everySecret }).info(SURVIVOR);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return output;
}

describe("no secret reaches any sink", () => {
  const sinkNames = [
    "consensus comment",
    "inline comments",
    "check run",
    "status board (every edit)",
    "stored lens reports",
    "transcripts",
    "logs",
  ];
  const cases = sinkNames.flatMap((sink) =>
    PLANTED.map((planted) => [sink, planted.kind, planted.value] as const),
  );
  it.each(cases)("%s: %s", (sink, _kind, value) => {
    const text = sinks[sink] ?? "";
    expect(text, `${sink} was produced`).not.toBe("");
    for (const fragment of secretFragments(value)) expect(text).not.toContain(fragment);
  });

  it.each(sinkNames)("%s keeps the text around the secrets", (sink) => {
    expect(sinks[sink]).toContain(SURVIVOR);
  });
});
