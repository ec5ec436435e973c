import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelError } from "../../../../src/llm/errors.js";
import type { ChatModel } from "../../../../src/llm/language-model.js";
import { recordingPath } from "../../../../src/llm/providers/replay/recording-path.js";
import { createReplayModel } from "../../../../src/llm/providers/replay/replay-model.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "gadfly-replay-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, JSON.stringify(value));
}

const chatRecording = {
  format: "gadfly-recording",
  version: 1,
  modelId: "glm-5.2:cloud",
  lens: "security",
  kind: "chat",
  turns: [
    {
      requestMessageCount: 2,
      result: {
        text: "",
        toolCalls: [{ id: "call_0_0", name: "read_file", arguments: '{"path":"a.ts"}' }],
        finishReason: "tool-calls",
        usage: { inputTokens: 10, outputTokens: 2 },
      },
    },
    {
      requestMessageCount: 4,
      result: {
        text: "VERDICT: Clean",
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 20, outputTokens: 4 },
      },
    },
  ],
};

const base = [
  { role: "system" as const, content: "s" },
  { role: "user" as const, content: "u" },
];

describe("recordingPath", () => {
  it("sanitises model ids and lenses into safe path segments", () => {
    expect(recordingPath("/r", "glm-5.2:cloud", "security")).toBe("/r/glm-5.2_cloud/security.json");
    expect(recordingPath("/r", "claude-code/opus", "error-handling")).toBe(
      "/r/claude-code_opus/error-handling.json",
    );
    expect(recordingPath("/r", "..", "../x")).toBe("/r/_../_.._x.json");
  });
});

describe("createReplayModel", () => {
  it("answers the recorded turns in order, checking each request's message count", async () => {
    await writeJson(recordingPath(dir, "glm-5.2:cloud", "security"), chatRecording);
    const model = createReplayModel({
      provider: "replay",
      modelId: "glm-5.2:cloud",
      lens: "security",
      dir,
    }) as ChatModel;
    expect(model.kind).toBe("chat");
    const first = await model.chat({ messages: base });
    expect(first).toEqual(chatRecording.turns[0]?.result);
    const second = await model.chat({
      messages: [
        ...base,
        { role: "assistant", content: "", toolCalls: first.toolCalls },
        { role: "tool", content: "x", toolCallId: "call_0_0" },
      ],
    });
    expect(second.text).toBe("VERDICT: Clean");
    await expect(model.chat({ messages: base })).rejects.toThrow(
      "replay: the recording of glm-5.2:cloud (security) has only 2 turns",
    );
  });

  it("refuses a conversation that diverged from the recording", async () => {
    await writeJson(recordingPath(dir, "glm-5.2:cloud", "security"), chatRecording);
    const model = createReplayModel({
      provider: "replay",
      modelId: "glm-5.2:cloud",
      lens: "security",
      dir,
    }) as ChatModel;
    await expect(
      model.chat({ messages: [...base, { role: "user", content: "extra" }] }),
    ).rejects.toThrow("diverged at turn 1: recorded after 2 messages, asked after 3");
  });

  it("fails clearly when the recording is missing or not a recording", async () => {
    const missing = () =>
      createReplayModel({ provider: "replay", modelId: "m", lens: "security", dir });
    expect(missing).toThrow(ModelError);
    expect(missing).toThrow(`replay: no recording at ${join(dir, "m", "security.json")}`);

    await writeJson(recordingPath(dir, "m", "security"), {
      format: "gadfly-recording",
      version: 2,
    });
    expect(missing).toThrow(/has format version 2; this Gadfly reads version 1$/);

    await writeJson(recordingPath(dir, "m", "security"), {
      ...chatRecording,
      kind: "chat",
      turns: [{}],
    });
    expect(missing).toThrow(/is invalid \(turns\.0\.requestMessageCount: /);

    await writeFile(recordingPath(dir, "m", "security"), "{not json");
    expect(missing).toThrow(/is not valid JSON$/);
  });

  it("replays agent runs", async () => {
    const result = {
      text: "done",
      transcript: [{ role: "assistant", content: "earlier" }],
      usage: { inputTokens: 1, outputTokens: 2 },
    };
    await writeJson(recordingPath(dir, "claude-code/opus", "security"), {
      format: "gadfly-recording",
      version: 1,
      modelId: "claude-code/opus",
      lens: "security",
      kind: "agent",
      runs: [{ result }],
    });
    const model = createReplayModel({
      provider: "replay",
      modelId: "claude-code/opus",
      lens: "security",
      dir,
    });
    if (model.kind !== "agent") {
      throw new Error("expected an agent model");
    }
    await expect(model.run({ prompt: "p", cwd: dir })).resolves.toEqual(result);
    await expect(model.run({ prompt: "p", cwd: dir })).rejects.toThrow("has only 1 runs");
  });
});
