import { afterEach, beforeEach, expect, it } from "vitest";
import { AppConfig } from "../../../src/config/schema.js";
import type { ChatModel } from "../../../src/llm/language-model.js";
import { createInMemoryModelCallLimiter } from "../../../src/llm/limits/in-memory-model-call-limiter.js";
import type { ModelCallSample } from "../../../src/llm/limits/limit-model-calls.js";
import { limitedModelFactory } from "../../../src/llm/limits/limited-model-factory.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../../fakes/fake-openai-server.js";

let fake: FakeOpenAIServer;
let release: () => void = () => undefined;
let gate: Promise<void>;

beforeEach(async () => {
  fake = await startFakeOpenAIServer({ apiKey: "sk-test" });
  gate = new Promise((resolve) => {
    release = resolve;
  });
  fake.script("gpt-a", async () => {
    await gate;
    return { text: "done" };
  });
});
afterEach(async () => {
  release();
  await fake.close();
});

it("builds the provider's model with each call holding one of the provider's slots, and counts its latency", async () => {
  const config = AppConfig.parse({
    providers: [
      {
        name: "openai",
        type: "openai",
        baseURL: `${fake.url}/v1`,
        apiKeyEnv: "KEY",
        concurrency: 1,
      },
    ],
    models: [{ id: "gpt-a", provider: "openai" }],
  });
  const samples: ModelCallSample[] = [];
  const createModel = limitedModelFactory({
    env: { KEY: "sk-test" },
    modelCalls: createInMemoryModelCallLimiter(() => 1),
    metrics: { modelCall: (sample) => samples.push(sample as ModelCallSample) },
  });
  const [model] = config.models;
  const [provider] = config.providers;
  if (model === undefined || provider === undefined) throw new Error("config");
  const chat = (lens: string) => {
    const built = createModel(model, provider, lens) as ChatModel;
    return built.chat({ messages: [{ role: "user", content: `review through ${lens}` }] });
  };
  const calls = [chat("security"), chat("correctness")];
  await fake.waitFor(() => fake.inFlight === 1);
  // The second call waits for the slot rather than reaching the provider.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(fake.inFlight).toBe(1);
  release();
  const answers = await Promise.all(calls);
  expect(answers.map((answer) => answer.text)).toEqual(["done", "done"]);
  expect(fake.maxInFlight).toBe(1);
  expect(samples.map((sample) => [sample.provider, sample.model, sample.outcome])).toEqual([
    ["openai", "gpt-a", "ok"],
    ["openai", "gpt-a", "ok"],
  ]);
});
