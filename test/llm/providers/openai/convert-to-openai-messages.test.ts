import { describe, expect, it } from "vitest";
import { InvalidModelResponseError } from "../../../../src/llm/errors.js";
import { convertToOpenAIMessages } from "../../../../src/llm/providers/openai/convert-to-openai-messages.js";
import { mapOpenAIFinishReason } from "../../../../src/llm/providers/openai/map-openai-finish-reason.js";
import { prepareOpenAITools } from "../../../../src/llm/providers/openai/prepare-openai-tools.js";

describe("convertToOpenAIMessages", () => {
  it("converts every role, keeping tool calls and the call a tool result answers", () => {
    expect(
      convertToOpenAIMessages([
        { role: "system", content: "s" },
        { role: "user", content: "u" },
        { role: "assistant", content: "a" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "grep", arguments: '{"pattern":"x"' }],
        },
        { role: "tool", content: "r", toolCallId: "c1" },
      ]),
    ).toEqual([
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: "a" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "grep", arguments: '{"pattern":"x"' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "r" },
    ]);
  });

  it("keeps an assistant's words next to its tool calls", () => {
    const [message] = convertToOpenAIMessages([
      {
        role: "assistant",
        content: "Let me look.",
        toolCalls: [{ id: "c1", name: "grep", arguments: "{}" }],
      },
    ]);
    expect(message).toMatchObject({ content: "Let me look." });
  });

  it("refuses a tool result that answers no call", () => {
    expect(() => convertToOpenAIMessages([{ role: "tool", content: "r" }])).toThrow(
      InvalidModelResponseError,
    );
  });
});

describe("prepareOpenAITools", () => {
  it("leaves the field out when there are no tools", () => {
    expect(prepareOpenAITools(undefined)).toBeUndefined();
    expect(prepareOpenAITools([])).toBeUndefined();
  });
});

describe("mapOpenAIFinishReason", () => {
  it("lets tool calls decide when a compatible server says stop or nothing", () => {
    expect(mapOpenAIFinishReason("stop", true)).toBe("tool-calls");
    expect(mapOpenAIFinishReason(null, true)).toBe("tool-calls");
    expect(mapOpenAIFinishReason(null, false)).toBe("other");
    expect(mapOpenAIFinishReason("function_call", false)).toBe("tool-calls");
    expect(mapOpenAIFinishReason("tool_calls", true)).toBe("tool-calls");
  });
});
