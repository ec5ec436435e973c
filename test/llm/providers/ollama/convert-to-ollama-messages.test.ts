import { describe, expect, it } from "vitest";
import { convertToOllamaMessages } from "../../../../src/llm/providers/ollama/convert-to-ollama-messages.js";
import { mapOllamaDoneReason } from "../../../../src/llm/providers/ollama/map-ollama-done-reason.js";
import { prepareOllamaTools } from "../../../../src/llm/providers/ollama/prepare-ollama-tools.js";

describe("convertToOllamaMessages", () => {
  it("sends tool arguments as objects and names each tool result by its call's tool", () => {
    expect(
      convertToOllamaMessages([
        { role: "system", content: "s" },
        { role: "user", content: "u" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "a", name: "read_file", arguments: '{"path":"x.ts"}' },
            { id: "b", name: "grep", arguments: '{"pattern":"y"}' },
          ],
        },
        { role: "tool", content: "grep result", toolCallId: "b" },
        { role: "tool", content: "file", toolCallId: "a" },
      ]),
    ).toEqual([
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { function: { name: "read_file", arguments: { path: "x.ts" } } },
          { function: { name: "grep", arguments: { pattern: "y" } } },
        ],
      },
      { role: "tool", content: "grep result", tool_name: "grep" },
      { role: "tool", content: "file", tool_name: "read_file" },
    ]);
  });

  it("sends malformed or non-object arguments back as an empty object", () => {
    const [message] = convertToOllamaMessages([
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "grep", arguments: '{"pattern":' },
          { id: "b", name: "grep", arguments: "[1]" },
        ],
      },
    ]);
    expect(message?.tool_calls?.map((call) => call.function.arguments)).toEqual([{}, {}]);
  });

  it("omits tool_name for a result answering an unknown call", () => {
    expect(convertToOllamaMessages([{ role: "tool", content: "r", toolCallId: "zzz" }])).toEqual([
      { role: "tool", content: "r" },
    ]);
  });
});

describe("prepareOllamaTools", () => {
  it("leaves the field out when there are no tools", () => {
    expect(prepareOllamaTools([])).toBeUndefined();
  });
});

describe("mapOllamaDoneReason", () => {
  it("lets tool calls decide, and treats a missing reason as stop", () => {
    expect(mapOllamaDoneReason("stop", true)).toBe("tool-calls");
    expect(mapOllamaDoneReason(undefined, false)).toBe("stop");
    expect(mapOllamaDoneReason("load", false)).toBe("other");
  });
});
