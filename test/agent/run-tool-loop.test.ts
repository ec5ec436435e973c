import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RepoTools } from "../../src/agent/repo-tools.js";
import { runToolLoop, type ToolLoopOptions } from "../../src/agent/run-tool-loop.js";
import { createAnthropicChatModel } from "../../src/llm/providers/anthropic/anthropic-chat-model.js";
import { startDeadline, systemClock } from "../../src/time/index.js";
import {
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from "../fakes/fake-anthropic-server.js";

const API_KEY = "sk-ant-loop-0123456789abcdef";

const readOnlyTools: RepoTools = {
  definitions: [
    {
      name: "read_file",
      description: "Read a file",
      parameters: { type: "object", properties: { path: { type: "string" } } },
    },
  ],
  execute: async () => ({ content: "export const a = 1;", isError: false, summary: "a.ts" }),
};

function loopOptions(model: ToolLoopOptions["model"], more: Partial<ToolLoopOptions> = {}) {
  const controller = new AbortController();
  return {
    model,
    messages: [
      { role: "system" as const, content: "You review code. lens: security" },
      { role: "user" as const, content: "Review the change." },
    ],
    tools: readOnlyTools,
    maxTurns: 1,
    deadline: startDeadline(systemClock, 60_000, controller.signal),
    signal: controller.signal,
    clock: systemClock,
    graceMs: 10_000,
    describeBudget: () => "1 turn",
    maxToolCallsPerTurn: 8,
    toolOutputBudget: { remainingBytes: 100_000 },
    onTurn: () => {},
    onTool: () => {},
    onUsage: () => {},
    ...more,
  };
}

describe("runToolLoop with the Anthropic provider", () => {
  let fake: FakeAnthropicServer;
  beforeEach(async () => {
    fake = await startFakeAnthropicServer({ apiKey: API_KEY });
  });
  afterEach(async () => {
    await fake.close();
  });

  it("a forced final turn (turn budget spent mid tool exchange) is accepted by a fake that enforces the Messages API's rules", async () => {
    for (const thinkingBudgetTokens of [undefined, 2048]) {
      const model = createAnthropicChatModel({
        provider: { name: "claude", baseURL: fake.url, maxOutputTokens: 4096, promptCaching: true },
        modelId: "claude",
        model: "claude-loop",
        apiKey: API_KEY,
        ...(thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens }),
      });
      fake.script("claude-loop", [
        { thinking: ["read"], toolCalls: [{ name: "read_file", arguments: { path: "a.ts" } }] },
        { text: "VERDICT: No material issues" },
      ]);
      const result = await runToolLoop(loopOptions(model));
      expect(fake.rejected).toEqual([]);
      expect(result.stop).toBe("max-turns");
      expect(result.terminal).toBe("VERDICT: No material issues");
      const final = fake.requests.at(-1)?.body;
      expect(final?.tools).toBeUndefined();
      expect(JSON.stringify(final?.messages)).toContain("export const a = 1;");
    }
  });
});
