import { describe, expect, it } from "vitest";
import type { ChatModel, Message } from "../../src/llm/index.js";
import { createRedactor } from "../../src/llm/redact-secrets.js";
import { recordTranscript } from "../../src/run/record-transcript.js";

const SECRET = "sk-test-0123456789abcdef";

function echoModel(): ChatModel {
  return {
    kind: "chat",
    provider: "p",
    modelId: "m",
    chat: async (request) => ({
      text: `answer ${request.messages.length} ${SECRET}`,
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
    }),
  };
}

describe("recordTranscript", () => {
  it("keeps each chat session at its longest, the review then its own verify session, redacted", async () => {
    const recorder = recordTranscript(echoModel(), [SECRET]);
    const model = recorder.model as ChatModel;
    const review: Message[] = [
      { role: "system", content: "rules" },
      { role: "user", content: "the change" },
      { role: "user", content: "the lens" },
    ];
    await model.chat({ messages: review });
    await model.chat({
      messages: [...review, { role: "assistant", content: "a" }, { role: "user", content: "more" }],
    });
    const verify: Message[] = [
      { role: "system", content: "rules" },
      { role: "user", content: "the cited files" },
      { role: "user", content: "Verification pass." },
    ];
    await model.chat({ messages: verify });
    const transcript = recorder.transcript();
    expect(transcript.map((message) => message.content)).toEqual([
      "rules",
      "the change",
      "the lens",
      "a",
      "more",
      "answer 5 [redacted]",
      "rules",
      "the cited files",
      "Verification pass.",
      "answer 3 [redacted]",
    ]);
  });

  it("knows a session by its opening's content, whether the same message objects come back or copies", async () => {
    const recorder = recordTranscript(echoModel(), []);
    const model = recorder.model as ChatModel;
    const opening: Message[] = [
      { role: "system", content: "rules" },
      { role: "user", content: "the change" },
    ];
    await model.chat({ messages: opening });
    await model.chat({ messages: [...opening, { role: "user", content: "same objects" }] });
    const copies = opening.map((message) => ({ ...message }));
    await model.chat({
      messages: [...copies, { role: "user", content: "copies" }, { role: "user", content: "x" }],
    });
    const other: Message[] = [
      { role: "system", content: "rules" },
      { role: "user", content: "another opening" },
    ];
    await model.chat({ messages: other });
    expect(recorder.transcript().map((message) => message.content)).toEqual([
      "rules",
      "the change",
      "copies",
      "x",
      "answer 4 [redacted]",
      "rules",
      "another opening",
      "answer 2 [redacted]",
    ]);
  });

  it("tells sessions apart as their openings' JSON does: by content of the same length, by role, by any field", async () => {
    const recorder = recordTranscript(echoModel(), []);
    const model = recorder.model as ChatModel;
    const openings: Message[][] = [
      [
        { role: "system", content: "rules" },
        { role: "user", content: "change A" },
      ],
      [
        { role: "system", content: "rules" },
        { role: "user", content: "change B" },
      ],
      [
        { role: "system", content: "rules" },
        { role: "assistant", content: "change A" },
      ],
      [
        { role: "system", content: "change A" },
        { role: "user", content: "rules" },
      ],
      [
        { role: "system", content: "rules" },
        { role: "tool", content: "change A", toolCallId: "1" },
      ],
      [
        { role: "system", content: "rules" },
        { role: "tool", content: "change A", toolCallId: "2" },
      ],
    ];
    for (const opening of openings) await model.chat({ messages: opening });
    // Copies of the same openings are the same sessions again, not new ones.
    for (const opening of openings) {
      await model.chat({ messages: opening.map((message) => ({ ...message })) });
    }
    const transcript = recorder.transcript();
    expect(transcript).toHaveLength(openings.length * 3);
    expect(transcript.filter((message) => message.role === "system")).toHaveLength(openings.length);
  });

  it("redacts with the redactor it is given, one a round's lenses share", async () => {
    const asked: string[] = [];
    const shared = (text: string) => {
      asked.push(text);
      return createRedactor([SECRET])(text);
    };
    for (const lens of ["security", "tests"]) {
      const recorder = recordTranscript(echoModel(), shared);
      await (recorder.model as ChatModel).chat({
        messages: [{ role: "user", content: `review ${lens}` }],
      });
      expect(recorder.transcript().map((message) => message.content)).toEqual([
        `review ${lens}`,
        "answer 1 [redacted]",
      ]);
    }
    expect(asked).toEqual([
      "review security",
      `answer 1 ${SECRET}`,
      "review tests",
      `answer 1 ${SECRET}`,
    ]);
  });
});
