import { describe, expect, it } from "vitest";
import type { AgentModel, ChatModel, ChatResult } from "../../../src/llm/language-model.js";
import { createInMemoryModelCallLimiter } from "../../../src/llm/limits/in-memory-model-call-limiter.js";
import {
  limitModelCalls,
  type ModelCallSample,
} from "../../../src/llm/limits/limit-model-calls.js";
import { countInFlight } from "../../run/queue/helpers/count-in-flight.js";

const answer: ChatResult = {
  text: "VERDICT: Minor issues",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 10, outputTokens: 5 },
};

function fakeChat(provider: string, inFlight: ReturnType<typeof countInFlight>): ChatModel {
  return {
    kind: "chat",
    provider,
    modelId: `${provider}/model`,
    async chat() {
      inFlight.enter();
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight.leave();
      return answer;
    },
  };
}

describe("limitModelCalls", () => {
  it("keeps a provider's calls in flight under its cap, across models of that provider", async () => {
    const limiter = createInMemoryModelCallLimiter(() => 2);
    const inFlight = countInFlight();
    const models = [fakeChat("ollama-cloud", inFlight), fakeChat("ollama-cloud", inFlight)].map(
      (model) => limitModelCalls(model, limiter),
    );
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) => {
        const model = models[index % 2];
        if (model?.kind !== "chat") throw new Error("expected a chat model");
        return model.chat({ messages: [] });
      }),
    );
    expect(results).toHaveLength(12);
    expect(inFlight.most).toBe(2);
  });

  it("reports each call's latency and outcome, and frees the slot when the call throws", async () => {
    let time = 1_000;
    const samples: ModelCallSample[] = [];
    const limiter = createInMemoryModelCallLimiter(() => 1);
    const failing: AgentModel = {
      kind: "agent",
      provider: "claude-code",
      modelId: "claude-code/opus",
      async run() {
        time += 2_500;
        throw new Error("agent exited 1");
      },
    };
    const limited = limitModelCalls(failing, limiter, {
      now: () => time,
      onCall: (sample) => samples.push(sample),
    });
    if (limited.kind !== "agent") throw new Error("expected an agent model");
    await expect(limited.run({ prompt: "review", cwd: "/tmp" })).rejects.toThrow("agent exited 1");
    expect(samples).toEqual([
      { provider: "claude-code", model: "claude-code/opus", seconds: 2.5, outcome: "error" },
    ]);
    // The only slot came back: another call does not wait.
    const slot = await limiter.acquire("claude-code", AbortSignal.timeout(100));
    await slot.release();
  });

  it("stops waiting for a slot when the call's signal aborts", async () => {
    const limiter = createInMemoryModelCallLimiter(() => 1);
    const held = await limiter.acquire("openai");
    const limited = limitModelCalls(fakeChat("openai", countInFlight()), limiter);
    if (limited.kind !== "chat") throw new Error("expected a chat model");
    const controller = new AbortController();
    const call = limited.chat({ messages: [], signal: controller.signal });
    controller.abort(new Error("superseded"));
    await expect(call).rejects.toThrow("superseded");
    await held.release();
  });
});
