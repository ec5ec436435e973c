import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JsonReport, JsonUsageFigures } from "../../src/cli/schema.js";
import { createGitRepository, type GitRepository } from "../cli/git-repository.js";
import { type FakeOllamaServer, startFakeOllamaServer } from "../fakes/fake-ollama-server.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../fakes/fake-openai-server.js";
import type { BilledRequest } from "../fakes/model-fake-server.js";
import { CHALLENGE_LENS, type FakeModelRequest, type FakeReply } from "../fakes/model-script.js";
import { createSandbox, type Sandbox } from "./create-sandbox.js";
import { runGadfly } from "./run-gadfly.js";

const OLLAMA_KEY = "ollama-usage-key-7c1d";
const OPENAI_KEY = "sk-usage-openai-key-3e90";
const FILE = "src/retry.ts";
/** gpt-test's price in the config, USD per million tokens. */
const PRICE = { input: 2, cachedInput: 0.5, output: 8 };

const SOURCE = `export async function retry<T>(call: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt > attempts) throw error;
    }
  }
}
`;

/** Each model finds its own lone medium finding, so each is cross-examined by the other. */
const FINDINGS: Record<string, object> = {
  "glm-test": {
    file: FILE,
    line: 6,
    severity: "medium",
    confidence: "high",
    title: "Off by one: the call is tried attempts + 2 times",
    body: "`attempt > attempts` lets attempt reach attempts + 1 before rethrowing.",
  },
  "gpt-test": {
    file: FILE,
    line: 2,
    severity: "medium",
    confidence: "medium",
    title: "Retries with no delay between attempts hammer a failing service",
    body: "Each retry follows the failure at once: back off between attempts.",
  },
};

function answer(model: string): string {
  return `VERDICT: Minor issues\n\`\`\`gadfly-findings\n${JSON.stringify([FINDINGS[model]])}\n\`\`\``;
}

/** Reads the file, answers with its finding, keeps it on verification, confirms a challenge. */
function reviewer(request: FakeModelRequest): FakeReply {
  if (request.lens === CHALLENGE_LENS) {
    const verdict = { verdict: "confirm", reason: "The code does that.", checked: `${FILE}:2` };
    return { text: `Checked.\n\n\`\`\`gadfly-challenge\n${JSON.stringify(verdict)}\n\`\`\`` };
  }
  const last = request.messages.at(-1);
  if (last?.role === "user" && String(last.content).startsWith("Verification pass")) {
    return { text: `Re-read it: it holds.\n\n${answer(request.model)}` };
  }
  if (!request.messages.some((message) => message.role === "assistant")) {
    return { toolCalls: [{ name: "read_file", arguments: { path: FILE } }] };
  }
  return { text: `I read ${FILE}.\n\n${answer(request.model)}` };
}

let sandbox: Sandbox;
let repository: GitRepository;
let ollama: FakeOllamaServer;
let openai: FakeOpenAIServer;
let configPath: string;

beforeAll(async () => {
  sandbox = await createSandbox();
  repository = await createGitRepository();
  await repository.write(FILE, "export {};\n");
  repository.commit("Start");
  await repository.write(FILE, SOURCE);
  repository.commit("Retry helper");
  ollama = await startFakeOllamaServer({ apiKey: OLLAMA_KEY });
  openai = await startFakeOpenAIServer({ apiKey: OPENAI_KEY });
  ollama.script("glm-test", reviewer);
  openai.script("gpt-test", reviewer);
  configPath = join(sandbox.root, "gadfly.config.yml");
  await writeFile(
    configPath,
    `providers:
  - { name: local-ollama, type: ollama, host: "${ollama.url}", apiKeyEnv: E2E_OLLAMA_KEY }
  - { name: openai, type: openai, baseURL: "${openai.url}/v1", apiKeyEnv: E2E_OPENAI_KEY }
models:
  - { id: "glm-test", provider: local-ollama }
  - id: "gpt-test"
    provider: openai
    price: { input: ${PRICE.input}, cachedInput: ${PRICE.cachedInput}, output: ${PRICE.output} }
review:
  lenses: [security]
  timeoutSeconds: 30
`,
  );
});

afterAll(async () => {
  await Promise.all([ollama?.close(), openai?.close(), repository?.remove(), sandbox?.remove()]);
});

