import { describe, expect, it } from "vitest";
import { InvalidModelResponseError } from "../../../../src/llm/errors.js";
import type { Message } from "../../../../src/llm/message.js";
import { convertToAnthropicMessages } from "../../../../src/llm/providers/anthropic/convert-to-anthropic-messages.js";

const conversation: Message[] = [
  { role: "system", content: "conventions" },
  { role: "system", content: "You review code. lens: security" },
  { role: "user", content: "Review the diff." },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "toolu_1", name: "read_file", arguments: '{"path":"a.ts"}' },
      { id: "toolu_2", name: "grep", arguments: '{"pattern":"x"}' },
    ],
  },
  { role: "tool", toolCallId: "toolu_1", content: "export const a = 1;" },
  { role: "tool", toolCallId: "toolu_2", content: "a.ts:1" },
  { role: "user", content: "Answer now." },
];

describe("convertToAnthropicMessages", () => {
  it("lifts system messages, merges tool results and the next user message into one user turn", () => {
    const prompt = convertToAnthropicMessages(conversation, { cache: false });
    expect(prompt.system).toEqual([
      { type: "text", text: "conventions" },
      { type: "text", text: "You review code. lens: security" },
    ]);
    expect(prompt.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Review the diff." }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
          { type: "tool_use", id: "toolu_2", name: "grep", input: { pattern: "x" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "export const a = 1;" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "a.ts:1" },
          { type: "text", text: "Answer now." },
        ],
      },
    ]);
  });

  it("with foldTools, sends tool calls and results as text and drops those turns' thinking", () => {
    const prompt = convertToAnthropicMessages(conversation, {
      cache: false,
      foldTools: true,
      thinkingFor: () => [{ type: "thinking", thinking: "plan", signature: "s" }],
    });
    expect(prompt.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Review the diff." }] },
      {
        role: "assistant",
        content: [
          {
            type: "text",
            text: '[tool call toolu_1: read_file {"path":"a.ts"}]\n[tool call toolu_2: grep {"pattern":"x"}]',
          },
        ],
      },
      {
        role: "user",
        content: [
          { type: "text", text: "[tool result toolu_1]\nexport const a = 1;" },
          { type: "text", text: "[tool result toolu_2]\na.ts:1" },
          { type: "text", text: "Answer now." },
        ],
      },
    ]);
  });

  it("marks the last system block and the first user message, and nothing else, for caching", () => {
    const prompt = convertToAnthropicMessages(conversation, { cache: true });
    const marked = JSON.stringify(prompt).match(/cache_control/g) ?? [];
    expect(marked).toHaveLength(2);
    expect(prompt.system[0]?.cache_control).toBeUndefined();
    expect(prompt.system[1]?.cache_control).toEqual({ type: "ephemeral" });
    expect(prompt.messages[0]?.content).toEqual([
      { type: "text", text: "Review the diff.", cache_control: { type: "ephemeral" } },
    ]);
  });

  it("puts a tool-use turn's thinking blocks back in front of it, unchanged", () => {
    const thinking = [
      { type: "thinking" as const, thinking: "check a.ts", signature: "sig" },
      { type: "redacted_thinking" as const, data: "opaque" },
    ];
    const prompt = convertToAnthropicMessages(conversation, {
      cache: false,
      thinkingFor: (id) => (id === "toolu_1" ? thinking : undefined),
    });
    const assistant = prompt.messages[1]?.content;
    expect(Array.isArray(assistant) && assistant.slice(0, 2)).toEqual(thinking);
  });

  it("keeps an assistant text beside its tool calls and never sends an empty text block", () => {
    const prompt = convertToAnthropicMessages(
      [
        { role: "user", content: "hi" },
        { role: "assistant", content: "" },
        { role: "user", content: "   " },
        {
          role: "assistant",
          content: "Let me look.",
          toolCalls: [{ id: "t1", name: "list_files", arguments: "" }],
        },
      ],
      { cache: false },
    );
    expect(prompt.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "(empty)" }] },
      { role: "user", content: [{ type: "text", text: "(empty)" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "t1", name: "list_files", input: {} },
        ],
      },
    ]);
  });

  it("refuses a tool result without its call id and tool arguments that are not an object", () => {
    expect(() =>
      convertToAnthropicMessages([{ role: "tool", content: "x" }], { cache: false }),
    ).toThrow(InvalidModelResponseError);
    expect(() =>
      convertToAnthropicMessages(
        [
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "t", name: "grep", arguments: "[1]" }],
          },
        ],
        { cache: false },
      ),
    ).toThrow(/not a JSON object/);
  });
});
