import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LensFinding } from "../../src/findings/schema.js";
import { MARKERS } from "../../src/render/markers.js";
import { deliver, type PullRequestSnapshot, pullRequestEvent } from "../fakes/fake-github/index.js";
import type { BilledRequest } from "../fakes/model-fake-server.js";
import { CHALLENGE_LENS } from "../fakes/model-script.js";
import {
  MODELS,
  type RunningApp,
  type Stack,
  startApp,
  startStack,
  WEBHOOK_SECRET,
  waitFor,
} from "./harness.js";
import { routeReviews } from "./route-reviews.js";

/*
 * gadfly_model_tokens_total and gadfly_model_cost_usd_total after a round through the real app:
 * every figure equals what the fake providers reported in their answers (their bill), the cost
 * is the priced model's alone, and cross-examination counts as much as the lenses.
 */

const FILE = "src/limits.js";
const [GLM, , GPT_A] = MODELS.map((model) => model.id) as [string, string, string, string];
/** gpt-a's price in the app config, USD per million tokens. */
const PRICE = { input: 1.25, cachedInput: 0.125, output: 10 };

const finding = (line: number, title: string): LensFinding => ({
  file: FILE,
  line,
  endLine: line,
  severity: "medium",
  confidence: "high",
  title,
  body: "Lone, so the other models are asked about it.",
});

interface Metric {
  labels: Record<string, string>;
  value: number;
}

/** The samples of one metric family in a Prometheus text exposition. */
function samples(text: string, name: string): Metric[] {
  const pattern = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, "gm");
  return [...text.matchAll(pattern)].map((match) => ({
    labels: Object.fromEntries(
      [...(match[1] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]),
    ),
    value: Number(match[2]),
  }));
}

describe("usage metrics: what the providers billed, as Prometheus counters", {
  timeout: 90_000,
}, () => {
  let stack: Stack;
  let app: RunningApp;

  beforeAll(async () => {
    stack = await startStack();
    const config = await readFile(stack.configPath, "utf8");
    const priced = config.replace(
      `{ id: "${GPT_A}", provider: openai }`,
      `{ id: "${GPT_A}", provider: openai, price: { input: ${PRICE.input}, cachedInput: ${PRICE.cachedInput}, output: ${PRICE.output} } }`,
    );
    expect(priced).not.toBe(config);
    await writeFile(stack.configPath, priced);
    routeReviews(stack, {
      "[spend]": {
        readPath: FILE,
        findings: (model) =>
          model === GLM
            ? [finding(2, "The limit is read from the request")]
            : model === GPT_A
              ? [finding(4, "The counter is never reset")]
              : [],
        challenge: () => "confirm",
      },
    });
    stack.github.addRepo({
      owner: "octo-org",
      name: "billing",
      ownerType: "Organization",
      files: { ".github/gadfly.yml": "lenses: [security]\n" },
    });
    app = await startApp(stack);
  }, 60_000);

  afterAll(async () => {
    await app?.stop("SIGKILL");
    await stack?.close();
  });

  it("counts each model's input, cached input and output tokens and the priced model's cost once", async () => {
    const pr: PullRequestSnapshot = stack.github.addPullRequest({
      owner: "octo-org",
      repo: "billing",
      title: "Rate limits [spend]",
      files: [
        {
          path: FILE,
          base: "export const limit = 10;\n",
          head: "let count = 0;\nexport const limit = (req) => req.query.limit;\nexport function hit() {\n  return ++count;\n}\n",
        },
      ],
    });
    await deliver(app.webhookUrl, pullRequestEvent("opened", pr), WEBHOOK_SECRET);
    await waitFor(
      () => stack.github.checkRuns(pr.headSha).some((check) => check.status === "completed"),
      60_000,
    );
    await waitFor(() =>
      stack.github.comments(pr).some((comment) => comment.body.startsWith(MARKERS.consensus)),
    );

    const text = await (await fetch(`${app.url}/metrics`)).text();
    expect(text).toContain(
      "# HELP gadfly_model_tokens_total Tokens the providers reported, by model and kind: input (every input token, cached ones included), cached_input (of input, read from a prompt cache), output.",
    );
    const tokens = samples(text, "gadfly_model_tokens_total");
    const cost = samples(text, "gadfly_model_cost_usd_total");
    const billed: BilledRequest[] = [...stack.ollama.billed, ...stack.openai.billed];
    // Both phases really ran: lenses and the challenges of the two lone findings.
    expect(billed.some((request) => request.lens === CHALLENGE_LENS)).toBe(true);
    for (const { id } of MODELS) {
      const mine = billed.filter((request) => request.model === id);
      expect(mine.length).toBeGreaterThan(0);
      const sum = (key: "inputTokens" | "cachedInputTokens" | "outputTokens") =>
        mine.reduce((total, request) => total + request[key], 0);
      const counted = (kind: string) =>
        tokens.find((sample) => sample.labels.model === id && sample.labels.kind === kind)?.value;
      expect({
        model: id,
        input: counted("input"),
        cached: counted("cached_input"),
        output: counted("output"),
      }).toEqual({
        model: id,
        input: sum("inputTokens"),
        cached: sum("cachedInputTokens"),
        output: sum("outputTokens"),
      });
      if (id === GPT_A) {
        // The OpenAI fake reports prefix-cache hits, priced at cachedInput.
        expect(sum("cachedInputTokens")).toBeGreaterThan(0);
        const expected =
          ((sum("inputTokens") - sum("cachedInputTokens")) * PRICE.input +
            sum("cachedInputTokens") * PRICE.cachedInput +
            sum("outputTokens") * PRICE.output) /
          1_000_000;
        expect(cost.find((sample) => sample.labels.model === id)?.value).toBeCloseTo(expected, 9);
      }
    }
    // Only the priced model has a cost series.
    expect(cost.map((sample) => sample.labels.model)).toEqual([GPT_A]);
  });
});