async function review(format: "json" | "sarif"): Promise<{ usage: JsonReport["usage"] }> {
  const result = await runGadfly(
    [
      "review",
      ...["--base", "main~1", "--head", "main", "--config", configPath],
      ...["--format", format, "--no-progress"],
    ],
    {
      cwd: repository.root,
      env: { ...sandbox.env, E2E_OLLAMA_KEY: OLLAMA_KEY, E2E_OPENAI_KEY: OPENAI_KEY },
    },
  );
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const parsed = JSON.parse(result.stdout) as JsonReport & {
    runs?: { properties: { usage: JsonReport["usage"] } }[];
  };
  return { usage: format === "json" ? parsed.usage : parsed.runs?.[0]?.properties.usage };
}

/** What the fake billed `model` for the requests after `from`, as the provider reported it. */
function billed(server: FakeOllamaServer | FakeOpenAIServer, from: number, model: string) {
  const sum = (requests: readonly BilledRequest[]) => ({
    inputTokens: requests.reduce((total, request) => total + request.inputTokens, 0),
    cachedInputTokens: requests.reduce((total, request) => total + request.cachedInputTokens, 0),
    outputTokens: requests.reduce((total, request) => total + request.outputTokens, 0),
  });
  const mine = server.billed.slice(from).filter((request) => request.model === model);
  return {
    all: sum(mine),
    challenges: sum(mine.filter((request) => request.lens === CHALLENGE_LENS)),
    lenses: sum(mine.filter((request) => request.lens !== CHALLENGE_LENS)),
  };
}

describe("gadfly review reports what the run spent, as the providers reported it", () => {
  it.each(["json", "sarif"] as const)(
    "--format %s: per model and phase, the fakes' token counts; the priced model's cost",
    { timeout: 60_000 },
    async (format) => {
      const from = [ollama.billed.length, openai.billed.length];
      const { usage } = await review(format);
      if (usage === undefined) throw new Error("no usage in the report");
      const glm = usage.models.find((model) => model.model === "glm-test");
      const gpt = usage.models.find((model) => model.model === "gpt-test");
      const glmBill = billed(ollama, from[0] ?? 0, "glm-test");
      const gptBill = billed(openai, from[1] ?? 0, "gpt-test");
      for (const [figures, bill] of [
        [glm, glmBill],
        [gpt, gptBill],
      ] as const) {
        expect(figures?.total).toMatchObject(bill.all);
        expect(figures?.phases.crossExamination).toMatchObject(bill.challenges);
        const reviewAndVerify = ["inputTokens", "cachedInputTokens", "outputTokens"].map(
          (key) =>
            (figures?.phases.review[key as "inputTokens"] ?? 0) +
            (figures?.phases.verify[key as "inputTokens"] ?? 0),
        );
        expect(reviewAndVerify).toEqual([
          bill.lenses.inputTokens,
          bill.lenses.cachedInputTokens,
          bill.lenses.outputTokens,
        ]);
        // Every phase really ran: a review, its verify pass, a challenge of the other's finding.
        expect(figures?.phases.review.inputTokens).toBeGreaterThan(0);
        expect(figures?.phases.verify.inputTokens).toBeGreaterThan(0);
        expect(bill.challenges.inputTokens).toBeGreaterThan(0);
        expect(figures?.total.durationMs).toBeGreaterThan(0);
        expect(JsonUsageFigures.safeParse(figures?.total).success).toBe(true);
      }
      // OpenAI's fake reports prefix-cache hits; Ollama reports none.
      expect(gptBill.all.cachedInputTokens).toBeGreaterThan(0);
      expect(glm).toMatchObject({ priced: false, total: { costUsd: null } });
      const { inputTokens, cachedInputTokens, outputTokens } = gptBill.all;
      const cost =
        ((inputTokens - cachedInputTokens) * PRICE.input +
          cachedInputTokens * PRICE.cachedInput +
          outputTokens * PRICE.output) /
        1_000_000;
      expect(gpt?.priced).toBe(true);
      expect(gpt?.total.costUsd).toBeCloseTo(cost, 6);
      expect(usage.total.inputTokens).toBe(glmBill.all.inputTokens + gptBill.all.inputTokens);
      expect(usage.total.costUsd).toBeNull();
    },
  );
});
